import { expect, it } from 'vitest';
import { formatMoney } from '../../../src/server/platform/mail/formatting.js';
import { mailKinds } from '../../../src/server/platform/mail/templates.js';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import type { OutboxMail } from '../../support/outbox.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { pdfText } from '../helpers/invoice-helpers.js';
import { machine, member } from '../helpers/license-helpers.js';
import { acceptInvitation, inviteAndReadLink } from '../helpers/organisation-helpers.js';
import {
  buyForOrganisation,
  buySeats,
  expectOrganisation,
  expectQuote,
  organisationWithRoles,
  quoteSeats,
} from '../helpers/organisation-purchase-helpers.js';
import { activateSeat, join, seatOrganisation } from '../helpers/organisation-seat-helpers.js';
import { chargesOf, subscribe, subscriptionCall } from '../helpers/subscription-helpers.js';

/**
 * Issue 27, item 10: every change of money or membership mails the person it concerns, queued in
 * the change's transaction (a refused change mails nothing). Each test reads the mail's bytes
 * from the outbox as a mail client would.
 */

const mailsTo = async (s: TestServer, email: string, subject: RegExp): Promise<OutboxMail[]> =>
  (await s.outbox()).filter((mail) => mail.to.includes(email) && subject.test(mail.subject));

const queuedKinds = async (s: TestServer, email: string) =>
  (
    await s.app.db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('recipient', '=', email)
      .orderBy('id')
      .execute()
  ).map((row) => row.kind);

