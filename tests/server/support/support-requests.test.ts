import { describe, expect, it } from 'vitest';
import {
  adminSupportRequestListSchema,
  adminSupportRequestSchema,
  SUPPORT_MESSAGE_MAX,
  supportRequestListSchema,
  supportRequestReceiptSchema,
} from '../../../src/shared/api/support.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { SUPPORT_REQUESTS_PER_HOUR } from '../../../src/server/support/routes.js';
import { DIAGNOSTICS_FILENAME } from '../../../src/server/support/mail.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { member } from '../helpers/license-helpers.js';

const SUPPORT_ADDRESS = 'help-desk@example.com';
const DIAGNOSTICS =
  'App: Desktop AI Assistant web portal 1.4.2\nUser id: u-1\nLicense key: ABCDE-•••••-YZ234';

const request = {
  topic: 'Billing and payments',
  subject: 'Charged twice',
  message: 'My card was charged twice for Pro yesterday.\n\nThe second charge is from 10:42.',
};

const send = (s: TestServer, token: string | undefined, body: unknown) =>
  s.api({ method: 'POST', path: '/support/requests', ...(token ? { token } : {}), body });

const supportMails = async (s: TestServer) =>
  (await s.outbox()).filter((mail) => mail.to.includes(SUPPORT_ADDRESS));

describe('SUPPORT_EMAIL', () => {
  it('is optional and must be an address', () => {
    expect(loadConfig({}).supportEmail).toBeUndefined();
    expect(loadConfig({ SUPPORT_EMAIL: SUPPORT_ADDRESS }).supportEmail).toBe(SUPPORT_ADDRESS);
    expect(() => loadConfig({ SUPPORT_EMAIL: 'support' })).toThrow(/SUPPORT_EMAIL/);
  });
});

