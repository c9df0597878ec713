import { describe, expect, it } from 'vitest';
import {
  type PackageValues,
  toPackageRequest,
  validatePackage,
} from '../../../src/renderer/src/features/admin/packages/package-details-form';

const values = (extra: Partial<PackageValues> = {}): PackageValues => ({
  name: 'Studio Perpetual',
  code: 'studio-perpetual',
  description: '',
  price: 4999,
  currency: 'INR',
  other_prices: {},
  billing_interval: 'lifetime',
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

describe('the package form’s months of updates', () => {
  it('empty is not perpetual (null); a number makes a perpetual package', () => {
    expect(toPackageRequest(values()).update_months).toBeNull();
    expect(toPackageRequest(values({ update_months: 12 })).update_months).toBe(12);
    expect(validatePackage(values({ update_months: 12 }))).toEqual({});
  });

  it('a perpetual package is sold once: another billing interval is refused on the field', () => {
    const errors = validatePackage(values({ update_months: 12, billing_interval: 'year' }));
    expect(errors.update_months).toBe(
      'A perpetual plan or an update renewal is bought once: its billing interval is lifetime',
    );
    expect(validatePackage(values({ update_months: 121 })).update_months).toBeTruthy();
  });

  it('an update renewal names its perpetual package (none sends null) and says how many months it adds', () => {
    expect(toPackageRequest(values()).renews_updates_of).toBeNull();
    expect(toPackageRequest(values({ renews_updates_of: 'plan-studio', update_months: 12 }))).toMatchObject({
      renews_updates_of: 'plan-studio',
      update_months: 12,
    });
    expect(validatePackage(values({ renews_updates_of: 'plan-studio' })).update_months).toBe(
      'An update renewal says how many months of updates it adds',
    );
  });
});

describe('the package form’s floating seats', () => {
  it('empty seats is node-locked (null); seats make the plan floating with its lease and borrow days', () => {
    expect(toPackageRequest(values()).floating).toBeNull();
    expect(
      toPackageRequest(values({ floating_seats: 5, floating_lease_minutes: 20, floating_borrow_days: 0 }))
        .floating,
    ).toEqual({ seats: 5, lease_minutes: 20, max_borrow_days: 0 });
    expect(validatePackage(values({ floating_seats: 0 }))).toMatchObject({
      floating_seats: 'A floating plan has at least 1 seat',
    });
    expect(validatePackage(values({ floating_seats: 3, floating_borrow_days: 91 }))).toMatchObject({
      floating_borrow_days: 'A seat is borrowed for at most 90 days',
    });
  });
});

describe('the package form’s fair use of machines', () => {
  it('sends the deactivations per 30 days and the fingerprint threshold as typed', () => {
    expect(
      toPackageRequest(values({ deactivations_per_30_days: 5, fingerprint_threshold: 4 })),
    ).toMatchObject({
      deactivations_per_30_days: 5,
      fingerprint_threshold: 4,
    });
    expect(validatePackage(values({ deactivations_per_30_days: 0 }))).toEqual({});
  });

  it('refuses a negative cap, an empty one and a threshold past the five components, on their fields', () => {
    expect(validatePackage(values({ deactivations_per_30_days: -1 })).deactivations_per_30_days).toBe(
      'Deactivations cannot be negative',
    );
    expect(validatePackage(values({ deactivations_per_30_days: '' })).deactivations_per_30_days).toBeTruthy();
    expect(validatePackage(values({ fingerprint_threshold: 6 })).fingerprint_threshold).toBe(
      'A machine sends 5 fingerprint components',
    );
    expect(validatePackage(values({ fingerprint_threshold: 0 })).fingerprint_threshold).toBe(
      'At least one fingerprint component must match',
    );
  });
});
