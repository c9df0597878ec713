import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readersDayText } from '../../../src/renderer/src/components/forms/day-text';
import type { AdminPayment } from '../../../src/shared/api/payments';
import { adminUserDetail, plan } from '../support/api-answers';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { makeLicense } from '../support/signed-in';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const USER_ID = '7f1c2a4e-1b2c-4d3e-8f90-123456789abc';

const makePayment = (index: number, extra: Partial<AdminPayment> = {}): AdminPayment => ({
  id: `pay-${index}`,
  order_id: `order_${index}`,
  payment_id: `pay_provider_${index}`,
  provider: 'sandbox',
  sandbox: true,
  status: 'paid',
  amount: 99_900,
  refunded: 0,
  currency: 'INR',
  plan_id: 'plan-pro',
  plan: { id: 'plan-pro', code: 'pro-monthly', name: 'Pro' },
  license_id: `lic-${index}`,
  failure_reason: null,
  created_at: new Date(Date.UTC(2025, 0, 1, 10, index)).toISOString(),
  updated_at: new Date(Date.UTC(2025, 0, 1, 10, index)).toISOString(),
  paid_at: new Date(Date.UTC(2025, 0, 1, 10, index, 30)).toISOString(),
  kind: 'purchase',
  dismissed_at: null,
  user_id: USER_ID,
  user_email: `buyer${index}@example.com`,
  ...extra,
});

let api: FakeApi;
let lists: RecordedRequest[];

function servePayments(total = 1000) {
  lists = [];
  api.on('GET /payments/admin/payments', (request) => {
    lists.push(request);
    const page = Number(request.query.get('page') ?? 1);
    const perPage = Number(request.query.get('perPage') ?? 10);
    const start = (page - 1) * perPage;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, offset) =>
      makePayment(start + offset + 1),
    );
    return { json: { data, total, page, perPage } };
  });
}

beforeEach(async () => {
  api = await new FakeApi().start();
  api.on(`GET /admin/users/${USER_ID}`, () => ({
    json: adminUserDetail(USER_ID, { email: 'buyer@example.com' }),
  }));
  api.on('GET /plans/plan-pro', () => ({
    json: plan('plan-pro', {
      code: 'pro-monthly',
      name: 'Pro',
      price_minor: 1999,
      billing_interval: 'month',
    }),
  }));
  servePayments();
});
afterEach(() => api.close());

async function open(path: string) {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Payments' }, { timeout: 10_000 });
  return view;
}

const lastList = () => lists[lists.length - 1] as RecordedRequest;
const findCell = async (text: string) =>
  within(await screen.findByRole('table', { name: 'Payments' })).findByText(text);

