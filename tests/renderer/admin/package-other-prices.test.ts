import { describe, expect, it } from 'vitest';
import {
  type PackageValues,
  toPackageRequest,
  validatePackage,
} from '../../../src/renderer/src/features/admin/packages/package-details-form';

const values = (extra: Partial<PackageValues> = {}): PackageValues => ({
  name: 'Studio',
  code: 'studio',
  description: '',
  price: 999,
  currency: 'INR',
  other_prices: {},
  billing_interval: 'month',
  max_activations: 2,
  sort_order: 0,
  is_public: true,
  is_active: true,
  trial_days: 0,
  deactivations_per_30_days: 3,
  fingerprint_threshold: 3,
  update_months: '',
  renews_updates_of: '',
  floating_seats: '',
  floating_lease_minutes: 15,
  floating_borrow_days: 7,
  ...extra,
});

describe('the package form’s prices in other currencies', () => {
  it('sends the filled-in currencies in minor units, in code order; an empty one, and the package’s own, are not sent', () => {
    const request = toPackageRequest(values({ other_prices: { USD: 12, EUR: 11.5, JPY: '', INR: 5 } }));
    expect(request.other_prices).toEqual([
      { currency: 'EUR', price_minor: 1150 },
      { currency: 'USD', price_minor: 1200 },
    ]);
  });

  it('a free package is sold in no other currency, whatever the fields hold', () => {
    expect(
      toPackageRequest(values({ billing_interval: 'free', price: 0, other_prices: { USD: 12 } }))
        .other_prices,
    ).toEqual([]);
  });

  it('a price of 0 is refused on its field, before sending', () => {
    expect(validatePackage(values({ other_prices: { EUR: 0 } }))).toHaveProperty(
      ['other_prices.EUR'],
      'Enter a price above 0, or leave it empty',
    );
    expect(validatePackage(values({ other_prices: { EUR: 3 } }))).not.toHaveProperty(['other_prices.EUR']);
  });
});
