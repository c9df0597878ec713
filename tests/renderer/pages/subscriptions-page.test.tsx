import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/shared/api/plans';
import type { PlanChangeQuote, Subscription } from '../../../src/shared/api/subscriptions';
import {
  canPause,
  describeSubscriptionStatus,
} from '../../../src/renderer/src/features/subscriptions/subscription-format';
import { formatMoney } from '../../../src/renderer/src/lib/format-money';
import { fakeRazorpayCheckout } from '../support/fake-razorpay';
import { FakeApi, problem } from '../support/fake-api';
import { makeLicense } from '../support/signed-in';
import { renderApp, servicesFor } from '../support/render-app';
import { plan as sharedPlan } from '../support/api-answers';

const NOW = '2026-11-27T10:00:00.000Z';
const SLOW = { timeout: 8000 };

const plan = (id: string, name: string, price: number, interval: 'month' | 'year'): Plan =>
  sharedPlan(id, {
    name,
    description: `${name} plan`,
    price_minor: price,
    billing_interval: interval,
    max_activations: 3,
    created_at: NOW,
    updated_at: NOW,
  });

const PLANS = [
  plan('pro-monthly', 'Pro', 99_900, 'month'),
  plan('pro-yearly', 'Pro (yearly)', 999_000, 'year'),
  plan('team-yearly', 'Team', 4_999_000, 'year'),
  { ...plan('business-monthly', 'Business', 149_900, 'month'), seat_based: true },
];

const subscription = (extra: Partial<Subscription> = {}): Subscription => ({
  id: 'sub-1',
  provider_subscription_id: 'sub_sandbox_abc',
  provider: 'sandbox',
  sandbox: true,
  status: 'active',
  plan: {
    id: 'pro-monthly',
    code: 'pro-monthly',
    name: 'Pro',
    billing_interval: 'month',
    price_minor: 99_900,
    currency: 'INR',
  },
  license_id: 'lic-pro',
  current_period_start: '2026-11-20T10:00:00.000Z',
  current_period_end: '2026-12-20T10:00:00.000Z',
  next_charge: { at: '2026-12-20T10:00:00.000Z', amount_minor: 99_900, currency: 'INR' },
  cancel_at_period_end: false,
  cancel_requested_at: null,
  ended_at: null,
  grace_ends_at: null,
  failed_attempts: 0,
  payment_method: 'Sandbox card •••• 4242',
  sandbox_card: 'succeeds',
  credit_minor: 0,
  cancel_now_refund_minor: 0,
  trial_ends_at: null,
  pause: null,
  cancel_credit_refund_minor: 0,
  created_at: NOW,
  ...extra,
});

const quote = (dueNow: number, credit: number): PlanChangeQuote => ({
  id: `quote-${dueNow}`,
  expires_at: '2026-11-27T10:10:00.000Z',
  plan: {
    id: 'pro-yearly',
    code: 'pro-yearly',
    name: 'Pro (yearly)',
    billing_interval: 'year',
    price_minor: 999_000,
    currency: 'INR',
  },
  credit_minor: credit,
  balance_minor: 0,
  due_now_minor: dueNow,
  balance_after_minor: 0,
  refund_minor: 0,
  currency: 'INR',
  period_start: NOW,
  period_end: '2027-11-27T10:00:00.000Z',
});

let api: FakeApi;
let current: Subscription;

beforeEach(async () => {
  api = await new FakeApi().start();
  current = subscription();
  api.on('GET /plans/public', () => ({ json: PLANS }));
  api.on('GET /subscriptions', () => ({ json: { data: [current] } }));
  api.on('GET /subscriptions/sub-1', () => ({ json: { ...current, charges: [] } }));
  api.on('GET /billing/invoices', () => ({ json: { data: [], total: 0, page: 1, perPage: 100 } }));
});
afterEach(async () => {
  await api.close();
});

async function openSubscriptions() {
  const services = await servicesFor(api, 'user');
  renderApp(services, '/subscriptions');
  await screen.findByRole('heading', { level: 1, name: 'Subscriptions' }, { timeout: 10_000 });
  return within(await screen.findByRole('article', { name: 'Pro' }, { timeout: 10_000 }));
}

const body = (route: string, index = 0) => JSON.parse(api.calls(route)[index]?.body ?? 'null') as unknown;

