import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminSubscription, AdminSubscriptionDetail } from '../../../src/shared/api/admin-subscriptions';
import type { Invoice } from '../../../src/shared/api/invoices';
import type { AdminPayment } from '../../../src/shared/api/payments';
import { adminUserDetail, plan } from '../support/api-answers';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });
/** A write's answer and the refetch after it, on a loaded machine. */
const SLOW = { timeout: 15_000 };

const USER_ID = '7f1c2a4e-1b2c-4d3e-8f90-123456789abc';
const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9, 30)).toISOString();

const makeSubscription = (index: number, extra: Partial<AdminSubscription> = {}): AdminSubscription => ({
  id: `sub-${index}`,
  provider_subscription_id: `sub_sandbox_${index}`,
  provider: 'sandbox',
  sandbox: true,
  status: 'active',
  plan: {
    id: 'plan-pro',
    code: 'pro-monthly',
    name: 'Pro',
    billing_interval: 'month',
    price_minor: 99_900,
    currency: 'INR',
  },
  license_id: `lic-${index}`,
  current_period_start: at(1),
  current_period_end: at(30),
  next_charge: { at: at(30), amount_minor: 99_900, currency: 'INR' },
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
  created_at: at(1),
  user_id: USER_ID,
  user_email: `customer${index}@example.com`,
  seats: 1,
  organisation: null,
  ...extra,
});

const charge = (id: string, extra: Partial<AdminPayment> = {}): AdminPayment => ({
  id,
  order_id: `sub_sandbox_1#1`,
  payment_id: `pay_sandbox_${id}`,
  provider: 'sandbox',
  sandbox: true,
  status: 'paid',
  amount: 99_900,
  refunded: 0,
  currency: 'INR',
  plan_id: 'plan-pro',
  plan: { id: 'plan-pro', code: 'pro-monthly', name: 'Pro' },
  license_id: 'lic-1',
  failure_reason: null,
  created_at: at(1),
  updated_at: at(1),
  paid_at: at(1),
  kind: 'subscription',
  dismissed_at: null,
  user_id: USER_ID,
  user_email: 'customer1@example.com',
  ...extra,
});

const party = { name: null, address: [], country: null, tax_id: null, email: null };
const invoice = (number: string, extra: Partial<Invoice> = {}): Invoice => ({
  id: `inv-${number}`,
  kind: 'invoice',
  title: 'Tax invoice',
  number,
  issued_at: at(1),
  currency: 'INR',
  subtotal: 84_661,
  tax: 15_239,
  total: 99_900,
  tax_name: 'GST',
  tax_rate_bp: 1800,
  tax_inclusive: true,
  lines_include_tax: true,
  taxes: [{ name: 'IGST', rate_bp: 1800, amount: 15_239 }],
  place_of_supply: 'Maharashtra (27)',
  tax_treatment: 'gst_inter_state',
  tax_notes: [],
  payment_id: 'pay-1',
  payment_reference: 'pay_sandbox_1',
  service_period: null,
  organisation: null,
  corrects: null,
  seller: party,
  buyer: party,
  lines: [
    { kind: 'item', description: 'Pro', quantity: 1, unit_amount: 99_900, amount: 99_900, coupon_code: null },
  ],
  ...extra,
});

const detailOf = (subscription: AdminSubscription): AdminSubscriptionDetail => ({
  ...subscription,
  charges: [
    charge('pay-2', { status: 'failed', paid_at: null, failure_reason: 'Card declined', created_at: at(2) }),
    charge('pay-1'),
  ],
  invoices: [
    invoice('CN-000001', {
      kind: 'credit_note',
      total: -10_000,
      subtotal: -8_475,
      tax: -1_525,
      corrects: { id: 'inv-INV-000001', number: 'INV-000001' },
    }),
    invoice('INV-000001'),
  ],
});

let api: FakeApi;
let lists: RecordedRequest[];

function serveList(total = 30) {
  lists = [];
  api.on('GET /admin/subscriptions', (request) => {
    lists.push(request);
    const page = Number(request.query.get('page') ?? 1);
    const perPage = Number(request.query.get('perPage') ?? 10);
    const start = (page - 1) * perPage;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, offset) =>
      makeSubscription(start + offset + 1),
    );
    return { json: { data, total, page, perPage } };
  });
}

