import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChargeSummary } from '../../../src/shared/api/charges';
import type { Organisation } from '../../../src/shared/api/organisations';
import type { Payment } from '../../../src/shared/api/payments';
import type { Plan } from '../../../src/shared/api/plans';
import type { Subscription, SubscriptionCheckout } from '../../../src/shared/api/subscriptions';
import { fakeRazorpayCheckout } from '../support/fake-razorpay';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { makeLicense } from '../support/signed-in';
import { plan as sharedPlan } from '../support/api-answers';

const NOW = '2025-03-01T10:00:00.000Z';
/** Several requests and renders in a row, on a machine that runs other suites at the same time. */
const SLOW = { timeout: 8000 };

/** What every plan here includes, unless a test says otherwise. */
const FEATURES: Plan['features'] = [
  {
    feature_id: 'f-chat',
    key: 'ai_chat',
    name: 'AI chat',
    kind: 'metered',
    period: 'day',
    unit: 'messages',
    limit: 5000,
    overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
    pack: null,
  },
];

/** A paid monthly plan of three machines at ₹999, as the shared fixture writes plans. */
const plan = (id: string, extra: Partial<Plan> = {}): Plan =>
  sharedPlan(id, {
    description: `${id} plan`,
    price_minor: 99_900,
    billing_interval: 'month',
    max_activations: 3,
    created_at: NOW,
    updated_at: NOW,
    features: FEATURES,
    ...extra,
  });

// Pro is paid once (monthly and yearly plans are subscriptions: Team here, and the tests at the end).
const PLANS = [
  plan('base', { name: 'Base', price_minor: 0, billing_interval: 'free', max_activations: 1 }),
  plan('pro', { name: 'Pro', billing_interval: 'lifetime' }),
  plan('team', { name: 'Team', price_minor: 4_999_000, billing_interval: 'year', max_activations: 10 }),
];

const order = {
  id: 'pay-1',
  order_id: 'order_sandbox_abc',
  amount: 99_900,
  currency: 'INR',
  key_id: 'sandbox',
  provider: 'sandbox',
  sandbox: true,
  plan: { id: 'pro', code: 'pro', name: 'Pro' },
  prefill: { email: 'ada@example.com', name: 'Ada' },
};

const payment = (id: string, extra: Partial<Payment> = {}): Payment => ({
  id,
  order_id: `order_${id}`,
  payment_id: null,
  provider: 'sandbox',
  sandbox: true,
  status: 'created',
  amount: 99_900,
  refunded: 0,
  currency: 'INR',
  plan_id: 'pro',
  plan: { id: 'pro', code: 'pro', name: 'Pro' },
  license_id: null,
  failure_reason: null,
  created_at: NOW,
  updated_at: NOW,
  paid_at: null,
  kind: 'purchase',
  dismissed_at: null,
  ...extra,
});

const proLicense = makeLicense('lic-pro', {
  license_key: 'ABCDE-FGHJK-MNPQR-STVWX-YZ234',
  plan_id: 'pro',
  plan: { id: 'pro', code: 'pro', name: 'Pro', billing_interval: 'month' },
  max_activations: 3,
  expires_at: '2025-04-01T10:00:00.000Z',
});

const teamSubscription: Subscription = {
  id: 'sub-1',
  provider_subscription_id: 'sub_sandbox_team',
  provider: 'sandbox',
  sandbox: true,
  status: 'active',
  plan: {
    id: 'team',
    code: 'team',
    name: 'Team',
    billing_interval: 'year',
    price_minor: 4_999_000,
    currency: 'INR',
  },
  license_id: 'lic-team',
  current_period_start: NOW,
  current_period_end: '2026-03-01T10:00:00.000Z',
  next_charge: { at: '2026-03-01T10:00:00.000Z', amount_minor: 4_999_000, currency: 'INR' },
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
};

const teamCheckout = (extra: Partial<SubscriptionCheckout> = {}): SubscriptionCheckout => ({
  subscription: {
    ...teamSubscription,
    status: 'pending',
    license_id: null,
    current_period_start: null,
    current_period_end: null,
    next_charge: null,
  },
  key_id: 'sandbox',
  subscription_id: 'sub_sandbox_team',
  amount: 4_999_000,
  currency: 'INR',
  sandbox: true,
  prefill: { email: 'ada@example.com', name: 'Ada' },
  ...extra,
});

const teamLicense = makeLicense('lic-team', {
  license_key: 'TEAMS-FGHJK-MNPQR-STVWX-YZ234',
  plan_id: 'team',
  plan: { id: 'team', code: 'team', name: 'Team', billing_interval: 'year' },
  max_activations: 10,
  expires_at: '2026-03-01T10:00:00.000Z',
});

/** What a payment charged, as the server reads it from the invoice. */
const chargeSummary = (extra: Partial<ChargeSummary> = {}): ChargeSummary => ({
  currency: 'INR',
  description: 'Pro plan, lifetime',
  quantity: 1,
  list_price_minor: 99_900,
  unit_price_minor: 99_900,
  discount: null,
  credit_minor: 0,
  taxes: [{ name: 'IGST', rate_bp: 1800, amount: 15_239 }],
  lines_include_tax: true,
  charged_today_minor: 99_900,
  invoice_number: 'INV-000001',
  next_charge: null,
  ...extra,
});

/** The Team plan's first year with a 20 % first-charge coupon: ₹39,992 today, then ₹49,990. */
const teamCharge = chargeSummary({
  description: 'Team plan, yearly subscription',
  list_price_minor: 4_999_000,
  unit_price_minor: 3_999_200,
  discount: { coupon_code: 'SAVE20', amount_minor: 999_800 },
  taxes: [{ name: 'IGST', rate_bp: 1800, amount: 610_047 }],
  charged_today_minor: 3_999_200,
  invoice_number: 'INV-000002',
  next_charge: { amount_minor: 4_999_000, at: '2026-03-01T10:00:00.000Z' },
});