describe('subscription status for people', () => {
  it('says what a failed payment means and by when, and what to do', () => {
    const pastDue = describeSubscriptionStatus(
      subscription({ status: 'past_due', grace_ends_at: '2026-12-04T10:00:00.000Z', failed_attempts: 2 }),
    );
    expect(pastDue).toMatchObject({ label: 'Past due', tone: 'caution' });
    expect(pastDue.notice).toMatchObject({ tone: 'warning', canPayNow: true });
    expect(pastDue.notice?.title).toMatch(/^Payment failed: pay by Dec 4, 2026/);
    expect(pastDue.notice?.message).toContain('The charge of ₹999 was declined (2 attempts)');
    expect(pastDue.notice?.message).toContain('after that it is suspended');

    const suspended = describeSubscriptionStatus(
      subscription({ status: 'suspended', next_charge: null, grace_ends_at: '2026-12-04T10:00:00.000Z' }),
    );
    expect(suspended).toMatchObject({ label: 'Suspended', tone: 'negative' });
    expect(suspended.notice).toMatchObject({ tone: 'danger', title: 'License suspended: payment needed' });
    expect(suspended.notice?.message).toContain('grace period ended on Dec 4, 2026');

    expect(describeSubscriptionStatus(subscription())).toEqual({
      label: 'Active',
      tone: 'positive',
      notice: null,
    });
    const ending = describeSubscriptionStatus(
      subscription({ cancel_at_period_end: true, next_charge: null }),
    );
    expect(ending.label).toBe('Ends at period end');
    expect(ending.notice?.title).toBe('Canceled: ends on Dec 20, 2026');
    expect(describeSubscriptionStatus(subscription({ status: 'cancelled' })).label).toBe('Ended');
  });
});

describe('subscriptions page', () => {
  it('shows an active subscription: period, next charge, payment method, credit, and its actions', async () => {
    current = subscription({ credit_minor: 12_345, cancel_credit_refund_minor: 12_345 });
    const card = await openSubscriptions();
    expect(card.getByTestId('subscription-status').textContent).toBe('Active');
    expect(card.getByText('Monthly · ₹999 / month')).toBeTruthy();
    expect(card.getByTestId('next-charge').textContent).toBe('₹999 on Dec 20, 2026');
    expect(card.getByText('Sandbox card •••• 4242')).toBeTruthy();
    expect(card.getByTestId('kept-credit').textContent).toBe(
      '₹123.45, taken off the next charges (refunded if you cancel)',
    );
    expect(card.getByRole('button', { name: 'Change plan…' })).toBeTruthy();
    expect(card.getByRole('button', { name: 'Switch to yearly…' })).toBeTruthy();
    expect(card.getByRole('button', { name: 'Pause…' })).toBeTruthy();
    expect(card.getByRole('button', { name: 'Cancel subscription…' })).toBeTruthy();
    expect(card.queryByRole('button', { name: /^Pay now/ })).toBeNull();
    // The sandbox's controls, marked as such.
    const sandbox = within(card.getByRole('region', { name: 'Sandbox controls' }));
    expect(sandbox.getByText(/no money moves/)).toBeTruthy();
    expect(sandbox.getByRole('button', { name: 'Simulate next renewal' })).toBeTruthy();
  });

  it('has no sandbox controls for a real subscription', async () => {
    current = subscription({
      sandbox: false,
      provider: 'razorpay',
      sandbox_card: null,
      payment_method: 'Visa •••• 1111',
    });
    const card = await openSubscriptions();
    expect(card.getByText('Visa •••• 1111')).toBeTruthy();
    expect(card.queryByRole('region', { name: 'Sandbox controls' })).toBeNull();
    expect(card.queryByText('Sandbox')).toBeNull();
  });

  it('flags a past-due subscription with the date and pays it now', async () => {
    current = subscription({
      status: 'past_due',
      grace_ends_at: '2026-12-04T10:00:00.000Z',
      failed_attempts: 1,
      sandbox_card: 'declines',
    });
    api.on('POST /subscriptions/sub-1/pay', () => {
      current = subscription();
      return { json: current };
    });
    const card = await openSubscriptions();
    expect(card.getByTestId('subscription-status').textContent).toBe('Past due');
    const alert = card.getByRole('alert');
    expect(alert.textContent).toMatch(/Payment failed: pay by Dec 4, 2026/);
    await userEvent.click(within(alert).getByRole('button', { name: 'Pay now ₹999' }));
    await waitFor(() => expect(card.getByTestId('subscription-status').textContent).toBe('Active'), SLOW);
    expect(api.calls('POST /subscriptions/sub-1/pay')).toHaveLength(1);
  });

  it("shows the server's refusal when paying now fails", async () => {
    current = subscription({
      status: 'suspended',
      next_charge: null,
      grace_ends_at: '2026-12-04T10:00:00.000Z',
    });
    api.on('POST /subscriptions/sub-1/pay', () =>
      problem(
        409,
        'The payment was declined: card declined. Update the payment method and try again.',
        'payment_declined',
      ),
    );
    const card = await openSubscriptions();
    expect(card.getByTestId('subscription-status').textContent).toBe('Suspended');
    await userEvent.click(within(card.getByRole('alert')).getByRole('button', { name: 'Pay now' }));
    expect(await screen.findByText(/Update the payment method and try again/, {}, SLOW)).toBeTruthy();
  });
});

