import { describe, expect, it } from 'vitest';
import { chargeForPrice } from '../../../src/server/billing/invoices/tax.js';
import { unusedCredit } from '../../../src/server/billing/subscriptions/billing-periods.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { type Member, member, planByCode } from '../helpers/license-helpers.js';
import {
  buyForOrganisation,
  buySeats,
  expectOrganisation,
  expectQuote,
  openOrganisationCheckout,
  organisationWithRoles,
  quoteSeats,
  seatMembers,
} from '../helpers/organisation-purchase-helpers.js';
import {
  chargesOf,
  DAY,
  later,
  licenseRow,
  subscriptionCall,
  subscriptionRow,
} from '../helpers/subscription-helpers.js';

/** One seat's charge for a period: the Business plan's price, with the tax when prices exclude it. */
async function seatPrice(s: TestServer): Promise<number> {
  const business = await planByCode(s, 'business-monthly');
  return chargeForPrice(Number(business.price_minor), s.config.invoices.tax);
}

const memberRow = (s: TestServer, organisationId: string, userId: string) =>
  s.app.db
    .selectFrom('organisation_members')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();

const invoiceOf = (s: TestServer, paymentId: string) =>
  s.app.db.selectFrom('invoices').selectAll().where('payment_id', '=', paymentId).executeTakeFirstOrThrow();

