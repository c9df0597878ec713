import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readersDayText } from '../../../src/renderer/src/components/forms/day-text';
import type { Coupon } from '../../../src/shared/api/coupons';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const coupon = (id: string, extra: Partial<Coupon> = {}): Coupon => ({
  id,
  code: id.toUpperCase(),
  description: null,
  percent_off: 10,
  amount_off_minor: null,
  currency: null,
  duration: 'once',
  expires_at: null,
  max_redemptions: null,
  redeemed_count: 0,
  archived: false,
  created_at: '2025-01-01T00:00:00.000Z',
  ...extra,
});

let api: FakeApi;
let coupons: Coupon[];

beforeEach(async () => {
  api = await new FakeApi().start();
  coupons = [
    coupon('welcome', { description: 'New customers', max_redemptions: 50, redeemed_count: 12 }),
    coupon('flat100', {
      percent_off: null,
      amount_off_minor: 10_000,
      currency: 'INR',
      duration: 'forever',
      expires_at: '2099-06-30T18:29:59.999Z',
    }),
    coupon('oldie', { archived: true }),
    coupon('past', { expires_at: '2024-12-31T18:29:59.999Z', max_redemptions: 5 }),
  ];
  api.on('GET /payments/config', () => ({
    json: {
      provider: 'sandbox',
      key_id: 'sandbox',
      sandbox: true,
      currency: 'INR',
      currencies: ['INR', 'USD', 'EUR'],
    },
  }));
  api.on('GET /admin/coupons', () => ({ json: { data: coupons } }));
  api.on('POST /admin/coupons', (request) => {
    const body = JSON.parse(request.body) as Partial<Coupon> & { code: string };
    const code = body.code.toUpperCase();
    if (coupons.some((item) => item.code === code))
      return problem(409, `A coupon with the code ${code} already exists`, 'coupon_code_taken');
    const created = coupon('new', { ...body, code, percent_off: body.percent_off ?? null });
    coupons = [created, ...coupons];
    return { status: 201, json: created };
  });
  api.on('PUT /admin/coupons/welcome', (request) => {
    const changes = JSON.parse(request.body) as Partial<Coupon>;
    coupons = coupons.map((item) => (item.id === 'welcome' ? { ...item, ...changes } : item));
    return { json: coupons.find((item) => item.id === 'welcome') };
  });
});
afterEach(async () => {
  await api.close();
});

async function open(path = '/admin/coupons') {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Coupons' }, { timeout: 10_000 });
  return view;
}

const rowOf = async (code: string) =>
  (await within(await screen.findByRole('table', { name: 'Coupons' })).findByText(code)).closest(
    'tr',
  ) as HTMLElement;

async function openCreate() {
  fireEvent.click(screen.getAllByRole('button', { name: 'New coupon' })[0] as HTMLElement);
  return within(await screen.findByRole('dialog', { name: 'New coupon' }));
}