describe('/admin/payments', () => {
  it('sends the URL’s page, size, search, sort and filters to the server', async () => {
    await open(
      `/admin/payments?page=2&perPage=25&search=order_7&sort=amount&status=failed&planId=plan-pro&userId=${USER_ID}&from=2025-01-01&to=2025-03-31`,
    );
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    expect(Object.fromEntries(lastList().query)).toEqual({
      page: '2',
      perPage: '25',
      search: 'order_7',
      sort: 'amount',
      status: 'failed',
      planId: 'plan-pro',
      userId: USER_ID,
      from: '2025-01-01',
      to: '2025-03-31',
    });
    expect(await findCell('buyer26@example.com')).toBeTruthy();
    // The filters show names, not ids.
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Package' }) as HTMLInputElement).value).toBe(
        'Pro (pro-monthly)',
      ),
    );
    expect((screen.getByRole('combobox', { name: 'User' }) as HTMLInputElement).value).toBe(
      'buyer@example.com',
    );
  });

  it('lists date, user, package, amount with currency, status and the sandbox mark', async () => {
    servePayments(2);
    api.on('GET /payments/admin/payments', () => ({
      json: {
        data: [
          makePayment(1),
          makePayment(2, {
            provider: 'razorpay',
            sandbox: false,
            status: 'failed',
            amount: 4_999_000,
            failure_reason: 'Card declined by the bank',
            user_email: null,
            user_id: null,
          }),
        ],
        total: 2,
        page: 1,
        perPage: 10,
      },
    }));
    await open('/admin/payments');
    const sandboxRow = (await findCell('buyer1@example.com')).closest('tr') as HTMLElement;
    expect(within(sandboxRow).getByText('Pro')).toBeTruthy();
    expect(sandboxRow.textContent).toContain('₹999');
    expect(sandboxRow.textContent).toContain('INR');
    expect(within(sandboxRow).getByText('Paid')).toBeTruthy();
    expect(within(sandboxRow).getByText('Sandbox')).toBeTruthy();
    const realRow = (await findCell('Deleted account')).closest('tr') as HTMLElement;
    expect(within(realRow).getByText('Failed')).toBeTruthy();
    expect(within(realRow).getByText('Razorpay')).toBeTruthy();
    expect(within(realRow).queryByText('Sandbox')).toBeNull();
    expect(realRow.textContent).toContain('₹49,990');
  });

  it('a partly refunded payment reads "Partially refunded ₹5,000 of ₹14,999" in the list', async () => {
    api.on('GET /payments/admin/payments', () => ({
      json: {
        data: [makePayment(1, { amount: 1_499_900, refunded: 500_000 })],
        total: 1,
        page: 1,
        perPage: 10,
      },
    }));
    await open('/admin/payments');
    const row = (await findCell('buyer1@example.com')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Partially refunded ₹5,000 of ₹14,999')).toBeTruthy();
    expect(within(row).queryByText('Paid')).toBeNull();
  });

  it('filters by status and date range: one request each, the URL keeps them, page 1 again', async () => {
    const { router } = await open('/admin/payments?page=5');
    await findCell('buyer41@example.com');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'paid' } });
    await waitFor(() => expect(lastList().query.get('status')).toBe('paid'));
    expect(lastList().query.get('page')).toBe('1');
    // Typed as the portal writes dates (the reader's locale): the server still gets YYYY-MM-DD.
    const from = screen.getByLabelText('From');
    await userEvent.type(from, readersDayText.format('2025-02-01'));
    await waitFor(() => expect(lastList().query.get('from')).toBe('2025-02-01'));
    // A day half typed sends nothing.
    expect(lists.filter((list) => list.query.has('to'))).toHaveLength(0);
    // Picked in the calendar, which opens on the month of the range's start. The From field's
    // calendar is closed first (it closes as the field loses focus), so the one open is the To's.
    fireEvent.blur(from);
    await waitFor(() => expect(document.querySelectorAll('[data-dates-dropdown]')).toHaveLength(0));
    await userEvent.click(screen.getByLabelText('To'));
    const calendar = await waitFor(() => {
      const open = document.querySelectorAll<HTMLElement>('[data-dates-dropdown]');
      expect(open).toHaveLength(1);
      return open[0] as HTMLElement;
    });
    await userEvent.click(
      within(calendar).getByRole('button', { name: readersDayText.format('2025-02-28'), hidden: true }),
    );
    await waitFor(() => expect(lastList().query.get('to')).toBe('2025-02-28'));
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe(readersDayText.format('2025-02-28'));
    await userEvent.tab();
    expect((from as HTMLInputElement).value).toBe(readersDayText.format('2025-02-01'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'paid',
      from: '2025-02-01',
      to: '2025-02-28',
    });
  });

  it('pages: Next page, Page N and Rows per page', async () => {
    await open('/admin/payments');
    await findCell('buyer1@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await findCell('buyer11@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 100' }));
    expect(await findCell('buyer1000@example.com')).toBeTruthy();
    expect(screen.getByText('Showing 991–1,000 of 1,000 payments')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '100' } });
    await waitFor(() => expect(lastList().query.get('perPage')).toBe('100'));
    expect(lastList().query.get('page')).toBe('1');
  });

  it('sorts by amount from the column header', async () => {
    await open('/admin/payments');
    await findCell('buyer1@example.com');
    fireEvent.click(screen.getByRole('button', { name: /^Amount/ }));
    await waitFor(() => expect(lastList().query.get('sort')).toBe('amount'));
    fireEvent.click(screen.getByRole('button', { name: /^Amount/ }));
    await waitFor(() => expect(lastList().query.get('sort')).toBe('-amount'));
  });

  it('shows a payment’s ids, history and the license it granted, linked to the licenses console', async () => {
    api.on('GET /payments/admin/payments/pay-3', () => ({ json: makePayment(3) }));
    api.on('GET /admin/licenses/lic-3', () => ({
      json: {
        ...makeLicense('lic-3', { license_key: 'ABCDE-FGHJK-MNPQR-STVWX-YZ234' }),
        user_email: 'buyer3@example.com',
        seats: null,
      },
    }));
    const { router } = await open('/admin/payments');
    await findCell('buyer3@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'View payment order_3' }));
    const drawer = await screen.findByRole('dialog', { name: 'Payment details' });
    expect(new URLSearchParams(router.state.location.search).get('payment')).toBe('pay-3');
    expect(within(drawer).getByText('order_3')).toBeTruthy();
    expect(within(drawer).getByText('pay_provider_3')).toBeTruthy();
    expect(within(drawer).getByText('Order created')).toBeTruthy();
    expect(within(drawer).getAllByText('Paid').length).toBeGreaterThan(0);
    expect(await within(drawer).findByTestId('granted-license-key')).toBeTruthy();
    const link = within(drawer).getByRole('link', { name: 'Open the license in Licenses' });
    expect(link.getAttribute('href')).toBe('/admin/licenses?search=ABCDE-FGHJK-MNPQR-STVWX-YZ234');
  });

  it('a failed payment shows why', async () => {
    api.on('GET /payments/admin/payments/pay-x', () => ({
      json: makePayment(9, {
        id: 'pay-x',
        status: 'failed',
        payment_id: null,
        paid_at: null,
        license_id: null,
        failure_reason: 'Card declined by the bank',
      }),
    }));
    await open('/admin/payments?payment=pay-x');
    const drawer = await screen.findByRole('dialog', { name: 'Payment details' });
    expect((await within(drawer).findAllByText('Card declined by the bank')).length).toBeGreaterThan(0);
    expect(within(drawer).getByText('None: a license is granted once the payment succeeds.')).toBeTruthy();
  });

  it('shows the server’s message when the list is refused', async () => {
    api.on('GET /payments/admin/payments', () => problem(403, 'Administrators only'));
    await open('/admin/payments');
    expect(await screen.findByText('Administrators only')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
