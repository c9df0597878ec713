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
  billing_interval: 'lifetime',
  max_activations: 2,
  sort_order: 0,
  is_public: true,
  is_active: true,
  trial_days: 0,
  update_months: '',
  renews_updates_of: '',
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