beforeEach(async () => {
  api = await new FakeApi().start();
  api.on(`GET /admin/users/${USER_ID}`, () => ({
    json: adminUserDetail(USER_ID, { email: 'customer1@example.com' }),
  }));
  api.on('GET /plans/plan-pro', () => ({
    json: plan('plan-pro', {
      code: 'pro-monthly',
      name: 'Pro',
      price_minor: 99_900,
      billing_interval: 'month',
    }),
  }));
  api.on('GET /admin/subscriptions/sub-1', () => ({ json: detailOf(makeSubscription(1)) }));
  serveList();
});
afterEach(() => api.close());

async function open(path: string) {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Subscriptions' }, { timeout: 10_000 });
  return view;
}

const lastList = () => lists[lists.length - 1] as RecordedRequest;
const table = () => screen.findByRole('table', { name: 'Subscriptions' });

describe('/admin/subscriptions', { timeout: 60_000 }, () => {
  it('sends the URL’s page, size, search, sort and filters to the server and lists customer, package, status, period and next charge', async () => {
    await open(
      `/admin/subscriptions?page=2&perPage=5&search=customer&sort=current_period_end&status=past_due&planId=plan-pro&userId=${USER_ID}`,
    );
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    expect(Object.fromEntries(lastList().query)).toEqual({
      page: '2',
      perPage: '5',
      search: 'customer',
      sort: 'current_period_end',
      status: 'past_due',
      planId: 'plan-pro',
      userId: USER_ID,
    });
    const rows = within(await table());
    expect(await rows.findByText('customer6@example.com')).toBeTruthy();
    expect(rows.getAllByText('Pro').length).toBe(5);
    expect(rows.getAllByText('Active').length).toBe(5);
    expect(rows.getAllByText(/999/).length).toBeGreaterThan(0);
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('past_due');
  });

  it('lists the seats of each subscription and the organization a seat-based one was bought for', async () => {
    api.on('GET /admin/subscriptions', () => ({
      json: {
        data: [
          makeSubscription(1, { seats: 5, organisation: { id: 'org-1', name: 'Acme Labs' } }),
          makeSubscription(2),
        ],
        total: 2,
        page: 1,
        perPage: 10,
      },
    }));
    await open('/admin/subscriptions');
    const rows = within(await table());
    const business = (await rows.findByText('customer1@example.com')).closest('tr') as HTMLElement;
    expect(business.textContent).toContain('5 seats');
    expect(within(business).getByText('Acme Labs')).toBeTruthy();
    const personal = rows.getByText('customer2@example.com').closest('tr') as HTMLElement;
    expect(personal.textContent).toContain('1 seat');
    expect(within(personal).queryByText('Acme Labs')).toBeNull();
  });

  it('a subscription ending at period end and one without a next charge say so', async () => {
    api.on('GET /admin/subscriptions', () => ({
      json: {
        data: [
          makeSubscription(1, { cancel_at_period_end: true, next_charge: null }),
          makeSubscription(2, {
            status: 'cancelled',
            next_charge: null,
            current_period_start: null,
            current_period_end: null,
            ended_at: at(3),
          }),
        ],
        total: 2,
        page: 1,
        perPage: 10,
      },
    }));
    await open('/admin/subscriptions');
    const rows = within(await table());
    expect(await rows.findByText('Ends at period end')).toBeTruthy();
    expect(rows.getByText('Canceled')).toBeTruthy();
    expect(rows.getAllByText('None').length).toBe(3);
  });

  it('the drawer shows the charges with a way to refund each through its payment, and the invoices and credit notes', async () => {
    await open('/admin/subscriptions');
    fireEvent.click(
      await screen.findByRole('button', { name: 'View the subscription of customer1@example.com to Pro' }),
    );
    const drawer = within(await screen.findByRole('dialog', { name: 'Subscription details' }));
    expect(await drawer.findByText('sub_sandbox_1')).toBeTruthy();
    expect(drawer.getByText('Sandbox card •••• 4242')).toBeTruthy();
    expect(await drawer.findByText('Card declined')).toBeTruthy();
    const refund = await drawer.findByRole('link', { name: /^Refund or view the payment of/ });
    expect(refund.getAttribute('href')).toBe('/admin/payments?payment=pay-1');
    expect(drawer.getByRole('link', { name: /^View the payment of/ }).getAttribute('href')).toBe(
      '/admin/payments?payment=pay-2',
    );
    expect(drawer.getByText('CN-000001')).toBeTruthy();
    expect(drawer.getAllByText(/INV-000001/).length).toBeGreaterThan(0);
    expect(api.calls('GET /admin/subscriptions/sub-1').length).toBeGreaterThan(0);
  });

  it('cancelling asks for a reason, then posts when and why; the server’s refusal is shown', async () => {
    const user = userEvent.setup();
    await open('/admin/subscriptions?subscription=sub-1');
    const drawer = within(await screen.findByRole('dialog', { name: 'Subscription details' }));
    await user.click(await drawer.findByRole('button', { name: 'Cancel subscription…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel subscription?' }));
    // The way out says what it keeps: "Cancel" beside "Cancel now" would be ambiguous.
    expect(dialog.getByRole('button', { name: 'Keep subscription' })).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Cancel at period end' }));
    expect(await dialog.findByText(/Say why you cancel it/)).toBeTruthy();
    expect(api.calls('POST /admin/subscriptions/sub-1/cancel')).toHaveLength(0);

    api.on('POST /admin/subscriptions/sub-1/cancel', () =>
      problem(409, 'This subscription has already ended', 'subscription_ended'),
    );
    await user.click(dialog.getByRole('radio', { name: 'Now' }));
    await user.type(dialog.getByRole('textbox', { name: /Reason/ }), 'Chargeback from the bank');
    await user.click(dialog.getByRole('button', { name: 'Cancel now' }));
    expect(await dialog.findByText('This subscription has already ended')).toBeTruthy();
    const [refused] = api.calls('POST /admin/subscriptions/sub-1/cancel');
    expect(JSON.parse(refused!.body)).toEqual({ at: 'now', reason: 'Chargeback from the bank' });

    const cancelled = detailOf(
      makeSubscription(1, { status: 'cancelled', next_charge: null, ended_at: at(5) }),
    );
    api.on('POST /admin/subscriptions/sub-1/cancel', () => ({ json: cancelled }));
    api.on('GET /admin/subscriptions/sub-1', () => ({ json: cancelled }));
    await user.click(dialog.getByRole('button', { name: 'Cancel now' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel subscription?' })).toBeNull());
    expect(await screen.findByText('Subscription canceled')).toBeTruthy();
    // Refetched after the write: the drawer shows the end, and no cancel button any more.
    expect(await drawer.findByText('Ended')).toBeTruthy();
    expect(drawer.queryByRole('button', { name: 'Cancel subscription…' })).toBeNull();
  });

  it('pausing asks for how long and why, posts both, shows the server’s refusal, then the planned pause and its withdrawal', async () => {
    const user = userEvent.setup();
    await open('/admin/subscriptions?subscription=sub-1');
    const drawer = within(await screen.findByRole('dialog', { name: 'Subscription details' }));
    (await drawer.findByRole('button', { name: 'Pause…' })).focus();
    await user.keyboard('{Enter}');
    const dialog = within(await screen.findByRole('dialog', { name: 'Pause subscription?' }));
    expect(
      dialog.getByText(/The license keeps working until the end of the paid period \(Nov 30, 2026\)/),
    ).toBeTruthy();
    expect(dialog.getByText('Resumes on Jan 30, 2027')).toBeTruthy();
    // The reason is required before anything is sent.
    await user.click(dialog.getByRole('button', { name: 'Pause for 1 month' }));
    expect(await dialog.findByText(/Say why you pause it/)).toBeTruthy();
    expect(api.calls('POST /admin/subscriptions/sub-1/pause')).toHaveLength(0);

    api.on('POST /admin/subscriptions/sub-1/pause', () =>
      problem(
        409,
        'A subscription with an unpaid charge cannot be paused: pay what is outstanding first.',
        'subscription_not_pausable',
      ),
    );
    const two = dialog.getByRole('radio', { name: '2 months' });
    two.focus();
    await user.keyboard(' ');
    await user.click(dialog.getByRole('textbox', { name: /Reason/ }));
    await user.paste('Customer asked by phone');
    await user.click(dialog.getByRole('button', { name: 'Pause for 2 months' }));
    expect(
      await dialog.findByText(
        'A subscription with an unpaid charge cannot be paused: pay what is outstanding first.',
      ),
    ).toBeTruthy();
    const [refused] = api.calls('POST /admin/subscriptions/sub-1/pause');
    expect(JSON.parse(refused!.body)).toEqual({ periods: 2, reason: 'Customer asked by phone' });

    const planned = detailOf(
      makeSubscription(1, {
        pause: { periods: 2, requested_at: at(5), starts_at: at(30), resumes_at: '2027-01-30T09:30:00.000Z' },
        next_charge: { at: '2027-01-30T09:30:00.000Z', amount_minor: 99_900, currency: 'INR' },
      }),
    );
    api.on('POST /admin/subscriptions/sub-1/pause', () => ({ json: planned }));
    api.on('GET /admin/subscriptions/sub-1', () => ({ json: planned }));
    await user.click(dialog.getByRole('button', { name: 'Pause for 2 months' }));
    await waitFor(
      () => expect(screen.queryByRole('dialog', { name: 'Pause subscription?' })).toBeNull(),
      SLOW,
    );
    expect(await drawer.findByText(/Pauses on Nov 30, 2026 for 2 months, until Jan 30, 2027/)).toBeTruthy();
    expect(drawer.getAllByText('Pause planned').length).toBeGreaterThan(0);
    expect(drawer.queryByRole('button', { name: 'Pause…' })).toBeNull();

    // Withdrawn with a reason too.
    const active = detailOf(makeSubscription(1));
    api.on('POST /admin/subscriptions/sub-1/unpause', () => ({ json: active }));
    await user.click(drawer.getByRole('button', { name: 'Withdraw the pause…' }));
    const withdraw = within(await screen.findByRole('dialog', { name: 'Withdraw the pause?' }));
    await user.click(withdraw.getByRole('textbox', { name: /Reason/ }));
    await user.paste('Changed their mind');
    api.on('GET /admin/subscriptions/sub-1', () => ({ json: active }));
    await user.click(withdraw.getByRole('button', { name: 'Withdraw the pause' }));
    await waitFor(
      () => expect(screen.queryByRole('dialog', { name: 'Withdraw the pause?' })).toBeNull(),
      SLOW,
    );
    expect(JSON.parse(api.calls('POST /admin/subscriptions/sub-1/unpause')[0]!.body)).toEqual({
      reason: 'Changed their mind',
    });
    expect(await drawer.findByRole('button', { name: 'Pause…' })).toBeTruthy();
  });

  it('a paused subscription says until when, and resumes now with a reason', async () => {
    const paused = detailOf(
      makeSubscription(1, {
        status: 'paused',
        pause: { periods: 1, requested_at: at(5), starts_at: at(30), resumes_at: '2026-12-30T09:30:00.000Z' },
        next_charge: { at: '2026-12-30T09:30:00.000Z', amount_minor: 99_900, currency: 'INR' },
      }),
    );
    api.on('GET /admin/subscriptions/sub-1', () => ({ json: paused }));
    api.on('POST /admin/subscriptions/sub-1/unpause', () => ({ json: detailOf(makeSubscription(1)) }));
    const user = userEvent.setup();
    await open('/admin/subscriptions?subscription=sub-1');
    const drawer = within(await screen.findByRole('dialog', { name: 'Subscription details' }));
    expect(await drawer.findByText(/Paused until Dec 30, 2026, when it resumes by itself/)).toBeTruthy();
    expect(drawer.queryByRole('button', { name: 'Pause…' })).toBeNull();
    // Cancelling stays possible while paused.
    expect(drawer.getByRole('button', { name: 'Cancel subscription…' })).toBeTruthy();
    await user.click(drawer.getByRole('button', { name: 'Resume now…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Resume now?' }));
    expect(dialog.getByText(/The next period starts now and is charged now/)).toBeTruthy();
    await user.click(dialog.getByRole('textbox', { name: /Reason/ }));
    await user.paste('Customer is back');
    await user.click(dialog.getByRole('button', { name: 'Resume now' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Resume now?' })).toBeNull(), SLOW);
    expect(JSON.parse(api.calls('POST /admin/subscriptions/sub-1/unpause')[0]!.body)).toEqual({
      reason: 'Customer is back',
    });
    expect(await screen.findByText('Subscription resumed')).toBeTruthy();
  });

  it('an unknown subscription in the URL says it could not be loaded', async () => {
    api.on('GET /admin/subscriptions/sub-gone', () =>
      problem(404, 'Subscription not found', 'subscription_not_found'),
    );
    await open('/admin/subscriptions?subscription=sub-gone');
    const drawer = within(await screen.findByRole('dialog', { name: 'Subscription details' }));
    expect(await drawer.findByText('Subscription not found')).toBeTruthy();
  });
});
