import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  PLAN_CHANGE_QUOTE_VALIDITY_MINUTES,
  type PlanChangeQuote,
  planChangeQuoteSchema,
} from '../../../src/shared/api/subscriptions.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createPlan, type Member, member, planByCode } from '../helpers/license-helpers.js';
import { chargesOf, DAY, later, subscribe, subscriptionCall } from '../helpers/subscription-helpers.js';

const VALIDITY_MS = PLAN_CHANGE_QUOTE_VALIDITY_MINUTES * 60_000;

async function quoteOf(s: TestServer, who: Member, subscriptionId: string, planId: string) {
  const response = await s.api({
    method: 'POST',
    path: `/subscriptions/${subscriptionId}/plan/quote`,
    token: who.token,
    body: { plan_id: planId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return planChangeQuoteSchema.parse(response.json());
}

const confirm = (s: TestServer, who: Member, subscriptionId: string, body: Record<string, unknown>) =>
  s.api({ method: 'POST', path: `/subscriptions/${subscriptionId}/plan`, token: who.token, body });

/** A monthly Pro subscription ten days into its period, and a quote to move it to yearly. */
async function quoted(s: TestServer) {
  const buyer = await member(s);
  const yearly = await planByCode(s, 'pro-yearly');
  const { subscription } = await subscribe(s, buyer);
  await later(s, buyer, 10 * DAY);
  const quote = await quoteOf(s, buyer, subscription.id, yearly.id);
  return { buyer, yearly, subscription, quote };
}

const paidAmounts = async (s: TestServer, subscriptionId: string) =>
  (await chargesOf(s, subscriptionId)).map((charge) => [charge.status, Number(charge.amount_minor)]);

describeOnEveryDatabase('subscriptions: a plan-change quote holds for its stated time', (server) => {
  // Time moves only when a test moves it: the quote's worth and its expiry are exact.
  beforeEach(() => server().clock.freeze());
  afterEach(() => server().clock.resume());

  it(`confirmed just inside its ${PLAN_CHANGE_QUOTE_VALIDITY_MINUTES} minutes, the change is charged what the quote showed, though the price worked out now is lower`, async () => {
    const s = server();
    const { buyer, yearly, subscription, quote } = await quoted(s);
    expect(quote.expires_at).toBe(new Date(s.clock.now().getTime() + VALIDITY_MS).toISOString());

    await later(s, buyer, VALIDITY_MS - 1);
    // Worked out afresh, the unused part of the month is worth less: the price moved.
    const fresh = await quoteOf(s, buyer, subscription.id, yearly.id);
    expect(fresh.due_now_minor).toBeGreaterThan(quote.due_now_minor);

    const changed = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/plan`, {
      plan_id: yearly.id,
      quote_id: quote.id,
    });
    expect(changed).toMatchObject({
      plan: { id: yearly.id },
      current_period_start: quote.period_start,
      current_period_end: quote.period_end,
      credit_minor: quote.balance_after_minor,
    });
    expect(await paidAmounts(s, subscription.id)).toEqual([
      ['paid', subscription.plan.price_minor],
      ['paid', quote.due_now_minor],
    ]);
  });

  it('confirmed once it expired, it is refused with quote_expired and nothing is charged', async () => {
    const s = server();
    const { buyer, yearly, subscription, quote } = await quoted(s);
    await later(s, buyer, VALIDITY_MS);
    expectApiError(
      await confirm(s, buyer, subscription.id, { plan_id: yearly.id, quote_id: quote.id }),
      409,
      'quote_expired',
    );
    expect(await paidAmounts(s, subscription.id)).toEqual([['paid', subscription.plan.price_minor]]);
  });

  it('when the subscription changed since the quote, it is refused with quote_changed; a new quote goes through', async () => {
    const s = server();
    const { buyer, yearly, subscription, quote } = await quoted(s);
    const path = `/subscriptions/${subscription.id}`;
    await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'period_end' });
    await subscriptionCall(s, buyer, 'POST', `${path}/resume`);
    expectApiError(
      await confirm(s, buyer, subscription.id, { plan_id: yearly.id, quote_id: quote.id }),
      409,
      'quote_changed',
    );
    expect(await paidAmounts(s, subscription.id)).toHaveLength(1);

    const again: PlanChangeQuote = await quoteOf(s, buyer, subscription.id, yearly.id);
    expect(again.id).not.toBe(quote.id);
    await subscriptionCall(s, buyer, 'POST', `${path}/plan`, { plan_id: yearly.id, quote_id: again.id });
    expect((await paidAmounts(s, subscription.id)).at(-1)).toEqual(['paid', again.due_now_minor]);
  });

  it('a quote for another plan, of another subscription, or unknown is refused; a malformed id is a 400', async () => {
    const s = server();
    const { buyer, yearly, subscription, quote } = await quoted(s);
    // Another customer's quote, made ten days later: the first signs in again.
    const other = await quoted(s);
    await later(s, buyer, 0);
    const own = await planByCode(s, 'pro-monthly');
    const another = await createPlan(s, { price: 149_900, interval: 'month' });
    expectApiError(
      await confirm(s, buyer, subscription.id, { plan_id: yearly.id, quote_id: other.quote.id }),
      404,
      'quote_not_found',
    );
    expectApiError(
      await confirm(s, buyer, subscription.id, {
        plan_id: yearly.id,
        quote_id: '00000000-0000-4000-8000-000000000000',
      }),
      404,
      'quote_not_found',
    );
    expectApiError(
      await confirm(s, buyer, subscription.id, { plan_id: another.id, quote_id: quote.id }),
      409,
      'quote_plan_mismatch',
    );
    // Its own plan is refused before any quote is looked at.
    expectApiError(
      await confirm(s, buyer, subscription.id, { plan_id: own.id, quote_id: quote.id }),
      409,
      'same_plan',
    );
    const malformed = await confirm(s, buyer, subscription.id, { plan_id: yearly.id, quote_id: 'nope' });
    expect(malformed.statusCode).toBe(400);
    expect(await paidAmounts(s, subscription.id)).toHaveLength(1);
  });
});