let api: FakeApi;
let payments: Payment[];
let licenses: ReturnType<typeof makeLicense>[];
let subscriptions: Subscription[];

beforeEach(async () => {
  api = await new FakeApi().start();
  payments = [];
  licenses = [makeLicense('lic-base')];
  subscriptions = [];
  api.on('GET /subscriptions', () => ({ json: { data: subscriptions } }));
  api.on('GET /plans/public', () => ({ json: PLANS }));
  api.on('GET /payments/config', () => ({
    json: {
      provider: 'sandbox',
      key_id: 'sandbox',
      sandbox: true,
      currency: 'INR',
      currencies: ['INR', 'USD', 'EUR'],
    },
  }));
  api.on('GET /licenses/current-plan', () => ({
    json: { plan: PLANS[0], license: makeLicense('lic-base') },
  }));
  api.on('GET /licenses', () => ({ json: licenses }));
  api.on('GET /payments/history', (request) => {
    const page = Number(request.query.get('page') ?? 1);
    const perPage = Number(request.query.get('perPage') ?? 10);
    const status = request.query.get('status');
    const matching = payments.filter((item) => !status || item.status === status);
    return {
      json: {
        data: matching.slice((page - 1) * perPage, page * perPage),
        total: matching.length,
        page,
        perPage,
      },
    };
  });
  api.on('POST /payments/razorpay/create-order', () => {
    payments.unshift(payment('pay-1', { order_id: order.order_id }));
    return { status: 201, json: order };
  });
});
afterEach(async () => {
  // Mantine's notification store outlives a test's render.
  delete window.Razorpay;
  document.head.querySelectorAll('script[src*="razorpay"]').forEach((script) => script.remove());
  await api.close();
});

async function openPurchase() {
  const services = await servicesFor(api, 'user');
  const view = renderApp(services, '/purchase');
  await screen.findByRole('heading', { level: 1, name: 'Purchase' }, { timeout: 10_000 });
  await screen.findByRole('article', { name: 'Pro' }, { timeout: 10_000 });
  return view;
}

const body = (route: string, index = 0) => JSON.parse(api.calls(route)[index]?.body ?? 'null') as unknown;