describeOnEveryDatabase(
  'support requests',
  (server) => {
    it('stores the request, mails it to SUPPORT_EMAIL with Reply-To the customer and the diagnostics attached when sent', async () => {
      const s = server();
      const customer = await member(s);
      const admin = await member(s, 'admin');
      const response = await send(s, customer.token, { ...request, diagnostics: DIAGNOSTICS });
      expect(response.statusCode, response.body).toBe(201);
      const receipt = supportRequestReceiptSchema.parse(response.json());
      expect(receipt.reference).toMatch(/^SR-[A-HJKMNP-TV-Z2-9]{8}$/);
      expect(receipt).toMatchObject({ reply_to: customer.email, diagnostics_included: true });

      const mails = (await supportMails(s)).filter((mail) => mail.subject.includes(receipt.reference));
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe(`[${receipt.reference}] Billing and payments: Charged twice`);
      expect(mail.headers.get('reply-to')).toContain(customer.email);
      expect(mail.text).toContain('My card was charged twice for Pro yesterday.');
      expect(mail.text).toContain('The second charge is from 10:42.');
      expect(mail.text).toContain(customer.id);
      expect(mail.attachments).toHaveLength(1);
      expect(mail.attachments[0]?.filename).toBe(DIAGNOSTICS_FILENAME);
      expect(mail.attachments[0]?.content.toString('utf8')).toBe(`${DIAGNOSTICS}\n`);

      const list = await s.api({
        path: `/admin/support-requests?search=${receipt.reference}`,
        token: admin.token,
      });
      expect(list.statusCode, list.body).toBe(200);
      const page = adminSupportRequestListSchema.parse(list.json());
      expect(page.total).toBe(1);
      expect(page.data[0]).toMatchObject({
        id: receipt.id,
        reference: receipt.reference,
        user_id: customer.id,
        email: customer.email,
        topic: 'Billing and payments',
        subject: 'Charged twice',
        message: request.message,
        diagnostics: DIAGNOSTICS,
        state: 'open',
        handled_at: null,
      });
    });

    it('without the diagnostics: no file in the mail and none stored; what was typed is text in the HTML part', async () => {
      const s = server();
      const customer = await member(s);
      const response = await send(s, customer.token, {
        ...request,
        message: 'The page shows <img src=x onerror=alert(1)> where my invoice should be.',
      });
      expect(response.statusCode, response.body).toBe(201);
      const receipt = supportRequestReceiptSchema.parse(response.json());
      expect(receipt.diagnostics_included).toBe(false);
      const mail = (await supportMails(s)).find((each) => each.subject.includes(receipt.reference));
      expect(mail?.attachments).toEqual([]);
      expect(mail?.text).toContain('chose not to send the app and account information');
      expect(mail?.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(mail?.html).not.toContain('<img src=x');
      const row = await s.app.db
        .selectFrom('support_requests')
        .selectAll()
        .where('id', '=', receipt.id)
        .executeTakeFirstOrThrow();
      expect(row.diagnostics).toBeNull();
    });

    it('an administrator marks a request handled and open again; the list filters by state', async () => {
      const s = server();
      const customer = await member(s);
      const admin = await member(s, 'admin');
      const receipt = supportRequestReceiptSchema.parse((await send(s, customer.token, request)).json());
      const mark = (handled: boolean, id = receipt.id) =>
        s.api({
          method: 'PUT',
          path: `/admin/support-requests/${id}/handled`,
          token: admin.token,
          body: { handled },
        });

      const handled = await mark(true);
      expect(handled.statusCode, handled.body).toBe(200);
      expect(adminSupportRequestSchema.parse(handled.json())).toMatchObject({
        state: 'handled',
        handled_by_email: admin.email,
      });
      const handledAt = adminSupportRequestSchema.parse(handled.json()).handled_at;
      expect(adminSupportRequestSchema.parse((await mark(true)).json()).handled_at).toBe(handledAt);
      const ids = async (state: string) =>
        adminSupportRequestListSchema
          .parse(
            (
              await s.api({ path: `/admin/support-requests?state=${state}&perPage=100`, token: admin.token })
            ).json(),
          )
          .data.map((item) => item.id);
      expect(await ids('handled')).toContain(receipt.id);
      expect(await ids('open')).not.toContain(receipt.id);

      expect(adminSupportRequestSchema.parse((await mark(false)).json())).toMatchObject({
        state: 'open',
        handled_at: null,
        handled_by_email: null,
      });
      expect(await ids('open')).toContain(receipt.id);
      expectApiError(await mark(true, 'no-such-request'), 404, 'support_request_not_found');
      expectApiError(
        await s.api({ path: '/admin/support-requests', token: customer.token }),
        403,
        'admin_required',
      );
    });

    it('acknowledges the request to the customer: the reference, a copy of what they wrote, Reply-To support', async () => {
      const s = server();
      const customer = await member(s);
      const response = await send(s, customer.token, {
        ...request,
        message: 'The page shows <b>nothing</b> where my invoice should be.\n\nSince Monday.',
      });
      expect(response.statusCode, response.body).toBe(201);
      const receipt = supportRequestReceiptSchema.parse(response.json());
      const mails = (await s.outbox()).filter((mail) => mail.to.includes(customer.email));
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe(`[${receipt.reference}] We received your request: Charged twice`);
      expect(mail.headers.get('reply-to')).toContain(SUPPORT_ADDRESS);
      expect(mail.text).toContain(`Reference: ${receipt.reference}`);
      expect(mail.text).toContain('Topic: Billing and payments');
      expect(mail.text).toContain('Since Monday.');
      expect(mail.text).toContain('/support');
      expect(mail.html).toContain('&lt;b&gt;nothing&lt;/b&gt;');
      expect(mail.attachments).toEqual([]);
      const kinds = await s.app.db
        .selectFrom('mail_outbox')
        .select('kind')
        .where('recipient', '=', customer.email)
        .execute();
      expect(kinds.map((row) => row.kind)).toEqual(['support_request_received']);
    });

    it('acknowledges in the language the customer chose (German), while support reads the request in English', async () => {
      const s = server();
      const customer = await member(s);
      const german = await s.api({
        method: 'PUT',
        path: '/users/me/preferences',
        token: customer.token,
        body: { language: 'de' },
      });
      expect(german.statusCode, german.body).toBe(200);
      const response = await send(s, customer.token, request);
      expect(response.statusCode, response.body).toBe(201);
      const receipt = supportRequestReceiptSchema.parse(response.json());
      const [acknowledgement] = (await s.outbox()).filter((mail) => mail.to.includes(customer.email));
      expect(acknowledgement!.subject).toBe(
        `[${receipt.reference}] Wir haben Ihre Anfrage erhalten: Charged twice`,
      );
      expect(acknowledgement!.text).toContain('Thema: Abrechnung und Zahlungen');
      expect(acknowledgement!.html).toContain('lang="de"');
      const [copy] = (await supportMails(s)).filter((mail) => mail.subject.includes(receipt.reference));
      expect(copy!.subject).toBe(`[${receipt.reference}] Billing and payments: Charged twice`);
    });

    it("lists the customer's own requests, newest first, each open or handled; never another account's", async () => {
      const s = server();
      const customer = await member(s);
      const other = await member(s);
      const admin = await member(s, 'admin');
      const first = supportRequestReceiptSchema.parse((await send(s, customer.token, request)).json());
      s.clock.advance(60_000);
      const second = supportRequestReceiptSchema.parse(
        (await send(s, customer.token, { ...request, subject: 'Invoice address' })).json(),
      );
      const theirs = supportRequestReceiptSchema.parse((await send(s, other.token, request)).json());
      const handled = await s.api({
        method: 'PUT',
        path: `/admin/support-requests/${first.id}/handled`,
        token: admin.token,
        body: { handled: true },
      });
      expect(handled.statusCode, handled.body).toBe(200);

      const list = async (who: { token: string }, query = '') => {
        const response = await s.api({ path: `/support/requests${query}`, token: who.token });
        expect(response.statusCode, response.body).toBe(200);
        return supportRequestListSchema.parse(response.json());
      };
      const mine = await list(customer);
      expect(mine.total).toBe(2);
      expect(mine.data.map((item) => item.reference)).toEqual([second.reference, first.reference]);
      expect(mine.data[0]).toEqual({
        id: second.id,
        reference: second.reference,
        topic: 'Billing and payments',
        subject: 'Invoice address',
        state: 'open',
        handled_at: null,
        created_at: second.created_at,
      });
      expect(mine.data[1]).toMatchObject({ id: first.id, state: 'handled', handled_at: expect.any(String) });
      // What the customer sees holds nothing for support's eyes only.
      expect(Object.keys(mine.data[1]!)).not.toContain('diagnostics');
      expect(Object.keys(mine.data[1]!)).not.toContain('handled_by_email');

      expect((await list(other)).data.map((item) => item.id)).toEqual([theirs.id]);
      expect((await list(admin)).data).toEqual([]);
      expect((await list(customer, `?search=${first.reference}`)).data.map((item) => item.id)).toEqual([
        first.id,
      ]);
      expect((await list(customer, '?sort=created_at&perPage=1')).data.map((item) => item.id)).toEqual([
        first.id,
      ]);
      expectApiError(await s.api({ path: '/support/requests' }), 401, 'not_authenticated');
      expectApiError(
        await s.api({ path: '/support/requests?perPage=0', token: customer.token }),
        400,
        'validation_error',
      );
      expectApiError(
        await s.api({ path: '/support/requests?sort=email', token: customer.token }),
        400,
        'validation_error',
      );
    });

    it('refuses bad input with 400 JSON and stores nothing', async () => {
      const s = server();
      const customer = await member(s);
      const count = async () =>
        Number(
          (
            await s.app.db
              .selectFrom('support_requests')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const bad: unknown[] = [
        {},
        { ...request, topic: 'Gossip' },
        { ...request, subject: 'x' },
        { ...request, subject: 'a\u0007bell' },
        { ...request, message: 'too short' },
        { ...request, message: 'x'.repeat(SUPPORT_MESSAGE_MAX + 1) },
        { ...request, diagnostics: 'd'.repeat(4001) },
        { ...request, email: 'someone-else@example.com' },
      ];
      for (const body of bad) {
        const response = await send(s, customer.token, body);
        expectApiError(response, 400, 'validation_error');
      }
      expectApiError(await send(s, undefined, request), 401, 'not_authenticated');
      expect(await count()).toBe(before);
    });

    it(`allows ${SUPPORT_REQUESTS_PER_HOUR} requests an hour per account, then 429`, async () => {
      const s = server();
      const busy = await member(s);
      const other = await member(s);
      for (let index = 0; index < SUPPORT_REQUESTS_PER_HOUR; index++)
        expect((await send(s, busy.token, request)).statusCode).toBe(201);
      expectApiError(await send(s, busy.token, request), 429, 'rate_limited');
      // Another account from the same address is not held back.
      expect((await send(s, other.token, request)).statusCode).toBe(201);
    });
  },
  { env: { SUPPORT_EMAIL: SUPPORT_ADDRESS } },
);

describeOnEveryDatabase('support requests without SUPPORT_EMAIL', (server) => {
  it('are stored for administrators, acknowledged to the customer, and mailed to no support address', async () => {
    const s = server();
    const customer = await member(s);
    const admin = await member(s, 'admin');
    const before = (await s.outbox()).length;
    const response = await send(s, customer.token, request);
    expect(response.statusCode, response.body).toBe(201);
    const receipt = supportRequestReceiptSchema.parse(response.json());
    const written = (await s.outbox()).slice(before);
    expect(written.map((mail) => mail.to)).toEqual([expect.stringContaining(customer.email)]);
    expect(written[0]?.subject).toBe(`[${receipt.reference}] We received your request: Charged twice`);
    // No support address to reply to: the customer is told how to add something instead.
    expect(written[0]?.headers.has('reply-to')).toBe(false);
    expect(written[0]?.text).toContain('send another request from the Support page');
    const queued = await s.app.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('kind', '=', 'support_request')
      .execute();
    expect(queued).toEqual([]);
    const list = adminSupportRequestListSchema.parse(
      (await s.api({ path: '/admin/support-requests', token: admin.token })).json(),
    );
    expect(list.data.map((item) => item.reference)).toContain(receipt.reference);
  });
});