describeOnEveryDatabase('mail for every change of money or membership', (server) => {
  it('buying seats sends the payer a receipt with the seats, the amount charged and the invoice PDF attached', async () => {
    const s = server();
    const org = await organisationWithRoles(s, 'Northwind Labs');
    const { subscription } = await buyForOrganisation(s, org.owner, org.id, 3);
    const quote = expectQuote(await quoteSeats(s, org.admin, org.id, 5));
    expect(quote.due_now_minor).toBeGreaterThan(0);
    expectOrganisation(await buySeats(s, org.admin, org.id, 5));

    const seatCharge = (await chargesOf(s, subscription.id)).find((charge) =>
      charge.provider_order_id.includes('#seats:3-5'),
    );
    expect(seatCharge?.amount_minor).toBe(quote.due_now_minor);
    const receipts = await mailsTo(s, org.owner.email, new RegExp(`^Your ${PRODUCT_NAME} receipt`));
    // The plan's first charge, then the seats'.
    expect(receipts).toHaveLength(2);
    const receipt = receipts.find((mail) => mail.text.includes('more on Northwind Labs'));
    expect(receipt, receipts.map((mail) => mail.text).join('\n---\n')).toBeDefined();
    const amount = formatMoney(quote.due_now_minor, quote.currency);
    expect(receipt!.text).toContain(`Amount paid: ${amount}`);
    expect(receipt!.text).toContain('Seats: 3 → 5 (2 added)');
    expect(receipt!.text).toContain('Organization: Northwind Labs');
    expect(receipt!.html).toContain(amount);
    const number = /INV-\d{6}/.exec(receipt!.subject)?.[0];
    expect(number).toBeDefined();
    expect(receipt!.attachments).toHaveLength(1);
    expect(receipt!.attachments[0]).toMatchObject({
      filename: `invoice-${number}.pdf`,
      mimeType: 'application/pdf',
    });
    const text = await pdfText(receipt!.attachments[0]!.content);
    expect(text).toContain(number);
    expect(text).toMatch(/2 seats added \(3 to 5\)/);
    // Only the payer gets it: the admin who clicked is not the subscription's payer.
    expect(await mailsTo(s, org.admin.email, /receipt/)).toEqual([]);
  });

  it('resuming a canceled subscription mails its next charge and date, once; a refused resume mails nothing', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer);
    const path = `/subscriptions/${subscription.id}`;
    await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, {});
    const resumed = await subscriptionCall(s, buyer, 'POST', `${path}/resume`);
    expect(resumed.cancel_at_period_end).toBe(false);
    const again = await s.api({ method: 'POST', path: `${path}/resume`, token: buyer.token });
    expect(again.statusCode).toBe(409);

    const mails = await mailsTo(s, buyer.email, /subscription is resumed$/);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe('Your Pro subscription is resumed');
    expect(mail!.text).toContain(`Next charge: ${formatMoney(99900, 'INR')}`);
    expect(mail!.text).toMatch(/Renews on: \d{1,2} \w+ \d{4}/);
    expect(mail!.text).toContain('/subscriptions');
    expect(await queuedKinds(s, buyer.email)).toContain(mailKinds.subscriptionResumed);
  });

  it('a removed member is told, with their machines on the seat; one who leaves is not; a refused removal mails nothing', async () => {
    const s = server();
    const owner = await member(s);
    const org = await seatOrganisation(s, owner, 3);
    const removed = await join(s, org);
    const leaver = await join(s, org);
    for (const hardware of [machine('a'), machine('b')]) {
      const activated = await activateSeat(s, removed.token, org.id, hardware);
      expect(activated.statusCode, activated.body).toBe(201);
    }

    const refused = await s.api({
      method: 'DELETE',
      path: `/organisations/${org.id}/members/${owner.id}`,
      token: owner.token,
    });
    expect(refused.statusCode).toBe(409);
    const removal = await s.api({
      method: 'DELETE',
      path: `/organisations/${org.id}/members/${removed.id}`,
      token: owner.token,
    });
    expect(removal.statusCode, removal.body).toBe(204);
    const left = await s.api({ method: 'POST', path: `/organisations/${org.id}/leave`, token: leaver.token });
    expect(left.statusCode, left.body).toBe(204);

    const mails = await mailsTo(s, removed.email, /You were removed from/);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(`You were removed from ${org.name} on ${PRODUCT_NAME}`);
    expect(mail!.text).toContain(`${owner.email} removed you from ${org.name}`);
    expect(mail!.text).toContain('the 2 machines you activated with it stop working');
    expect(mail!.text).toContain('/purchase');
    expect(await queuedKinds(s, leaver.email)).not.toContain(mailKinds.organisationMemberRemoved);
    expect(await queuedKinds(s, owner.email)).not.toContain(mailKinds.organisationMemberRemoved);
  });

  it('a removed member who reads German is told in German, their machines counted in German', async () => {
    const s = server();
    const owner = await member(s);
    const org = await seatOrganisation(s, owner, 3);
    const removed = await join(s, org);
    const german = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token: removed.token,
      body: { language: 'de' },
    });
    expect(german.statusCode, german.body).toBe(200);
    for (const hardware of [machine('de-a'), machine('de-b')]) {
      const activated = await activateSeat(s, removed.token, org.id, hardware);
      expect(activated.statusCode, activated.body).toBe(201);
    }
    const removal = await s.api({
      method: 'DELETE',
      path: `/organisations/${org.id}/members/${removed.id}`,
      token: owner.token,
    });
    expect(removal.statusCode, removal.body).toBe(204);
    const mail = await s.lastMailTo(removed.email);
    expect(mail.subject).toBe(`Sie wurden aus ${org.name} bei ${PRODUCT_NAME} entfernt`);
    expect(mail.text).toContain(`${owner.email} hat Sie aus ${org.name} bei ${PRODUCT_NAME} entfernt.`);
    expect(mail.text).toContain('die 2 Geräte, die Sie damit aktiviert haben, funktionieren');
  });

  it('the owner is told when an invitee joins, with the seats now taken; a refused acceptance mails nothing more', async () => {
    const s = server();
    const owner = await member(s);
    const org = await seatOrganisation(s, owner, 3);
    const admin = await join(s, org, { role: 'admin', seat: false });
    const invitee = await member(s);
    const { token } = await inviteAndReadLink(s, admin, org.id, invitee.email, 'admin');
    const accepted = await acceptInvitation(s, invitee, token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await acceptInvitation(s, invitee, token)).statusCode).toBe(410);

    const mails = await mailsTo(s, owner.email, / joined /);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(`${invitee.email} joined ${org.name}`);
    expect(mail!.text).toContain('Role: Administrator');
    // The owner's seat and the invitee's: 2 of 3.
    expect(mail!.text).toContain('Seats taken: 2 of 3');
    expect(mail!.text).toContain(`/organisations/${org.id}`);
    // The inviting admin and the invitee get no such mail.
    expect(await queuedKinds(s, admin.email)).not.toContain(mailKinds.organisationMemberJoined);
    expect(await queuedKinds(s, invitee.email)).not.toContain(mailKinds.organisationMemberJoined);
  });
});