describe('purchase page: plans', () => {
  it('shows every plan side by side with price, seats and features, the current one marked', async () => {
    await openPurchase();
    const pro = within(screen.getByRole('article', { name: 'Pro' }));
    expect(pro.getByText('₹999')).toBeTruthy();
    expect(pro.getByText('one-time payment')).toBeTruthy();
    expect(pro.getByText('Use on 3 devices at once')).toBeTruthy();
    expect(pro.getByText('AI chat: 5,000 messages per day')).toBeTruthy();
    expect(pro.getByRole('button', { name: 'Buy Pro' })).toBeTruthy();
    expect(pro.queryByText('Current plan')).toBeNull();

    const base = within(screen.getByRole('article', { name: 'Base' }));
    expect(base.getByText('Current plan')).toBeTruthy();
    expect(base.getByRole('button', { name: 'Your current plan' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('current-plan').textContent).toContain('You are on Base');

    const team = within(screen.getByRole('article', { name: 'Team' }));
    expect(team.getByText('per year')).toBeTruthy();
    expect(team.getByText('Use on 10 devices at once')).toBeTruthy();
    // A yearly plan is a subscription.
    expect(team.getByRole('button', { name: 'Subscribe — ₹49,990 / year' })).toBeTruthy();
    expect(team.getByText('Renews every year until you cancel.')).toBeTruthy();
  });

  it('labels the sandbox on the page', async () => {
    await openPurchase();
    expect(screen.getByTestId('sandbox-banner').textContent).toContain('no real money');
  });

  it('marks the one-off plan the user owns and the plan subscribed to, and refuses plans in another currency', async () => {
    api.on('GET /licenses/current-plan', () => ({ json: { plan: PLANS[1], license: proLicense } }));
    api.on('GET /plans/public', () => ({
      // Priced in a currency this portal does not take (PAYMENT_CURRENCIES changed since).
      json: [...PLANS, plan('gbp', { name: 'Pound plan', currency: 'GBP' })],
    }));
    subscriptions = [teamSubscription];
    await openPurchase();
    const pro = within(screen.getByRole('article', { name: 'Pro' }));
    expect(await pro.findByText('Current plan', {}, SLOW)).toBeTruthy();
    expect(pro.getByRole('button', { name: 'You own this plan' }).hasAttribute('disabled')).toBe(true);
    // Subscribed already: the plan leads to its subscription rather than a second one.
    const team = within(screen.getByRole('article', { name: 'Team' }));
    expect(team.getByRole('link', { name: 'Manage subscription' }).getAttribute('href')).toBe(
      '/subscriptions',
    );
    expect(team.queryByRole('button', { name: /^Subscribe/ })).toBeNull();
    const pounds = within(screen.getByRole('article', { name: 'Pound plan' }));
    expect(pounds.getByRole('button', { name: 'Not available here' }).hasAttribute('disabled')).toBe(true);
    expect(pounds.getByText('Priced in GBP; this portal takes payments in INR, USD, EUR.')).toBeTruthy();
    // The free plan is activated on the Licenses page, never bought.
    const base = within(screen.getByRole('article', { name: 'Base' }));
    expect(
      base.getByRole('link', { name: 'Start free: activate Base on the Licenses page' }).getAttribute('href'),
    ).toBe('/licenses');
  });

  it('offers a plan’s free trial in one click (no card), says a refusal in the server’s words, and none once held', async () => {
    const trialPlans = PLANS.map((item) => (item.id === 'team' ? { ...item, trial_days: 14 } : item));
    api.on('GET /plans/public', () => ({ json: trialPlans }));
    api.on('POST /licenses/trials', () =>
      problem(
        409,
        'This e-mail address already had a free trial of Team on another account (from 1 Feb 2025 to 15 Feb 2025). Buy Team on the Purchase page to keep using it.',
        'trial_already_used',
      ),
    );
    await openPurchase();
    const team = within(screen.getByRole('article', { name: 'Team' }));
    // Only the plan with a trial offers one.
    const pro = within(screen.getByRole('article', { name: 'Pro' }));
    expect(pro.queryByRole('button', { name: /free trial/ })).toBeNull();
    // The subscription's renewal is said under its own button; under the trial's, that it renews nothing.
    const renews = team.getByText('Renews every year until you cancel.');
    const trialButton = team.getByRole('button', {
      name: 'Start free trial (14 days) of Team, no card needed',
    });
    expect(renews.compareDocumentPosition(trialButton) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const noCard = team.getByText('No card needed: the trial ends by itself, nothing is charged.');
    expect(trialButton.compareDocumentPosition(noCard) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(
      team.getByRole('button', { name: 'Start free trial (14 days) of Team, no card needed' }),
    );
    expect(
      await screen.findByText(/already had a free trial of Team on another account/, {}, SLOW),
    ).toBeTruthy();
    expect(body('POST /licenses/trials')).toEqual({ plan_id: 'team' });

    const trial = makeLicense('lic-trial', {
      plan_id: 'team',
      plan: { id: 'team', code: 'team', name: 'Team', billing_interval: 'year' },
      expires_at: '2025-03-15T10:00:00.000Z',
      trial: { ends_at: '2025-03-15T10:00:00.000Z', days_left: 14, started_at: NOW, source: 'account' },
    });
    api.on('POST /licenses/trials', () => {
      licenses = [...licenses, trial];
      return { status: 201, json: { ...trial, message: 'Your free trial of Team has started: 14 days.' } };
    });
    await userEvent.click(
      team.getByRole('button', { name: 'Start free trial (14 days) of Team, no card needed' }),
    );
    // The portal writes the day as its other dates are, not as the server's message does for mail.
    const until = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date('2025-03-15T10:00:00.000Z'),
    );
    expect(
      await screen.findByText(`Your free trial of Team has started: 14 days, until ${until}.`, {}, SLOW),
    ).toBeTruthy();
    await screen.findByRole('heading', { level: 1, name: 'Licenses' }, SLOW);
  });

  it('says what failed and offers a retry when the plans cannot be loaded', async () => {
    let fail = true;
    api.on('GET /plans/public', () => (fail ? problem(503, 'Catalog offline') : { json: PLANS }));
    const services = await servicesFor(api, 'user');
    renderApp(services, '/purchase');
    expect(await screen.findByText('Catalog offline', {}, { timeout: 10_000 })).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Pro' }, SLOW)).toBeTruthy();
  });
});

describe('purchase page: sandbox checkout', () => {
  it('pays: order with the plan only, sandbox complete, verify with its answer, then the license at once', async () => {
    const signature = {
      razorpay_order_id: order.order_id,
      razorpay_payment_id: 'pay_sandbox_1',
      razorpay_signature: 'sig',
    };
    api.on('POST /payments/sandbox/orders/order_sandbox_abc/complete', () => ({ json: signature }));
    api.on('POST /payments/razorpay/verify', () => {
      const paid = payment('pay-1', {
        order_id: order.order_id,
        payment_id: 'pay_sandbox_1',
        status: 'paid',
        license_id: 'lic-pro',
        paid_at: NOW,
      });
      payments[0] = paid;
      licenses.push(proLicense);
      return { json: { payment: paid, license: proLicense, sandbox: true, charge: chargeSummary() } };
    });
    const { store, router } = await openPurchase();

    await userEvent.click(screen.getByRole('button', { name: 'Buy Pro' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    expect(body('POST /payments/razorpay/create-order')).toEqual({ plan_id: 'pro', currency: 'INR' });
    expect(dialog.getByTestId('sandbox-notice').textContent).toContain('no real money');
    expect(dialog.getByText('₹999')).toBeTruthy();
    expect(dialog.getByText(order.order_id)).toBeTruthy();

    await userEvent.click(dialog.getByRole('button', { name: 'Pay' }));
    const success = within(await screen.findByRole('region', { name: /Payment successful/ }, SLOW));
    expect(body('POST /payments/sandbox/orders/order_sandbox_abc/complete')).toEqual({ outcome: 'pay' });
    expect(body('POST /payments/razorpay/verify')).toEqual(signature);
    expect(success.getByTestId('purchased-license-key').textContent).toBe(proLicense.license_key);
    expect(success.getByText('Sandbox')).toBeTruthy();
    expect(success.getByRole('link', { name: 'View license' }).getAttribute('href')).toBe(
      '/licenses/lic-pro',
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sandbox checkout' })).toBeNull(), SLOW);

    // The license slice has it without a reload, and the history shows the payment as paid.
    await waitFor(
      () => expect(store.getState().license?.licenses.map((item) => item.license_id)).toContain('lic-pro'),
      SLOW,
    );
    expect(store.getState().license?.currentLicense?.license_id).toBe('lic-pro');
    const history = within(screen.getByRole('table', { name: 'Your payments' }));
    expect(await history.findByText('Paid', {}, SLOW)).toBeTruthy();
    expect(history.getByText('pay_sandbox_1')).toBeTruthy();

    await userEvent.click(success.getByRole('link', { name: 'View license' }));
    expect(router.state.location.pathname).toBe('/licenses/lic-pro');
  });

  it('declines: the failure shows in the checkout, nothing is verified, the order stays for another try', async () => {
    api.on('POST /payments/sandbox/orders/order_sandbox_abc/complete', (request) => {
      const { outcome } = JSON.parse(request.body) as { outcome: string };
      const failed = payment('pay-1', {
        order_id: order.order_id,
        status: 'failed',
        failure_reason: 'Payment declined in the sandbox checkout (no money moved)',
      });
      payments[0] = failed;
      return outcome === 'decline'
        ? {
            json: {
              error: {
                code: 'BAD_REQUEST_ERROR',
                description: 'Payment declined in the sandbox checkout (no money moved)',
                reason: 'payment_failed',
                source: 'customer',
                step: 'payment_authorization',
                metadata: { order_id: order.order_id, payment_id: 'pay_sandbox_2' },
              },
              payment: failed,
            },
          }
        : problem(409, 'unexpected');
    });
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Buy Pro' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    await userEvent.click(dialog.getByRole('button', { name: 'Decline' }));

    const alert = await dialog.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain('Payment declined in the sandbox checkout (no money moved).');
    // Said once, not "Payment declined: Payment declined in …".
    expect(alert.textContent).not.toContain('Payment declined: ');
    expect(body('POST /payments/sandbox/orders/order_sandbox_abc/complete')).toEqual({ outcome: 'decline' });
    expect(api.calls('POST /payments/razorpay/verify')).toHaveLength(0);
    // Still open on the same order, Pay and Decline both there.
    expect(dialog.getByRole('button', { name: 'Pay' })).toBeTruthy();
    expect(dialog.getByText(order.order_id)).toBeTruthy();
    const history = within(screen.getByRole('table', { name: 'Your payments', hidden: true }));
    expect(await history.findByText('Failed', {}, SLOW)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Close the sandbox checkout' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sandbox checkout' })).toBeNull(), SLOW);
    expect(await screen.findByText('Checkout closed', {}, SLOW)).toBeTruthy();
  });

  it("shows the server's refusal to open an order and charges nothing", async () => {
    api.on('POST /payments/razorpay/create-order', () =>
      problem(409, 'Pro is priced in USD, but payments here are taken in INR', 'currency_not_supported'),
    );
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Buy Pro' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain('Could not start the checkout for Pro');
    expect(alert.textContent).toContain('Pro is priced in USD, but payments here are taken in INR');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a refused verification stays in the checkout with the server message', async () => {
    api.on('POST /payments/sandbox/orders/order_sandbox_abc/complete', () => ({
      json: { razorpay_order_id: order.order_id, razorpay_payment_id: 'pay_x', razorpay_signature: 'bad' },
    }));
    api.on('POST /payments/razorpay/verify', () =>
      problem(
        400,
        'The payment could not be verified: its signature does not match this order.',
        'invalid_signature',
      ),
    );
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Buy Pro' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    await userEvent.click(dialog.getByRole('button', { name: 'Pay' }));
    expect((await dialog.findByRole('alert', {}, SLOW)).textContent).toContain(
      'its signature does not match this order',
    );
    expect(screen.queryByRole('region', { name: /Payment successful/ })).toBeNull();
  });
});

describe('purchase page: Razorpay Checkout', () => {
  beforeEach(() => {
    api.on('GET /payments/config', () => ({
      json: {
        provider: 'razorpay',
        key_id: 'rzp_test_123',
        sandbox: false,
        currency: 'INR',
        currencies: ['INR', 'USD', 'EUR'],
      },
    }));
    api.on('POST /payments/razorpay/create-order', () => ({
      status: 201,
      json: {
        ...order,
        order_id: 'order_rzp_1',
        key_id: 'rzp_test_123',
        provider: 'razorpay',
        sandbox: false,
      },
    }));
  });

  it('loads checkout.js only on a click to buy, opens it on the order, verifies and shows the license', async () => {
    api.on('POST /payments/razorpay/verify', () => ({
      json: {
        payment: payment('pay-1', {
          provider: 'razorpay',
          sandbox: false,
          status: 'paid',
          license_id: 'lic-pro',
        }),
        license: proLicense,
        sandbox: false,
        charge: chargeSummary(),
      },
    }));
    await openPurchase();
    expect(screen.queryByTestId('sandbox-banner')).toBeNull();
    expect(document.querySelector('script[src*="razorpay"]')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Buy Pro' }));
    const script = await waitFor(() => {
      const found = document.querySelector<HTMLScriptElement>('script[src*="razorpay"]');
      if (!found) throw new Error('checkout.js was not added');
      return found;
    }, SLOW);
    expect(script.src).toBe('https://checkout.razorpay.com/v1/checkout.js');
    const opened = fakeRazorpayCheckout();
    script.dispatchEvent(new Event('load'));
    await waitFor(() => expect(opened).toHaveLength(1), SLOW);
    const options = opened[0]!.options as {
      key: string;
      order_id: string;
      amount: number;
      currency: string;
      handler: (response: unknown) => void;
    };
    expect(options).toMatchObject({
      key: 'rzp_test_123',
      order_id: 'order_rzp_1',
      amount: 99_900,
      currency: 'INR',
    });

    const paid = {
      razorpay_order_id: 'order_rzp_1',
      razorpay_payment_id: 'pay_rzp_1',
      razorpay_signature: 'sig',
    };
    options.handler(paid);
    expect(await screen.findByRole('region', { name: /Payment successful/ }, SLOW)).toBeTruthy();
    expect(body('POST /payments/razorpay/verify')).toEqual(paid);
    expect(screen.queryByText('Sandbox')).toBeNull();
  });

  it('a failed attempt and a dismissal are shown; the order status is checked after the window closes', async () => {
    api.on('GET /payments/status/order_rzp_1', () => ({ json: payment('pay-1', { status: 'failed' }) }));
    const opened = fakeRazorpayCheckout();
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Buy Pro' }));
    await waitFor(() => expect(opened).toHaveLength(1), SLOW);
    opened[0]!.failed?.({ error: { description: 'Your bank declined the card' } });
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toContain('Your bank declined the card');

    (opened[0]!.options as { modal: { ondismiss: () => void } }).modal.ondismiss();
    expect(await screen.findByText('Checkout closed', {}, SLOW)).toBeTruthy();
    expect(api.calls('GET /payments/status/order_rzp_1')).toHaveLength(1);
  });

  it('says so when checkout.js cannot be loaded', async () => {
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Buy Pro' }));
    const script = await waitFor(() => {
      const found = document.querySelector<HTMLScriptElement>('script[src*="razorpay"]');
      if (!found) throw new Error('checkout.js was not added');
      return found;
    }, SLOW);
    script.dispatchEvent(new Event('error'));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toContain(
      'The payment window could not be opened',
    );
    expect(screen.getByRole('button', { name: 'Buy Pro' }).hasAttribute('disabled')).toBe(false);
  });
});

describe('purchase page: payment history', () => {
  it('pages through GET /payments/history and filters by status', async () => {
    payments = Array.from({ length: 12 }, (_, index) =>
      payment(`p${index + 1}`, {
        status: index % 3 === 0 ? 'failed' : 'paid',
        payment_id: `pay_${index + 1}`,
        license_id: index % 3 === 0 ? null : 'lic-pro',
      }),
    );
    await openPurchase();
    const table = await screen.findByRole('table', { name: 'Your payments' }, SLOW);
    await within(table).findByText('pay_1', {}, SLOW);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('1–10 of 12 payments')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await within(table).findByText('pay_11', {}, SLOW)).toBeTruthy();
    expect(api.calls('GET /payments/history').at(-1)?.query.get('page')).toBe('2');
    expect(screen.getByText('11–12 of 12 payments')).toBeTruthy();

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() => expect(screen.getByText('1–4 of 4 payments')).toBeTruthy(), SLOW);
    const last = api.calls('GET /payments/history').at(-1);
    expect(last?.query.get('status')).toBe('failed');
    expect(last?.query.get('page')).toBe('1');
  });

  it('says what was refunded of a payment: partly, in full, and a ₹0 plan change is no charge', async () => {
    payments = [
      payment('p-part', { status: 'paid', payment_id: 'pay_part', amount: 1_499_900, refunded: 500_000 }),
      payment('p-whole', { status: 'paid', payment_id: 'pay_whole', amount: 99_900, refunded: 99_900 }),
      payment('p-zero', { status: 'paid', payment_id: 'pay_zero', amount: 0, refunded: 0 }),
      payment('p-paid', { status: 'paid', payment_id: 'pay_paid', amount: 99_900, refunded: 0 }),
    ];
    await openPurchase();
    const table = await screen.findByRole('table', { name: 'Your payments' }, SLOW);
    const row = async (reference: string) =>
      within((await within(table).findByText(reference, {}, SLOW)).closest('tr')!);
    expect((await row('pay_part')).getByText('Partially refunded ₹5,000 of ₹14,999')).toBeTruthy();
    expect((await row('pay_whole')).getByText('Refunded')).toBeTruthy();
    expect((await row('pay_zero')).getByText('No charge')).toBeTruthy();
    expect((await row('pay_paid')).getByText('Paid')).toBeTruthy();
  });

  it('an empty history says what to do', async () => {
    await openPurchase();
    expect(await screen.findByText('No payments yet', {}, SLOW)).toBeTruthy();
    expect(screen.getByText(/Buy a plan above/)).toBeTruthy();
  });

  it('checks an unfinished checkout with GET /payments/status', async () => {
    payments = [payment('p1')];
    api.on('GET /payments/status/p1', () => ({
      json: payment('p1', { status: 'paid', payment_id: 'pay_late' }),
    }));
    await openPurchase();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Check the status of order order_p1' }, SLOW),
    );
    const table = within(screen.getByRole('table', { name: 'Your payments' }));
    expect(await table.findByText('pay_late', {}, SLOW)).toBeTruthy();
    expect(table.getByText('Paid')).toBeTruthy();
  });
});

describe('purchase page: expired orders', () => {
  it('an expired order says so, with Retry (a new checkout for its plan) and Dismiss (POST …/dismiss)', async () => {
    payments = [payment('p-old', { status: 'expired' }), payment('p-gone', { status: 'expired' })];
    api.on('POST /payments/history/p-gone/dismiss', () => {
      const dismissed = payment('p-gone', { status: 'expired', dismissed_at: NOW });
      payments = payments.filter((item) => item.id !== 'p-gone');
      return { json: dismissed };
    });
    await openPurchase();
    const table = within(await screen.findByRole('table', { name: 'Your payments' }, SLOW));
    expect(await table.findAllByText('Expired', {}, SLOW)).toHaveLength(2);
    expect(table.getAllByText('The checkout was not completed in time. Nothing was charged.')).toHaveLength(
      2,
    );
    expect(table.queryByRole('button', { name: /Check the status/ })).toBeNull();

    await userEvent.click(table.getByRole('button', { name: 'Dismiss order order_p-gone' }));
    expect(await screen.findByText('Order dismissed', {}, SLOW)).toBeTruthy();
    await waitFor(
      () => expect(table.queryByRole('button', { name: 'Dismiss order order_p-gone' })).toBeNull(),
      SLOW,
    );
    expect(api.calls('POST /payments/history/p-gone/dismiss')).toHaveLength(1);

    await userEvent.click(table.getByRole('button', { name: 'Retry: buy Pro again' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    expect(dialog.getByText('Pro')).toBeTruthy();
    expect(body('POST /payments/razorpay/create-order')).toEqual({ plan_id: 'pro', currency: 'INR' });
  });

  it("a subscription's charge offers neither", async () => {
    payments = [
      payment('p-sub', { status: 'failed', kind: 'subscription', failure_reason: 'Card declined' }),
    ];
    await openPurchase();
    const table = within(await screen.findByRole('table', { name: 'Your payments' }, SLOW));
    await table.findByText('Card declined', {}, SLOW);
    expect(table.queryByRole('button', { name: /Retry|Dismiss/ })).toBeNull();
  });
});

describe('purchase page: subscriptions', () => {
  const signature = {
    razorpay_subscription_id: 'sub_sandbox_team',
    razorpay_payment_id: 'pay_sandbox_9',
    razorpay_signature: 'sig',
  };
  beforeEach(() => {
    api.on('POST /subscriptions', () => ({ status: 201, json: teamCheckout() }));
    api.on('POST /subscriptions/verify', () => {
      subscriptions = [teamSubscription];
      licenses.push(teamLicense);
      return { json: { subscription: teamSubscription, license: teamLicense, charge: teamCharge } };
    });
  });

  it('subscribes through the sandbox checkout: the plan only, pay, verify, then the subscription and its license', async () => {
    api.on('POST /payments/sandbox/subscriptions/sub_sandbox_team/complete', () => ({ json: signature }));
    const { router } = await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe — ₹49,990 / year' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    expect(body('POST /subscriptions')).toEqual({ plan_id: 'team', currency: 'INR' });
    expect(dialog.getByText('₹49,990')).toBeTruthy();
    expect(dialog.getByText('₹49,990 / year until you cancel')).toBeTruthy();
    expect(dialog.getByText('sub_sandbox_team')).toBeTruthy();

    await userEvent.click(dialog.getByRole('button', { name: 'Pay' }));
    const success = within(
      await screen.findByRole('region', { name: /^Subscribed: your Team license is ready/ }, SLOW),
    );
    expect(body('POST /payments/sandbox/subscriptions/sub_sandbox_team/complete')).toEqual({
      outcome: 'pay',
    });
    expect(body('POST /subscriptions/verify')).toEqual(signature);
    expect(success.getByTestId('purchased-license-key').textContent).toBe(teamLicense.license_key);
    expect(success.getByText(/Next charge: ₹49,990 on Mar 1, 2026\./)).toBeTruthy();
    // What the coupon made of today's charge, line by line as the invoice has it.
    expect(success.getByTestId('subscription-charged').textContent).toContain(
      '₹39,992 charged today for Team',
    );
    const lines = within(success.getByTestId('charge-lines'));
    expect(lines.getByText('Team plan, yearly subscription')).toBeTruthy();
    expect(lines.getByText('₹49,990')).toBeTruthy();
    expect(lines.getByText('Coupon SAVE20')).toBeTruthy();
    expect(lines.getByText('−₹9,998')).toBeTruthy();
    expect(lines.getByText('Including IGST 18%')).toBeTruthy();
    expect(lines.getByTestId('charged-today').textContent).toBe('₹39,992');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sandbox checkout' })).toBeNull(), SLOW);
    // The plan now leads to its subscription.
    const team = within(screen.getByRole('article', { name: 'Team' }));
    expect(await team.findByRole('link', { name: 'Manage subscription' }, SLOW)).toBeTruthy();

    await userEvent.click(success.getByRole('link', { name: 'Manage subscription' }));
    expect(router.state.location.pathname).toBe('/subscriptions');
  });

  it('offers a plan’s trial with a card in its subscription checkout: when the first charge comes, the trial sent, nothing charged today, the trial license', async () => {
    const trialEnd = '2025-03-15T10:00:00.000Z';
    api.on('GET /plans/public', () => ({
      json: PLANS.map((item) => (item.id === 'team' ? { ...item, trial_days: 14 } : item)),
    }));
    const trialSubscription: Subscription = {
      ...teamSubscription,
      trial_ends_at: trialEnd,
      license_id: null,
      current_period_end: trialEnd,
      next_charge: { at: trialEnd, amount_minor: 4_999_000, currency: 'INR' },
    };
    const trialLicense = makeLicense('lic-card-trial', {
      ...teamLicense,
      license_id: 'lic-card-trial',
      expires_at: trialEnd,
      trial: { ends_at: trialEnd, days_left: 14, started_at: NOW, source: 'card' },
    });
    api.on('POST /subscriptions', () => ({
      status: 201,
      json: teamCheckout({
        amount: 0,
        subscription: { ...teamCheckout().subscription, trial_ends_at: trialEnd },
      }),
    }));
    api.on('POST /payments/sandbox/subscriptions/sub_sandbox_team/complete', () => ({ json: signature }));
    api.on('POST /subscriptions/verify', () => {
      subscriptions = [trialSubscription];
      licenses.push(trialLicense);
      return { json: { subscription: trialSubscription, license: trialLicense, charge: null } };
    });
    await openPurchase();
    const team = within(screen.getByRole('article', { name: 'Team' }));
    const start = team.getByRole('button', { name: 'Start 14-day trial with card' });
    expect(team.getByTestId('card-trial-note').textContent).toMatch(
      /^You won’t be charged until .+, then ₹49,990 \/ year\. Cancel before then and nothing is charged\.$/,
    );
    expect(start.getAttribute('aria-describedby')).toBe('card-trial-note-team');
    await userEvent.click(start);
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    expect(body('POST /subscriptions')).toEqual({ plan_id: 'team', currency: 'INR', trial: true });
    expect(dialog.getByText('Free')).toBeTruthy();
    expect(
      dialog.getByText('Free trial until Mar 15, 2025, then ₹49,990 / year until you cancel'),
    ).toBeTruthy();

    await userEvent.click(dialog.getByRole('button', { name: 'Pay' }));
    const success = within(
      await screen.findByRole('region', { name: /^Trial started: your Team license is ready/ }, SLOW),
    );
    expect(success.getByTestId('subscription-charged').textContent).toMatch(
      /^Your free trial runs until Mar 15, 2025\. You won’t be charged until then; .* First charge: ₹49,990 on Mar 15, 2025\.$/,
    );
  });

  it('tells an owner of a lifetime plan that covers the subscription before paying, and sends the confirmation when they go on', async () => {
    // Pro (lifetime here) gives everything Team gives.
    licenses = [
      makeLicense('lic-life', {
        plan_id: 'pro',
        plan: { id: 'pro', code: 'pro', name: 'Pro', billing_interval: 'lifetime' },
        expires_at: null,
      }),
    ];
    api.on('POST /payments/sandbox/subscriptions/sub_sandbox_team/complete', () => ({ json: signature }));
    await openPurchase();
    const team = within(screen.getByRole('article', { name: 'Team' }));
    expect((await team.findByTestId('lifetime-overlap', {}, SLOW)).textContent).toContain(
      'You already own a lifetime Pro license, which includes everything in Team',
    );
    expect(team.queryByRole('button', { name: 'Subscribe — ₹49,990 / year' })).toBeNull();
    await userEvent.click(team.getByRole('button', { name: 'Subscribe anyway — ₹49,990 / year' }));
    await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW);
    expect(body('POST /subscriptions')).toEqual({
      plan_id: 'team',
      currency: 'INR',
      confirm_lifetime_overlap: true,
    });
  });

  it('says nothing of a lifetime license that is revoked', async () => {
    licenses = [
      makeLicense('lic-life', {
        plan_id: 'pro',
        plan: { id: 'pro', code: 'pro', name: 'Pro', billing_interval: 'lifetime' },
        expires_at: null,
        status: 'revoked',
        revoked_at: NOW,
      }),
    ];
    await openPurchase();
    const team = within(screen.getByRole('article', { name: 'Team' }));
    expect(await team.findByRole('button', { name: 'Subscribe — ₹49,990 / year' }, SLOW)).toBeTruthy();
    expect(team.queryByTestId('lifetime-overlap')).toBeNull();
  });

  it('a declined first charge stays in the checkout, says so once, and starts nothing', async () => {
    api.on('POST /payments/sandbox/subscriptions/sub_sandbox_team/complete', () => ({
      json: {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: 'Payment declined in the sandbox checkout (no money moved)',
          reason: 'payment_failed',
        },
      },
    }));
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe — ₹49,990 / year' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    await userEvent.click(dialog.getByRole('button', { name: 'Decline' }));
    const alert = await dialog.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain('Payment declined in the sandbox checkout (no money moved).');
    expect(alert.textContent).not.toContain('Payment declined: ');
    expect(api.calls('POST /subscriptions/verify')).toHaveLength(0);
    expect(dialog.getByRole('button', { name: 'Pay' })).toBeTruthy();
  });

  it("shows the server's refusal to start a subscription", async () => {
    api.on('POST /subscriptions', () =>
      problem(
        409,
        'You already subscribe to Team. Change its plan or payment method on the Subscriptions page.',
        'already_subscribed',
      ),
    );
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe — ₹49,990 / year' }));
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toContain('Could not start the subscription to Team');
    expect(alert.textContent).toContain('You already subscribe to Team.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens Razorpay Checkout with the subscription id (no order), and verifies what it hands back', async () => {
    api.on('GET /payments/config', () => ({
      json: {
        provider: 'razorpay',
        key_id: 'rzp_test_123',
        sandbox: false,
        currency: 'INR',
        currencies: ['INR', 'USD', 'EUR'],
      },
    }));
    api.on('POST /subscriptions', () => ({
      status: 201,
      json: teamCheckout({ key_id: 'rzp_test_123', subscription_id: 'sub_rzp_1', sandbox: false }),
    }));
    const opened: Record<string, unknown>[] = [];
    window.Razorpay = class {
      constructor(options: Record<string, unknown>) {
        opened.push(options);
      }
      on() {}
      open() {}
    } as unknown as NonNullable<typeof window.Razorpay>;
    await openPurchase();
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe — ₹49,990 / year' }));
    await waitFor(() => expect(opened).toHaveLength(1), SLOW);
    const options = opened[0] as { handler: (response: unknown) => void } & Record<string, unknown>;
    expect(options).toMatchObject({ key: 'rzp_test_123', subscription_id: 'sub_rzp_1', description: 'Team' });
    expect(options).not.toHaveProperty('order_id');
    options.handler({
      razorpay_payment_id: 'pay_rzp_9',
      razorpay_subscription_id: 'sub_rzp_1',
      razorpay_signature: 'sig',
    });
    expect(
      await screen.findByRole('region', { name: /^Subscribed: your Team license is ready/ }, SLOW),
    ).toBeTruthy();
    expect(body('POST /subscriptions/verify')).toEqual({
      razorpay_subscription_id: 'sub_rzp_1',
      razorpay_payment_id: 'pay_rzp_9',
      razorpay_signature: 'sig',
    });
  });
});

describe('purchase page: a seat-based plan for an organisation', () => {
  const business = plan('business', {
    name: 'Business',
    price_minor: 149_900,
    max_activations: 2,
    seat_based: true,
  });
  const organisation = (id: string, extra: Partial<Organisation> = {}): Organisation => ({
    id,
    name: id,
    role: 'owner',
    members_count: 3,
    seats: null,
    license_id: null,
    subscription_id: null,
    billing_details: null,
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  });
  let organisations: Organisation[];
  beforeEach(() => {
    organisations = [];
    api.on('GET /plans/public', () => ({ json: [...PLANS, business] }));
    api.on('GET /organisations', () => ({ json: organisations }));
  });

  it('is priced per seat and asks for an organisation and seats, then subscribes for it with the total', async () => {
    organisations = [
      organisation('Acme'),
      organisation('Member only', { role: 'member' }),
      organisation('Subscribed', { role: 'admin', subscription_id: 'sub-x' }),
    ];
    const checkout = teamCheckout({
      subscription: {
        ...teamCheckout().subscription,
        plan: {
          ...teamSubscription.plan,
          id: 'business',
          code: 'business',
          name: 'Business',
          billing_interval: 'month',
          price_minor: 149_900,
        },
      },
      amount: 4 * 149_900,
    });
    api.on('POST /subscriptions', () => ({ status: 201, json: checkout }));
    await openPurchase();
    const card = within(screen.getByRole('article', { name: 'Business' }));
    expect(card.getByText('per seat / month')).toBeTruthy();
    expect(card.getByText('Named seats, each on 2 devices at once')).toBeTruthy();

    await userEvent.click(card.getByRole('button', { name: 'Buy for an organization' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Buy Business for an organization' }, SLOW),
    );
    // The only organisation one may buy for is chosen already, with a seat per member.
    const select = await dialog.findByLabelText(/^Organization/, {}, SLOW);
    expect((select as HTMLInputElement).value).toBe('Acme');
    const seats = dialog.getByLabelText(/^Seats/);
    expect((seats as HTMLInputElement).value).toBe('3');
    expect(dialog.getByTestId('organisation-total').textContent).toBe('3 seats: ₹4,497 / month');
    await userEvent.clear(seats);
    await userEvent.type(seats, '4');
    expect(dialog.getByTestId('organisation-total').textContent).toBe('4 seats: ₹5,996 / month');

    await userEvent.click(dialog.getByRole('button', { name: 'Continue to payment' }));
    const sandbox = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    expect(body('POST /subscriptions')).toEqual({
      plan_id: 'business',
      currency: 'INR',
      organisation_id: 'Acme',
      seats: 4,
    });
    expect(sandbox.getByText('₹5,996 / month until you cancel')).toBeTruthy();
  });

  it('after paying, says 3 seats × ₹1,349 and ₹4,047 charged today, and points the owner to their seat, not the key', async () => {
    organisations = [organisation('Acme')];
    const businessPlan = { ...teamSubscription.plan, id: 'business', code: 'business', name: 'Business' };
    const subscription: Subscription = {
      ...teamSubscription,
      id: 'sub-biz',
      plan: { ...businessPlan, billing_interval: 'month', price_minor: 149_900 },
      next_charge: { at: '2026-01-04T10:00:00.000Z', amount_minor: 404_700, currency: 'INR' },
    };
    const bizLicense = makeLicense('lic-biz', {
      license_key: 'BIZZZ-FGHJK-MNPQR-STVWX-YZ234',
      plan_id: 'business',
      plan: { id: 'business', code: 'business', name: 'Business', billing_interval: 'month' },
      organisation: { id: 'Acme', name: 'Acme' },
      expires_at: '2026-01-04T10:00:00.000Z',
      renews: true,
    });
    api.on('POST /subscriptions', () => ({
      status: 201,
      json: teamCheckout({
        subscription: { ...teamCheckout().subscription, plan: subscription.plan },
        amount: 404_700,
      }),
    }));
    api.on('POST /payments/sandbox/subscriptions/sub_sandbox_team/complete', () => ({
      json: {
        razorpay_subscription_id: 'sub_sandbox_team',
        razorpay_payment_id: 'pay_sandbox_9',
        razorpay_signature: 'sig',
      },
    }));
    api.on('POST /subscriptions/verify', () => ({
      json: {
        subscription,
        license: bizLicense,
        charge: chargeSummary({
          description: 'Business plan, monthly subscription, per seat',
          quantity: 3,
          list_price_minor: 149_900,
          unit_price_minor: 134_900,
          discount: { coupon_code: 'TEAM150', amount_minor: 45_000 },
          taxes: [
            { name: 'CGST', rate_bp: 900, amount: 30_867 },
            { name: 'SGST', rate_bp: 900, amount: 30_867 },
          ],
          charged_today_minor: 404_700,
          next_charge: { amount_minor: 404_700, at: '2026-01-04T10:00:00.000Z' },
        }),
      },
    }));
    await openPurchase();
    await userEvent.click(
      within(screen.getByRole('article', { name: 'Business' })).getByRole('button', {
        name: 'Buy for an organization',
      }),
    );
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Buy Business for an organization' }, SLOW),
    );
    await dialog.findByLabelText(/^Organization/, {}, SLOW);
    await userEvent.click(dialog.getByRole('button', { name: 'Continue to payment' }));
    const sandbox = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    await userEvent.click(sandbox.getByRole('button', { name: 'Pay' }));
    const success = within(
      await screen.findByRole('region', { name: /^Subscribed: your Business license is ready/ }, SLOW),
    );
    expect(success.getByTestId('subscription-charged').textContent).toContain(
      '₹4,047 charged today for Business',
    );
    expect(success.getByTestId('subscription-charged').textContent).not.toContain('₹1,499 / month,');
    const lines = within(success.getByTestId('charge-lines'));
    expect(lines.getByText('3 seats × ₹1,499')).toBeTruthy();
    expect(lines.getByText('3 seats × ₹1,349')).toBeTruthy();
    expect(lines.getByText('−₹450')).toBeTruthy();
    expect(lines.getByText('Including CGST 9%')).toBeTruthy();
    expect(lines.getByTestId('charged-today').textContent).toBe('₹4,047');
    expect(success.getByTestId('next-charge').textContent).toMatch(/^Next charge: ₹4,047 on /);
    // The organization's key is refused for activation: the owner is sent to their seat instead.
    expect(success.queryByTestId('purchased-license-key')).toBeNull();
    expect(success.queryByText(bizLicense.license_key)).toBeNull();
    expect(
      within(success.getByTestId('organisation-seat')).getByRole('button', {
        name: 'Activate on this machine: Business license',
      }),
    ).toBeTruthy();
  });

  it('without an organisation to buy for, links to creating one', async () => {
    organisations = [organisation('Member only', { role: 'member' })];
    const { router } = await openPurchase();
    await userEvent.click(
      within(screen.getByRole('article', { name: 'Business' })).getByRole('button', {
        name: 'Buy for an organization',
      }),
    );
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Buy Business for an organization' }, SLOW),
    );
    expect((await dialog.findByTestId('no-organisation', {}, SLOW)).textContent).toMatch(
      /own or administer no organization/,
    );
    expect(dialog.getByRole('button', { name: 'Continue to payment' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(dialog.getByRole('link', { name: 'Create an organization' }));
    expect(router.state.location.pathname).toBe('/organisations');
  });
});