afterEach(() => {
  delete window.Razorpay;
});

const razorpay = (extra: Partial<Subscription> = {}) =>
  subscription({
    sandbox: false,
    provider: 'razorpay',
    provider_subscription_id: 'sub_RzpLive01',
    sandbox_card: null,
    payment_method: 'Card •••• 1111 (Visa)',
    ...extra,
  });

describe('Razorpay: changing the card', () => {
  it('opens Checkout in card-change mode on the subscription, verifies its answer and shows the new card', async () => {
    current = razorpay();
    api.on('POST /subscriptions/sub-1/card-change', () => ({
      json: {
        key_id: 'rzp_test_123',
        subscription_id: 'sub_RzpLive01',
        prefill: { email: 'user@example.com' },
      },
    }));
    api.on('POST /subscriptions/sub-1/card-change/verify', () => {
      current = razorpay({ payment_method: 'Card •••• 4242 (MasterCard)' });
      return { json: current };
    });
    const opened = fakeRazorpayCheckout();
    const card = await openSubscriptions();
    // Razorpay retries by itself: no "Pay now", and no sandbox card choice.
    expect(card.queryByRole('button', { name: /^Pay now/ })).toBeNull();
    await userEvent.click(card.getByRole('button', { name: 'Update card…' }));
    await waitFor(() => expect(opened).toHaveLength(1), SLOW);
    const options = opened[0]!.options as {
      key: string;
      subscription_id: string;
      subscription_card_change: number;
      handler: (response: unknown) => void;
    };
    expect(options).toMatchObject({
      key: 'rzp_test_123',
      subscription_id: 'sub_RzpLive01',
      subscription_card_change: 1,
    });
    const answer = {
      razorpay_subscription_id: 'sub_RzpLive01',
      razorpay_payment_id: 'pay_RzpCard01',
      razorpay_signature: 'signed-by-razorpay',
    };
    options.handler(answer);
    expect(await card.findByText('Card •••• 4242 (MasterCard)', {}, SLOW)).toBeTruthy();
    expect(body('POST /subscriptions/sub-1/card-change/verify')).toEqual(answer);
    expect(
      await screen.findByText(/Pro is charged to Card •••• 4242 \(MasterCard\) from now on/, {}, SLOW),
    ).toBeTruthy();
  });

  it('a past-due Razorpay subscription offers the card change in its notice, and a refused verify says so with the reference', async () => {
    current = razorpay({ status: 'past_due', grace_ends_at: '2026-12-04T10:00:00.000Z', failed_attempts: 1 });
    api.on('POST /subscriptions/sub-1/card-change', () => ({
      json: {
        key_id: 'rzp_test_123',
        subscription_id: 'sub_RzpLive01',
        prefill: { email: 'user@example.com' },
      },
    }));
    api.on('POST /subscriptions/sub-1/card-change/verify', () =>
      problem(
        400,
        'The payment could not be verified: its signature does not match this subscription.',
        'invalid_signature',
      ),
    );
    const opened = fakeRazorpayCheckout();
    const card = await openSubscriptions();
    const alert = card.getByRole('alert');
    expect(alert.textContent).toMatch(/Update the card: Razorpay charges it at once/);
    expect(card.queryByRole('button', { name: 'Update card…' })).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Update card' }));
    await waitFor(() => expect(opened).toHaveLength(1), SLOW);
    (opened[0]!.options as { handler: (response: unknown) => void }).handler({
      razorpay_subscription_id: 'sub_RzpLive01',
      razorpay_payment_id: 'pay_RzpForged',
      razorpay_signature: 'forged',
    });
    expect(
      await screen.findByText(/signature does not match.*Your payment reference is pay_RzpForged/, {}, SLOW),
    ).toBeTruthy();
    expect(card.getByText('Card •••• 1111 (Visa)')).toBeTruthy();
  });
});

