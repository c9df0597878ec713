import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/shared/api/plans';
import { CURRENCY_STORAGE_KEY } from '../../../src/shared/storage-keys';
import { browserRegion } from '../../../src/renderer/src/features/plans/shown-currency';
import { basePlan } from './support-licenses/license-fixtures';
import { FakeApi } from '../support/fake-api';
import { withOwnPrice } from '../support/plan-prices';
import { renderApp, servicesFor } from '../support/render-app';
import { makeLicense } from '../support/signed-in';

/*
 * Prices in the buyer's currency (issue 34, item 7): the Purchase page shows each plan at its
 * price in the billing country's currency (else the browser's region's, en-US here), offers the
 * others the plans are sold in, and opens the checkout in the one shown.
 */

const SLOW = { timeout: 8000 };

const PRO: Plan = withOwnPrice({
  ...basePlan,
  id: 'pro',
  code: 'pro',
  name: 'Pro',
  price_minor: 99_900,
  currency: 'INR',
  billing_interval: 'lifetime',
  max_activations: 3,
  prices: [
    { currency: 'INR', price_minor: 99_900 },
    { currency: 'EUR', price_minor: 1_100 },
    { currency: 'USD', price_minor: 1_200 },
  ],
});

const details = (country: string) => ({
  name: 'Buyer',
  address_line1: '1 Street',
  address_line2: null,
  city: 'City',
  postal_code: '10117',
  region: null,
  country,
  tax_id: null,
  updated_at: '2026-01-01T00:00:00.000Z',
});

let api: FakeApi;

beforeEach(async () => {
  window.localStorage.removeItem(CURRENCY_STORAGE_KEY);
  api = await new FakeApi().start();
  api.on('GET /subscriptions', () => ({ json: { data: [] } }));
  api.on('GET /plans/public', () => ({ json: [basePlan, PRO] }));
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
    json: { plan: basePlan, license: makeLicense('lic-base') },
  }));
  api.on('GET /licenses', () => ({ json: [makeLicense('lic-base')] }));
  api.on('GET /payments/history', () => ({ json: { data: [], total: 0, page: 1, perPage: 10 } }));
  api.on('POST /payments/razorpay/create-order', () => ({
    status: 201,
    json: {
      id: 'pay-1',
      order_id: 'order_sandbox_abc',
      amount: 1_100,
      currency: 'EUR',
      key_id: 'sandbox',
      provider: 'sandbox',
      sandbox: true,
      plan: { id: 'pro', code: 'pro', name: 'Pro' },
    },
  }));
});
afterEach(async () => {
  window.localStorage.removeItem(CURRENCY_STORAGE_KEY);
  await api.close();
});

async function openPurchase() {
  renderApp(await servicesFor(api, 'user'), '/purchase');
  return within(await screen.findByRole('article', { name: 'Pro' }, { timeout: 10_000 }));
}

describe('purchase page: prices in the buyer’s currency', () => {
  it('without billing details, the browser’s region decides (en-US: dollars); another currency can be chosen and the checkout opens in it', async () => {
    api.on('GET /billing/details', () => ({ json: { details: null } }));
    const pro = await openPurchase();
    expect(pro.getByText('$12')).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Prices in' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['INR', 'EUR', 'USD']);
    await userEvent.selectOptions(select, 'EUR');
    expect(await pro.findByText('€11')).toBeTruthy();
    expect(window.localStorage.getItem(CURRENCY_STORAGE_KEY)).toBe('EUR');
    await userEvent.click(pro.getByRole('button', { name: 'Buy Pro' }));
    await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW);
    expect(JSON.parse(api.calls('POST /payments/razorpay/create-order')[0]?.body ?? 'null')).toEqual({
      plan_id: 'pro',
      currency: 'EUR',
    });
  });

  it('billing details in India show rupees; the free plan stays free', async () => {
    api.on('GET /billing/details', () => ({ json: { details: details('IN') } }));
    const pro = await openPurchase();
    expect(await pro.findByText('₹999', {}, SLOW)).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Prices in' }) as HTMLSelectElement).value).toBe('INR');
    expect(within(screen.getByRole('article', { name: 'Base' })).getByText('Free')).toBeTruthy();
  });

  it('reads the region from the browser’s languages, the first that names or implies one', () => {
    expect(browserRegion(['de-DE'])).toBe('DE');
    expect(browserRegion(['hi'])).toBe('IN');
    expect(browserRegion(['not a tag', 'es-MX'])).toBe('MX');
    expect(browserRegion([])).toBeNull();
  });
});