describeOnEveryDatabase('organisations: buying the Business plan and seats', (server) => {
  it('an admin buys 3 seats: the license is the organisation’s, held by its owner, who is seated; every charge is 3 seats', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const business = await planByCode(s, 'business-monthly');
    const billing = {
      name: 'Acme Private Limited',
      address_line1: '1 MG Road',
      address_line2: null,
      city: 'Bengaluru',
      postal_code: '560001',
      region: 'Karnataka',
      country: 'IN',
      tax_id: '29ABCDE1234F1Z5',
    };
    await s.app.db
      .updateTable('organisations')
      .set({ billing_details: JSON.stringify(billing) })
      .where('id', '=', org.id)
      .execute();
    const perSeat = await seatPrice(s);

    const { subscription, license, checkout } = await buyForOrganisation(s, org.admin, org.id, 3);
    expect(checkout.amount).toBe(3 * perSeat);
    expect(subscription.next_charge?.amount_minor).toBe(3 * perSeat);
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({ organisation_id: org.id, seats: 3 });
    expect(await licenseRow(s, license.license_id)).toMatchObject({
      organisation_id: org.id,
      seats: 3,
      max_activations: 3 * business.max_activations,
      user_id: org.owner.id,
    });
    expect((await memberRow(s, org.id, org.owner.id)).seat_assigned_at).not.toBeNull();
    expect((await memberRow(s, org.id, org.admin.id)).seat_assigned_at).toBeNull();

    const [charge] = await chargesOf(s, subscription.id);
    expect(charge).toMatchObject({ status: 'paid', amount_minor: 3 * perSeat });
    const invoice = await invoiceOf(s, charge!.id);
    expect(JSON.parse(invoice.buyer)).toMatchObject({ name: billing.name, tax_id: billing.tax_id });
    expect(JSON.parse(invoice.lines)[0]).toMatchObject({
      description: 'Business plan, monthly subscription, per seat',
      quantity: 3,
      unit_amount: 149_900,
    });

    // Every renewal is all the seats.
    await later(s, org.admin, 31 * DAY);
    const renewed = await subscriptionCall(
      s,
      org.admin,
      'POST',
      `/subscriptions/${subscription.id}/sandbox/renew`,
    );
    expect(renewed.status).toBe('active');
    expect((await chargesOf(s, subscription.id)).map((row) => Number(row.amount_minor))).toEqual([
      3 * perSeat,
      3 * perSeat,
    ]);
  });

  it('the owner’s subscription follows a transfer of ownership: the new owner sees and manages it, the old one no longer', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const { subscription, license } = await buyForOrganisation(s, org.owner, org.id, 2);
    const transferred = await s.api({
      method: 'POST',
      path: `/organisations/${org.id}/transfer-ownership`,
      token: org.owner.token,
      body: { user_id: org.admin.id },
    });
    expect(transferred.statusCode, transferred.body).toBe(200);
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({ user_id: org.admin.id });
    expect(await licenseRow(s, license.license_id)).toMatchObject({ user_id: org.admin.id });

    const ids = async (who: typeof org.owner) => {
      const response = await s.api({ path: '/subscriptions', token: who.token });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { data: { id: string }[] }).data.map((row) => row.id);
    };
    expect(await ids(org.admin)).toContain(subscription.id);
    expect(await ids(org.owner)).not.toContain(subscription.id);
    const cancelled = await subscriptionCall(
      s,
      org.admin,
      'POST',
      `/subscriptions/${subscription.id}/cancel`,
      {},
    );
    expect(cancelled.cancel_at_period_end).toBe(true);
    const refused = await s.api({
      method: 'POST',
      path: `/subscriptions/${subscription.id}/resume`,
      token: org.owner.token,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('refuses a seat-based plan without an organisation, a personal plan with one, members, outsiders and a second subscription', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const outsider = await member(s);

    expectApiError(await openOrganisationCheckout(s, org.owner, { seats: 3 }), 400, 'organisation_required');
    expectApiError(
      await openOrganisationCheckout(s, org.owner, { organisation_id: org.id }),
      400,
      'seats_required',
    );
    expectApiError(
      await openOrganisationCheckout(s, org.owner, { organisation_id: org.id, seats: 2 }, 'pro-monthly'),
      400,
      'plan_not_seat_based',
    );
    expectApiError(
      await openOrganisationCheckout(s, org.owner, { organisation_id: org.id, seats: 0 }),
      400,
      'validation_error',
    );
    expectApiError(
      await openOrganisationCheckout(s, org.member, { organisation_id: org.id, seats: 2 }),
      403,
      'organisation_admin_required',
    );
    expectApiError(
      await openOrganisationCheckout(s, outsider, { organisation_id: org.id, seats: 2 }),
      404,
      'organisation_not_found',
    );

    await buyForOrganisation(s, org.owner, org.id, 2);
    expectApiError(
      await openOrganisationCheckout(s, org.admin, { organisation_id: org.id, seats: 5 }),
      409,
      'organisation_already_subscribed',
    );
  });

  it('a coupon comes off every seat of every charge', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const admin = await member(s, 'admin');
    const code = `SEATS${Date.now()}`;
    const created = await s.api({
      method: 'POST',
      path: '/admin/coupons',
      token: admin.token,
      body: { code, amount_off_minor: 10_001, currency: 'INR', duration: 'forever' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const business = await planByCode(s, 'business-monthly');
    const perSeat = chargeForPrice(Number(business.price_minor) - 10_001, s.config.invoices.tax);
    const { subscription, checkout } = await buyForOrganisation(s, org.owner, org.id, 4, {
      couponCode: code,
    });
    expect(checkout.amount).toBe(4 * perSeat);
    expect(subscription.next_charge?.amount_minor).toBe(4 * perSeat);
  });

  it('of two checkouts opened for one organisation, only the first paid starts; the other is refused before paying', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const opened = await Promise.all([
      openOrganisationCheckout(s, org.owner, { organisation_id: org.id, seats: 2 }),
      openOrganisationCheckout(s, org.admin, { organisation_id: org.id, seats: 3 }),
    ]);
    const [first, second] = opened.map((response) => {
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ subscription_id: string }>().subscription_id;
    });
    const pay = (who: Member, id: string) =>
      s.api({
        method: 'POST',
        path: `/payments/sandbox/subscriptions/${id}/complete`,
        token: who.token,
        body: { outcome: 'pay' },
      });
    const paid = await pay(org.owner, first!);
    expect(paid.statusCode, paid.body).toBe(200);
    const verified = await s.api({
      method: 'POST',
      path: '/subscriptions/verify',
      token: org.owner.token,
      body: paid.json(),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expectApiError(await pay(org.admin, second!), 409, 'organisation_already_subscribed');
  });

  it('a platform administrator may buy for any organisation; its license still belongs to the owner', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const admin = await member(s, 'admin');
    const { license } = await buyForOrganisation(s, admin, org.id, 1);
    expect((await licenseRow(s, license.license_id)).user_id).toBe(org.owner.id);
  });

  it('quotes added seats for the rest of the period, charges that now and every seat from the next period', async () => {
    const s = server();
    s.clock.freeze();
    const org = await organisationWithRoles(s);
    const perSeat = await seatPrice(s);
    const { subscription } = await buyForOrganisation(s, org.owner, org.id, 3);
    await later(s, org.owner, 10 * DAY);
    await later(s, org.admin, 0);

    const platformAdmin = await member(s, 'admin');
    const endpoint = await s.api({
      method: 'POST',
      path: '/admin/webhooks',
      token: platformAdmin.token,
      body: { url: 'https://127.0.0.1:9/seats', event_types: ['organisation.seats_changed'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const quote = expectQuote(await quoteSeats(s, org.admin, org.id, 5));
    const period = {
      start: subscription.current_period_start as string,
      end: subscription.current_period_end as string,
    };
    expect(quote).toEqual({
      seats_from: 3,
      seats_to: 5,
      currency: 'INR',
      per_seat_minor: perSeat,
      due_now_minor: unusedCredit(2 * perSeat, period, s.clock.now()),
      next_charge_minor: 5 * perSeat,
      period_end: period.end,
    });
    expect(quote.due_now_minor).toBeGreaterThan(0);
    expect(quote.due_now_minor).toBeLessThan(2 * perSeat);

    const view = expectOrganisation(await buySeats(s, org.admin, org.id, 5));
    expect(view).toMatchObject({ id: org.id, role: 'admin', license_id: expect.any(String) });
    expect(view.seats).toMatchObject({ bought: 5, assigned: 1 });

    const row = await subscriptionRow(s, subscription.id);
    expect(row.seats).toBe(5);
    expect(await licenseRow(s, row.license_id as string)).toMatchObject({ seats: 5, max_activations: 10 });
    const charges = await chargesOf(s, subscription.id);
    const seatCharge = charges.find((charge) => charge.provider_order_id.includes('#seats:3-5'));
    expect(seatCharge).toMatchObject({
      status: 'paid',
      amount_minor: quote.due_now_minor,
      period_end: period.end,
    });
    const invoice = await invoiceOf(s, seatCharge!.id);
    expect(Number(invoice.total_minor)).toBe(quote.due_now_minor);
    expect(JSON.parse(invoice.lines)[0].description).toMatch(/2 seats added \(3 to 5\)/);
    const event = await s.app.db
      .selectFrom('security_events')
      .selectAll()
      .where('type', '=', 'organisation_seats_changed')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ actor_id: org.admin.id });
    expect(JSON.parse(event.details ?? '{}')).toMatchObject({
      organisation_id: org.id,
      seats_from: 3,
      seats_to: 5,
      charged_minor: quote.due_now_minor,
    });

    const hook = await s.app.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('type', '=', 'organisation.seats_changed')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(hook.payload).data).toMatchObject({
      organisation: { id: org.id, name: 'Acme' },
      user_id: org.admin.id,
      change: 'bought',
      seats_from: 3,
      seats_to: 5,
    });

    await later(s, org.owner, 25 * DAY);
    await subscriptionCall(s, org.owner, 'POST', `/subscriptions/${subscription.id}/sandbox/renew`);
    const after = await chargesOf(s, subscription.id);
    expect(Number(after.at(-1)?.amount_minor)).toBe(5 * perSeat);
  });

  it('refuses fewer seats than are assigned or bought, members and outsiders, and an organisation without a subscription', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const outsider = await member(s);
    expectApiError(await quoteSeats(s, org.owner, org.id, 2), 409, 'no_seats');

    await buyForOrganisation(s, org.owner, org.id, 3);
    await seatMembers(s, org.id, org.admin, org.member);
    expectApiError(await buySeats(s, org.owner, org.id, 2), 409, 'seats_in_use');
    expectApiError(await quoteSeats(s, org.owner, org.id, 3), 409, 'seats_unchanged');
    expectApiError(await buySeats(s, org.member, org.id, 4), 403, 'organisation_admin_required');
    expectApiError(await quoteSeats(s, org.member, org.id, 4), 403, 'organisation_admin_required');
    expectApiError(await buySeats(s, outsider, org.id, 4), 404, 'organisation_not_found');
    expectApiError(await buySeats(s, org.owner, org.id, 0), 400, 'validation_error');

    await s.app.db
      .updateTable('organisation_members')
      .set({ seat_assigned_at: null })
      .where('organisation_id', '=', org.id)
      .where('role', '!=', 'owner')
      .execute();
    expectApiError(await buySeats(s, org.owner, org.id, 2), 409, 'seats_reduction_unsupported');
  });

  it('a declined card buys no seats', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const { subscription } = await buyForOrganisation(s, org.owner, org.id, 2);
    await subscriptionCall(s, org.owner, 'PUT', `/subscriptions/${subscription.id}/payment-method`, {
      sandbox_card: 'declines',
    });
    expectApiError(await buySeats(s, org.owner, org.id, 4), 409, 'payment_declined');
    expect((await subscriptionRow(s, subscription.id)).seats).toBe(2);
  });

  describe('two purchases at once', () => {
    it('the same total twice: one is charged, the other refused', async () => {
      const s = server();
      const org = await organisationWithRoles(s);
      const { subscription } = await buyForOrganisation(s, org.owner, org.id, 2);
      const answers = await Promise.all([
        buySeats(s, org.owner, org.id, 4),
        buySeats(s, org.admin, org.id, 4),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const seatCharges = (await chargesOf(s, subscription.id)).filter((row) =>
        row.provider_order_id.includes('#seats:'),
      );
      expect(seatCharges).toHaveLength(1);
      expect((await subscriptionRow(s, subscription.id)).seats).toBe(4);
    });

    it('two different totals: both applied in turn, each charged for what it added, or the smaller refused', async () => {
      const s = server();
      const org = await organisationWithRoles(s);
      const { subscription, license } = await buyForOrganisation(s, org.owner, org.id, 2);
      const answers = await Promise.all([
        buySeats(s, org.owner, org.id, 4),
        buySeats(s, org.admin, org.id, 6),
      ]);
      const row = await subscriptionRow(s, subscription.id);
      expect(row.seats).toBe(6);
      expect((await licenseRow(s, license.license_id)).seats).toBe(6);
      const moves = (await chargesOf(s, subscription.id))
        .map((charge) => /#seats:(\d+)-(\d+)@/.exec(charge.provider_order_id))
        .filter((match) => match !== null)
        .map((match) => `${match[1]}-${match[2]}`)
        .sort();
      if (answers.every((answer) => answer.statusCode === 200)) expect(moves).toEqual(['2-4', '4-6']);
      else {
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        expect(moves).toEqual(['2-6']);
      }
    });
  });

  it('a seat-based subscription keeps its plan: a plan change is refused', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const { subscription } = await buyForOrganisation(s, org.owner, org.id, 2);
    const pro = await planByCode(s, 'pro-monthly');
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/plan/quote`,
        token: org.owner.token,
        body: { plan_id: pro.id },
      }),
      409,
      'plan_change_unavailable',
    );
  });
});