describe('change plan dialog', () => {
  it('shows the quote and until when it holds before confirming, confirms it by its id, and on quote_changed says so and shows the new quote', async () => {
    let quotes = 0;
    api.on('POST /subscriptions/sub-1/plan/quote', () => {
      quotes += 1;
      return { json: quotes === 1 ? quote(916_345, 82_655) : quote(920_010, 78_990) };
    });
    let attempts = 0;
    api.on('POST /subscriptions/sub-1/plan', () => {
      attempts += 1;
      if (attempts === 1)
        return problem(
          409,
          'The price of this change has changed since it was shown; review it again',
          'quote_changed',
        );
      current = subscription({ plan: quote(0, 0).plan, current_period_end: '2027-11-27T10:00:00.000Z' });
      return { json: current };
    });
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Switch to yearly…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Switch to yearly: Pro' }, SLOW));
    expect(
      (dialog.getByRole('radio', { name: /^Pro \(yearly\) — ₹9,990 \/ year/ }) as HTMLInputElement).checked,
    ).toBe(true);
    const summary = within(await dialog.findByTestId('plan-change-quote', {}, SLOW));
    expect(body('POST /subscriptions/sub-1/plan/quote')).toEqual({ plan_id: 'pro-yearly' });
    expect(summary.getByText('Credit for the unused part of this period').nextSibling?.textContent).toBe(
      '− ₹826.55',
    );
    expect(summary.getByText('Due now').nextSibling?.textContent).toBe('₹9,163.45');
    expect(summary.getByText('Balance kept for your next charges').nextSibling?.textContent).toBe('₹0');
    expect(summary.getByText('New period').nextSibling?.textContent).toBe('Nov 27, 2026 – Nov 27, 2027');
    expect(summary.getByTestId('plan-change-quote-validity').textContent).toMatch(
      /^This price holds for 10 minutes, until .+: confirm by then and exactly ₹9,163\.45 is charged\.$/,
    );

    await userEvent.click(dialog.getByRole('button', { name: 'Change and pay ₹9,163.45' }));
    // Refused: the price moved. Nothing was changed; the new quote is shown to confirm again.
    expect((await dialog.findByRole('alert', {}, SLOW)).textContent).toContain('The quote no longer holds');
    expect(body('POST /subscriptions/sub-1/plan')).toEqual({
      plan_id: 'pro-yearly',
      quote_id: 'quote-916345',
    });
    const again = await dialog.findByRole('button', { name: 'Change and pay ₹9,200.10' }, SLOW);
    expect(quotes).toBe(2);
    await userEvent.click(again);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    expect(body('POST /subscriptions/sub-1/plan', 1)).toEqual({
      plan_id: 'pro-yearly',
      quote_id: 'quote-920010',
    });
    expect(await screen.findByText('Now on Pro (yearly)', {}, SLOW)).toBeTruthy();
  });

  it('an expired quote is refused: the dialog says so, nothing was charged, and the new quote is confirmed by its own id', async () => {
    let quotes = 0;
    api.on('POST /subscriptions/sub-1/plan/quote', () => {
      quotes += 1;
      return { json: quotes === 1 ? quote(916_345, 82_655) : quote(917_000, 82_000) };
    });
    let attempts = 0;
    api.on('POST /subscriptions/sub-1/plan', () => {
      attempts += 1;
      if (attempts === 1)
        return problem(
          409,
          'This price held for 10 minutes and has expired; review the new price',
          'quote_expired',
        );
      current = subscription({ plan: quote(0, 0).plan, current_period_end: '2027-11-27T10:00:00.000Z' });
      return { json: current };
    });
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Switch to yearly…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Switch to yearly: Pro' }, SLOW));
    await userEvent.click(await dialog.findByRole('button', { name: 'Change and pay ₹9,163.45' }, SLOW));
    const alert = await dialog.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain('This price held for 10 minutes and has expired');
    expect(alert.textContent).toContain('nothing was charged');
    await userEvent.click(await dialog.findByRole('button', { name: 'Change and pay ₹9,170' }, SLOW));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    expect(body('POST /subscriptions/sub-1/plan', 1)).toEqual({
      plan_id: 'pro-yearly',
      quote_id: 'quote-917000',
    });
  });

  it('Razorpay: the credit is refunded to the card, the new plan is paid in Razorpay’s window, then it takes over', async () => {
    current = razorpay();
    api.on('POST /subscriptions/sub-1/plan/quote', () => ({
      json: { ...quote(999_000, 82_655), refund_minor: 82_655 },
    }));
    const moved = razorpay({
      id: 'sub-2',
      provider_subscription_id: 'sub_RzpNew01',
      plan: quote(0, 0).plan,
      current_period_end: '2027-11-27T10:00:00.000Z',
    });
    api.on('POST /subscriptions/sub-1/plan', () => ({
      status: 202,
      json: {
        subscription: { ...moved, status: 'pending' },
        key_id: 'rzp_test_123',
        subscription_id: 'sub_RzpNew01',
        amount: 999_000,
        currency: 'INR',
        sandbox: false,
        prefill: { email: 'user@example.com' },
      },
    }));
    api.on('POST /subscriptions/verify', () => ({
      json: { subscription: moved, license: makeLicense('lic-pro'), charge: null },
    }));
    const opened = fakeRazorpayCheckout();
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Switch to yearly…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Switch to yearly: Pro' }, SLOW));
    const summary = within(await dialog.findByTestId('plan-change-quote', {}, SLOW));
    expect(
      summary.getByText('Credit for the unused part of this period, refunded to your card').nextSibling
        ?.textContent,
    ).toBe('₹826.55');
    expect(summary.getByText('Due now').nextSibling?.textContent).toBe('₹9,990');
    expect(summary.queryByText('Balance kept for your next charges')).toBeNull();
    expect(dialog.getByText(/Razorpay’s window opens to pay the new plan/)).toBeTruthy();

    // Closed without paying: nothing changed, and the dialog says so.
    await userEvent.click(dialog.getByRole('button', { name: 'Change and pay ₹9,990' }));
    await waitFor(() => expect(opened).toHaveLength(1), SLOW);
    const first = opened[0]!.options as { subscription_id: string; modal: { ondismiss: () => void } };
    expect(first.subscription_id).toBe('sub_RzpNew01');
    first.modal.ondismiss();
    expect((await dialog.findByRole('alert', {}, SLOW)).textContent).toMatch(
      /payment window was closed: nothing was charged and you stay on Pro/,
    );

    await userEvent.click(dialog.getByRole('button', { name: 'Change and pay ₹9,990' }));
    await waitFor(() => expect(opened).toHaveLength(2), SLOW);
    const answer = {
      razorpay_subscription_id: 'sub_RzpNew01',
      razorpay_payment_id: 'pay_RzpYearly',
      razorpay_signature: 'signed-by-razorpay',
    };
    (opened[1]!.options as { handler: (response: unknown) => void }).handler(answer);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    expect(body('POST /subscriptions/verify')).toEqual(answer);
    expect(
      await screen.findByText(
        /₹9,990 was charged and ₹826.55 for the unused part of Pro is refunded to your card/,
        {},
        SLOW,
      ),
    ).toBeTruthy();
  });

  it('lists the other plans (not a per-seat one, sold to organisations) and asks for a quote for the one chosen; a refused quote is said', async () => {
    api.on('POST /subscriptions/sub-1/plan/quote', (request) =>
      (JSON.parse(request.body) as { plan_id: string }).plan_id === 'team-yearly'
        ? problem(409, 'Team allows 10 machines', 'too_many_activations')
        : { json: quote(916_345, 82_655) },
    );
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Change plan…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Change plan: Pro' }, SLOW));
    const radios = dialog.getAllByRole('radio').map((radio) => radio.getAttribute('value'));
    expect(radios).toEqual(['pro-yearly', 'team-yearly']);
    expect(dialog.getByRole('button', { name: 'Change plan' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(dialog.getByRole('radio', { name: /^Team/ }));
    expect((await dialog.findByRole('alert', {}, SLOW)).textContent).toBe('Team allows 10 machines');
    expect(dialog.getByRole('button', { name: 'Change plan' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('cancel and resume', () => {
  it('cancels at the end of the period by default, saying what happens to the license, or now when chosen', async () => {
    api.on('POST /subscriptions/sub-1/cancel', (request) => {
      const { at } = JSON.parse(request.body) as { at: string };
      current =
        at === 'now'
          ? subscription({ status: 'cancelled', ended_at: NOW, next_charge: null })
          : subscription({ cancel_at_period_end: true, cancel_requested_at: NOW, next_charge: null });
      return { json: current };
    });
    api.on('POST /subscriptions/sub-1/resume', () => {
      current = subscription();
      return { json: current };
    });
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    const atEnd = dialog.getByRole('radio', { name: 'At the end of the paid period (Dec 20, 2026)' });
    expect((atEnd as HTMLInputElement).checked).toBe(true);
    expect(dialog.getByText(/Your license keeps working until then and expires afterwards/)).toBeTruthy();
    expect(dialog.getByText(/its license stops working today/)).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel at period end' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    expect(body('POST /subscriptions/sub-1/cancel')).toEqual({ at: 'period_end' });
    await waitFor(
      () => expect(card.getByTestId('subscription-status').textContent).toBe('Ends at period end'),
      SLOW,
    );
    expect(card.getByTestId('next-charge').textContent).toBe('None: ends on Dec 20, 2026');

    // Taken back while the period lasts.
    await userEvent.click(card.getByRole('button', { name: 'Resume subscription' }));
    await waitFor(() => expect(card.getByTestId('subscription-status').textContent).toBe('Active'), SLOW);
    expect(api.calls('POST /subscriptions/sub-1/resume')).toHaveLength(1);

    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const again = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    await userEvent.click(again.getByRole('radio', { name: 'Now' }));
    await userEvent.click(again.getByRole('button', { name: 'Cancel now' }));
    await waitFor(() => expect(card.getByTestId('subscription-status').textContent).toBe('Ended'), SLOW);
    expect(body('POST /subscriptions/sub-1/cancel', 1)).toEqual({ at: 'now' });
    // An ended subscription offers nothing more to do.
    expect(card.queryByRole('button', { name: 'Cancel subscription…' })).toBeNull();
    expect(card.queryByRole('region', { name: 'Sandbox controls' })).toBeNull();
  });

  it('a card trial: its period reads as the free trial, and canceling it says the card is never charged and the trial runs to its end', async () => {
    current = subscription({ trial_ends_at: '2026-12-20T10:00:00.000Z', license_id: null });
    api.on('POST /subscriptions/sub-1/cancel', () => {
      current = subscription({ status: 'cancelled', ended_at: NOW, next_charge: null, license_id: null });
      return { json: current };
    });
    const card = await openSubscriptions();
    expect(card.getByText('Free trial')).toBeTruthy();
    // A plan change waits for the first charge.
    expect(card.queryByRole('button', { name: 'Change plan…' })).toBeNull();
    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    expect(dialog.queryByRole('radio')).toBeNull();
    expect(dialog.getByTestId('cancel-trial').textContent).toMatch(
      /^Your card is never charged: the subscription ends now, and your free trial keeps working until Dec 20, 2026\./,
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel the trial' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    await waitFor(() => expect(card.getByTestId('subscription-status').textContent).toBe('Ended'), SLOW);
  });

  it('says what happens to the money before the customer confirms: the unused part refunded now, nothing at period end', async () => {
    current = subscription({ cancel_now_refund_minor: 96_570 });
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    expect(dialog.getByText(/No further charge, and nothing is refunded\./)).toBeTruthy();
    const now = dialog.getByText(/its license stops working today/).textContent ?? '';
    expect(now).toContain(
      `about ${formatMoney(96_570, 'INR')}, is refunded to the payment method you paid with`,
    );
    expect(now).toContain('credit note');
  });

  it('with kept credit, says before confirming that it is refunded either way, and the toast and card agree after', async () => {
    current = subscription({
      credit_minor: 3_920_077,
      cancel_credit_refund_minor: 3_920_077,
      next_charge: { at: '2026-12-20T10:00:00.000Z', amount_minor: 0, currency: 'INR' },
    });
    api.on('POST /subscriptions/sub-1/cancel', () => {
      current = subscription({
        cancel_at_period_end: true,
        cancel_requested_at: NOW,
        next_charge: null,
        credit_minor: 0,
      });
      return { json: current };
    });
    const card = await openSubscriptions();
    expect(card.getByTestId('kept-credit').textContent).toBe(
      '₹39,200.77, taken off the next charges (refunded if you cancel)',
    );
    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    expect(dialog.getByTestId('cancel-credit').textContent).toBe(
      'Your kept credit' +
        'Your kept credit of ₹39,200.77 is refunded to the payment method you paid with, with a credit note on the Billing page, whichever you choose.',
    );
    // Only the paid period is not refunded at its end; the credit is.
    expect(dialog.getByText(/No further charge, and nothing of the paid period is refunded\./)).toBeTruthy();
    expect(dialog.queryByText(/No further charge, and nothing is refunded\./)).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel at period end' }));
    expect(await screen.findByText(/Your kept credit of ₹39,200\.77 is refunded\./, {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(card.getByTestId('kept-credit').textContent).toBe('None'), SLOW);
  });

  it('with kept credit that cannot all be refunded, says plainly what happens to the rest before confirming, and the card says it after', async () => {
    current = subscription({ credit_minor: 50_000, cancel_credit_refund_minor: 20_000 });
    api.on('POST /subscriptions/sub-1/cancel', () => {
      current = subscription({
        cancel_at_period_end: true,
        cancel_requested_at: NOW,
        next_charge: null,
        credit_minor: 30_000,
      });
      return { json: current };
    });
    const card = await openSubscriptions();
    expect(card.getByTestId('kept-credit').textContent).toBe(
      '₹500, taken off the next charges (₹200 of it refunded if you cancel)',
    );
    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    const credit = dialog.getByTestId('cancel-credit').textContent ?? '';
    expect(credit).toContain(
      '₹200 of your kept credit of ₹500 is refunded to the payment method you paid with',
    );
    expect(credit).toContain(
      'The other ₹300 can’t be refunded automatically: the payments it came from were refunded already or were taken by another payment provider. Once the subscription ends, it is taken off no charge. Contact support before you cancel if you want it back.',
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel at period end' }));
    await waitFor(
      () => expect(card.getByTestId('kept-credit').textContent).toMatch(/^₹300, not refunded automatically/),
      SLOW,
    );
    // No longer "taken off the next charges": there are none, unless it is resumed.
    expect(card.getByTestId('kept-credit').textContent).toContain(
      'It is taken off the next charge only if you resume before Dec 20, 2026',
    );
  });

  it('with nothing left of the paid period, cancelling now says nothing is refunded', async () => {
    current = subscription({ cancel_now_refund_minor: 0 });
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    expect(dialog.getByText(/Nothing is left of the paid period to refund\./)).toBeTruthy();
  });

  it('a past-due subscription can only end now: nothing of the paid period is left', async () => {
    current = subscription({ status: 'past_due', grace_ends_at: '2026-12-04T10:00:00.000Z' });
    const card = await openSubscriptions();
    await userEvent.click(card.getByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Pro?' }, SLOW));
    expect(dialog.queryByRole('radio', { name: /^At the end/ })).toBeNull();
    expect((dialog.getByRole('radio', { name: 'Now' }) as HTMLInputElement).checked).toBe(true);
    expect(dialog.getByRole('button', { name: 'Cancel now' })).toBeTruthy();
  });
});

describe('pause and resume', () => {
  const planned = (periods: number, resumes: string) =>
    subscription({
      pause: { periods, requested_at: NOW, starts_at: '2026-12-20T10:00:00.000Z', resumes_at: resumes },
      next_charge: { at: resumes, amount_minor: 99_900, currency: 'INR' },
    });
  const paused = () =>
    subscription({
      status: 'paused',
      pause: {
        periods: 2,
        requested_at: NOW,
        starts_at: '2026-12-20T10:00:00.000Z',
        resumes_at: '2027-02-20T10:00:00.000Z',
      },
      next_charge: { at: '2027-02-20T10:00:00.000Z', amount_minor: 99_900, currency: 'INR' },
    });

  it('by keyboard: opens the dialog, says the license works to the paid period’s end, chooses two months, confirms; the planned pause is shown and withdrawn', async () => {
    api.on('POST /subscriptions/sub-1/pause', (request) => {
      const { periods } = JSON.parse(request.body) as { periods: number };
      current = planned(periods, '2027-02-20T10:00:00.000Z');
      return { json: current };
    });
    api.on('POST /subscriptions/sub-1/unpause', () => {
      current = subscription();
      return { json: current };
    });
    const user = userEvent.setup();
    const card = await openSubscriptions();
    card.getByRole('button', { name: 'Pause…' }).focus();
    await user.keyboard('{Enter}');
    const dialog = within(await screen.findByRole('dialog', { name: 'Pause Pro?' }, SLOW));
    expect(dialog.getByTestId('pause-license-note').textContent).toContain(
      'Your license keeps working until Dec 20, 2026, the end of the period you paid for.',
    );
    // Each choice says until when, and that it resumes by itself with the next charge.
    expect(
      dialog.getByText('Paused until Jan 20, 2027, then it resumes by itself and ₹999 is charged.'),
    ).toBeTruthy();
    expect(dialog.getByText(/^Paused until Mar 20, 2027, then/)).toBeTruthy();
    const one = dialog.getByRole('radio', { name: '1 month' }) as HTMLInputElement;
    expect(one.checked).toBe(true);
    // Arrow keys walk the group in Chromium (the e2e test); jsdom has no CSS.escape, which
    // user-event's walk needs, so the radio is focused and chosen with Space here.
    const two = dialog.getByRole('radio', { name: '2 months' }) as HTMLInputElement;
    two.focus();
    await user.keyboard(' ');
    expect(two.checked).toBe(true);
    expect(one.checked).toBe(false);
    // Tab on to the confirm button (past "Keep subscription"), as a keyboard user would.
    for (let step = 0; step < 6 && document.activeElement?.textContent !== 'Pause for 2 months'; step++)
      await user.tab();
    expect(document.activeElement?.textContent).toBe('Pause for 2 months');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pause Pro?' })).toBeNull(), SLOW);
    expect(body('POST /subscriptions/sub-1/pause')).toEqual({ periods: 2 });

    await waitFor(
      () => expect(card.getByTestId('subscription-status').textContent).toBe('Pause planned'),
      SLOW,
    );
    expect(card.getByText('Pauses on Dec 20, 2026 for 2 months')).toBeTruthy();
    expect(
      card.getByText(/on Feb 20, 2027 it resumes by itself and the next period \(₹999\) is charged then/),
    ).toBeTruthy();
    expect(card.getByTestId('next-charge').textContent).toBe('₹999 on Feb 20, 2027');
    // Paused once is enough: no second pause offered.
    expect(card.queryByRole('button', { name: 'Pause…' })).toBeNull();

    await user.click(card.getByRole('button', { name: 'Don’t pause' }));
    await waitFor(() => expect(card.getByTestId('subscription-status').textContent).toBe('Active'), SLOW);
    expect(api.calls('POST /subscriptions/sub-1/unpause')).toHaveLength(1);
    expect(card.getByRole('button', { name: 'Pause…' })).toBeTruthy();
  });

  it('every refusal of the server is said in the dialog, which stays open', async () => {
    const refusals = [
      problem(
        409,
        'A subscription with an unpaid charge cannot be paused: pay what is outstanding first.',
        'subscription_not_pausable',
      ),
      problem(
        409,
        'This subscription is canceled at the end of its period: resume it before pausing it.',
        'subscription_not_pausable',
      ),
      problem(
        409,
        'This subscription is already paused. Resume it first to pause it for a different time.',
        'subscription_already_paused',
      ),
      problem(
        409,
        'A pause is already planned for this subscription. Resume it first to pause it for a different time.',
        'pause_already_requested',
      ),
    ];
    let answer = 0;
    api.on('POST /subscriptions/sub-1/pause', () => refusals[answer++]!);
    const user = userEvent.setup();
    const card = await openSubscriptions();
    await user.click(card.getByRole('button', { name: 'Pause…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Pause Pro?' }, SLOW));
    for (const refusal of refusals) {
      await user.click(dialog.getByRole('button', { name: 'Pause for 1 month' }));
      expect(await dialog.findByText(refusal.json.message)).toBeTruthy();
      expect(dialog.getByRole('alert').textContent).toContain('Not paused');
    }
    expect(api.calls('POST /subscriptions/sub-1/pause')).toHaveLength(4);
    // Closed and opened again, the dialog starts afresh.
    await user.click(dialog.getByRole('button', { name: 'Keep subscription' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pause Pro?' })).toBeNull(), SLOW);
    await user.click(card.getByRole('button', { name: 'Pause…' }));
    const again = within(await screen.findByRole('dialog', { name: 'Pause Pro?' }, SLOW));
    expect(again.queryByRole('alert')).toBeNull();
  });

  it('a paused subscription reads paused until its resume date, and Resume now says what is charged before resuming', async () => {
    current = paused();
    api.on('POST /subscriptions/sub-1/unpause', () =>
      problem(409, 'The subscription changed meanwhile; look again', 'subscription_changed'),
    );
    const user = userEvent.setup();
    const card = await openSubscriptions();
    expect(card.getByTestId('subscription-status').textContent).toBe('Paused');
    expect(card.getByText('Paused until Feb 20, 2027')).toBeTruthy();
    expect(
      card.getByText(/On Feb 20, 2027 it resumes by itself and the next period \(₹999\) is charged then/),
    ).toBeTruthy();
    expect(card.queryByRole('button', { name: 'Pause…' })).toBeNull();
    expect(card.getByText('Last paid period')).toBeTruthy();
    // The sandbox brings the pause's end forward like any other next event.
    expect(card.getByRole('button', { name: 'Simulate next renewal' })).toBeTruthy();

    card.getByRole('button', { name: 'Resume now…' }).focus();
    await user.keyboard('{Enter}');
    const dialog = within(await screen.findByRole('dialog', { name: 'Resume Pro now?' }, SLOW));
    expect(
      dialog.getByText(/The next period starts today and ₹999 is charged now to Sandbox card •••• 4242/),
    ).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Resume now' }));
    expect(await dialog.findByText('The subscription changed meanwhile; look again')).toBeTruthy();

    api.on('POST /subscriptions/sub-1/unpause', () => {
      current = subscription({ current_period_start: NOW, current_period_end: '2026-12-27T10:00:00.000Z' });
      return { json: current };
    });
    await user.click(dialog.getByRole('button', { name: 'Resume now' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Resume Pro now?' })).toBeNull(), SLOW);
    await waitFor(() => expect(card.getByTestId('subscription-status').textContent).toBe('Active'), SLOW);
    expect(api.calls('POST /subscriptions/sub-1/unpause')).toHaveLength(2);
  });

  it('offers Pause only where the server takes it: not past due, canceled at period end, on a card trial, or ended', async () => {
    for (const state of [
      subscription({ status: 'past_due', grace_ends_at: '2026-12-04T10:00:00.000Z', failed_attempts: 1 }),
      subscription({ cancel_at_period_end: true, cancel_requested_at: NOW, next_charge: null }),
      subscription({ trial_ends_at: '2026-12-20T10:00:00.000Z', license_id: null }),
    ]) {
      expect(canPause(state)).toBe(false);
    }
    expect(canPause(subscription())).toBe(true);
    current = subscription({
      status: 'past_due',
      grace_ends_at: '2026-12-04T10:00:00.000Z',
      failed_attempts: 1,
    });
    const card = await openSubscriptions();
    expect(card.getByRole('button', { name: 'Cancel subscription…' })).toBeTruthy();
    expect(card.queryByRole('button', { name: 'Pause…' })).toBeNull();
  });
});