describe('/admin/coupons', () => {
  it("an expired coupon's limit can still be changed; a new expiry must not be in the past", async () => {
    api.on('PUT /admin/coupons/past', (request) => ({
      json: { ...coupons[3], ...(JSON.parse(request.body) as Partial<Coupon>) },
    }));
    await open();
    expect(within(await rowOf('PAST')).getByText('Expired')).toBeTruthy();
    fireEvent.click(within(await rowOf('PAST')).getByRole('button', { name: 'Edit PAST' }));
    const edit = within(await screen.findByRole('dialog', { name: 'Edit coupon PAST' }));
    const limit = edit.getByRole('textbox', { name: /^Redemption limit/ });
    await userEvent.clear(limit);
    await userEvent.type(limit, '9');
    // The saved day is shown as every date in the portal; a new one is typed the same way.
    const expires = edit.getByLabelText(/^Expires/) as HTMLInputElement;
    expect(expires.value).toBe(readersDayText.format('2024-12-31'));
    await userEvent.clear(expires);
    await userEvent.type(expires, readersDayText.format('2020-01-01'));
    fireEvent.click(edit.getByRole('button', { name: 'Save changes' }));
    expect(await edit.findByText('Choose today or a later day')).toBeTruthy();
    expect(api.calls('PUT /admin/coupons/past')).toHaveLength(0);
    // Back to the day it had: only the limit is sent.
    fireEvent.change(edit.getByLabelText(/^Expires/), { target: { value: '2024-12-31' } });
    fireEvent.click(edit.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls('PUT /admin/coupons/past')).toHaveLength(1));
    expect(JSON.parse(api.calls('PUT /admin/coupons/past')[0]?.body ?? '')).toEqual({ max_redemptions: 9 });
  });

  it('lists code, discount, duration, expiry, redeemed of limit and state; the filter is in the URL', async () => {
    const { router } = await open();
    const welcome = within(await rowOf('WELCOME'));
    expect(welcome.getByText('New customers')).toBeTruthy();
    expect(welcome.getByText('10% off')).toBeTruthy();
    expect(welcome.getByText('First charge')).toBeTruthy();
    expect(welcome.getByText('Never')).toBeTruthy();
    expect(welcome.getByText('12 of 50')).toBeTruthy();
    expect(welcome.getByText('Active')).toBeTruthy();
    const flat = within(await rowOf('FLAT100'));
    expect(flat.getByText('₹100 off')).toBeTruthy();
    expect(flat.getByText('Every charge')).toBeTruthy();
    expect(flat.getByText('0')).toBeTruthy();
    expect(within(await rowOf('OLDIE')).getByText('Archived')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'archived' } });
    await waitFor(() => expect(screen.queryByText('WELCOME')).toBeNull());
    expect(await rowOf('OLDIE')).toBeTruthy();
    expect(router.state.location.search).toBe('?state=archived');
  });

  it('refuses a bad form without sending it', async () => {
    await open();
    await rowOf('WELCOME');
    const dialog = await openCreate();
    await userEvent.type(dialog.getByRole('textbox', { name: /^Code/ }), 'no spaces');
    await userEvent.type(dialog.getByRole('textbox', { name: /^Percentage off/ }), '150');
    fireEvent.click(dialog.getByRole('button', { name: 'Create coupon' }));
    expect(await dialog.findByText('A coupon code has only letters, digits, - and _')).toBeTruthy();
    expect(await dialog.findByText('At most 100% off')).toBeTruthy();
    expect(api.calls('POST /admin/coupons')).toHaveLength(0);
  });

  it('creates a fixed-amount coupon: the request follows the schema (minor units), a toast, the list shows it', async () => {
    await open();
    await rowOf('WELCOME');
    const dialog = await openCreate();
    await userEvent.type(dialog.getByRole('textbox', { name: /^Code/ }), 'diwali-250');
    fireEvent.click(dialog.getByRole('radio', { name: 'Fixed amount' }));
    await userEvent.type(await dialog.findByRole('textbox', { name: /^Amount off/ }), '250');
    fireEvent.click(dialog.getByRole('radio', { name: /^Every charge/ }));
    await userEvent.type(dialog.getByRole('textbox', { name: /^Redemption limit/ }), '500');
    fireEvent.click(dialog.getByRole('button', { name: 'Create coupon' }));

    await waitFor(() => expect(api.calls('POST /admin/coupons')).toHaveLength(1));
    expect(JSON.parse(api.calls('POST /admin/coupons')[0]?.body ?? '')).toEqual({
      code: 'diwali-250',
      amount_off_minor: 25_000,
      currency: 'INR',
      duration: 'forever',
      max_redemptions: 500,
    });
    expect(await screen.findByText('Coupon created')).toBeTruthy();
    expect(within(await rowOf('DIWALI-250')).getByText('₹250 off')).toBeTruthy();
  });

  it("shows the server's refusals under their fields", async () => {
    await open();
    await rowOf('WELCOME');
    const dialog = await openCreate();
    const code = dialog.getByRole('textbox', { name: /^Code/ });
    await userEvent.type(code, 'welcome');
    await userEvent.type(dialog.getByRole('textbox', { name: /^Percentage off/ }), '15');
    fireEvent.click(dialog.getByRole('button', { name: 'Create coupon' }));
    const taken = await dialog.findAllByText('A coupon with the code WELCOME already exists');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(taken.some((node) => code.getAttribute('aria-describedby')?.includes(node.id))).toBe(true);

    // A validation_error with its fields (as the server's schema check answers).
    api.on('POST /admin/coupons', () => ({
      status: 400,
      json: {
        detail: 'Request body is invalid',
        message: 'Request body is invalid',
        code: 'validation_error',
        errors: [{ field: 'max_redemptions', message: 'Allow at least one redemption' }],
      },
    }));
    await userEvent.clear(code);
    await userEvent.type(code, 'fresh');
    fireEvent.click(dialog.getByRole('button', { name: 'Create coupon' }));
    expect(await dialog.findByText('Allow at least one redemption')).toBeTruthy();
    expect(dialog.getByRole('textbox', { name: /^Redemption limit/ }).getAttribute('aria-invalid')).toBe(
      'true',
    );
  });

  it('edits the limit (only what changed is sent), then archives after asking', async () => {
    await open();
    fireEvent.click(within(await rowOf('WELCOME')).getByRole('button', { name: 'Edit WELCOME' }));
    const edit = within(await screen.findByRole('dialog', { name: 'Edit coupon WELCOME' }));
    const limit = edit.getByRole('textbox', { name: /^Redemption limit/ });
    await userEvent.clear(limit);
    await userEvent.type(limit, '80');
    fireEvent.click(edit.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls('PUT /admin/coupons/welcome')).toHaveLength(1));
    expect(JSON.parse(api.calls('PUT /admin/coupons/welcome')[0]?.body ?? '')).toEqual({
      max_redemptions: 80,
    });
    expect(await within(await rowOf('WELCOME')).findByText('12 of 80')).toBeTruthy();

    fireEvent.click(within(await rowOf('WELCOME')).getByRole('button', { name: 'Archive WELCOME' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Archive coupon WELCOME?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Archive coupon' }));
    await waitFor(() => expect(api.calls('PUT /admin/coupons/welcome')).toHaveLength(2));
    expect(JSON.parse(api.calls('PUT /admin/coupons/welcome')[1]?.body ?? '')).toEqual({ archived: true });
    expect(await within(await rowOf('WELCOME')).findByText('Archived')).toBeTruthy();
    expect(within(await rowOf('WELCOME')).getByRole('button', { name: 'Restore WELCOME' })).toBeTruthy();
  });
});
