import type { AdminLicense, AdminUser, AdminUserDetail } from '../../../src/shared/api/admin';
import type { Feature } from '../../../src/shared/api/features';
import type { FeatureStats } from '../../../src/renderer/src/features/admin/admin-endpoints';
import type { HealthResponse } from '../../../src/shared/api/health';
import type {
  Activation,
  ActivationResult,
  FeatureUsage,
  License,
  LicenseStatusAnswer,
} from '../../../src/shared/api/licenses';
import type { Paged } from '../../../src/shared/api/paging';
import type { Plan } from '../../../src/shared/api/plans';
import { makeLicense } from './signed-in';
import { withOwnPrice } from './plan-prices';

/*
 * Whole bodies of the real API for tests that need one but are about something else; `extra`
 * overrides the fields a test cares about. The fake API checks them against the shared schemas.
 */

const CREATED = '2025-01-01T00:00:00.000Z';

export const healthy: HealthResponse = { status: 'ok', database: 'ok', version: '1.0.0', uptime_seconds: 60 };

/** One page of an admin list holding `data`. */
export const paged = <Item>(data: Item[], extra: Partial<Paged<Item>> = {}): Paged<Item> => ({
  data,
  total: data.length,
  page: 1,
  perPage: 20,
  ...extra,
});

export const plan = (id: string, extra: Partial<Plan> = {}): Plan =>
  withOwnPrice({
    id,
    code: id,
    name: id,
    description: '',
    price_minor: 0,
    currency: 'INR',
    billing_interval: 'free',
    max_activations: 1,
    seat_based: false,
    trial_days: 0,
    deactivations_per_30_days: 3,
    fingerprint_threshold: 3,
    is_public: true,
    is_active: true,
    is_draft: false,
    sort_order: 0,
    update_months: null,
    renews_updates_of: null,
    floating: null,
    features: [],
    archived_at: null,
    created_at: CREATED,
    updated_at: CREATED,
    ...extra,
  });

export const adminUser = (id: string, extra: Partial<AdminUser> = {}): AdminUser => ({
  id,
  email: `${id}@example.com`,
  full_name: null,
  company: null,
  role: 'user',
  status: 'active',
  email_verified: true,
  last_sign_in_at: null,
  created_at: CREATED,
  updated_at: CREATED,
  ...extra,
});

export const adminUserDetail = (id: string, extra: Partial<AdminUserDetail> = {}): AdminUserDetail => ({
  ...adminUser(id),
  email_verified_at: '2025-01-01T10:00:00.000Z',
  second_factors: { authenticator_app: false, passkeys: 0 },
  counts: { licenses: 0, active_activations: 0, payments: 0 },
  ...extra,
});

export const feature = (id: string, extra: Partial<Feature> = {}): Feature => ({
  feature_id: id,
  key: id.toLowerCase().replace(/[^a-z0-9_]/g, '_'),
  name: id,
  description: '',
  kind: 'boolean',
  period: null,
  unit: null,
  created_at: CREATED,
  updated_at: CREATED,
  ...extra,
});

export const activation = (id: string, extra: Partial<Activation> = {}): Activation => ({
  activation_id: id,
  license_id: 'L1',
  hardware_id: 'hw-test-machine-0001',
  label: null,
  device_name: null,
  platform: null,
  app_version: null,
  activated_at: CREATED,
  last_seen_at: CREATED,
  deactivated_at: null,
  deactivated_reason: null,
  ...extra,
});

/** What activating license `id` on a machine answers: the license, the machine's seat and its lease. */
export const activationResult = (id: string, extra: Partial<ActivationResult> = {}): ActivationResult => ({
  ...(makeLicense(id) as License),
  activation: activation('A1', { license_id: id }),
  lease: 'header.lease.signature',
  lease_expires_at: '2030-01-01T00:00:00.000Z',
  message: 'License activated',
  ...extra,
});

/** A license as the admin console lists it: with its owner's e-mail. */
export const adminLicense = (id: string, extra: Partial<AdminLicense> = {}): AdminLicense => ({
  ...(makeLicense(id) as License),
  user_id: 'user-1',
  user_email: 'ada@example.com',
  seats: null,
  ...extra,
});

/** A metered feature of a license with its use this period. */
export const featureUsage = (id: string, extra: Partial<FeatureUsage> = {}): FeatureUsage => ({
  feature_id: id,
  key: id.toLowerCase().replace(/[^a-z0-9_]/g, '_'),
  name: id,
  kind: 'metered',
  period: 'month',
  unit: 'messages',
  limit: 100,
  overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
  pack: null,
  from_packs: 0,
  packs_left: 0,
  over_allowance: 0,
  used: 0,
  remaining: 100,
  available: true,
  message: `0 of 100 messages used this month`,
  period_start: '2025-01-01T00:00:00.000Z',
  period_end: '2025-02-01T00:00:00.000Z',
  ...extra,
});

/** What `GET /licensing/status` answers for license `id`, valid on this machine. */
export const validLicenseStatus = (
  id: string,
  extra: Partial<LicenseStatusAnswer> = {},
): LicenseStatusAnswer => ({
  valid: true,
  status: 'active',
  message: 'License is valid',
  requires_activation: false,
  license_id: id,
  plan: { id: 'plan-base', code: 'base', name: 'Base', billing_interval: 'free' },
  expires_at: null,
  features: [],
  activation_id: 'A1',
  seat: null,
  trial: null,
  lease: 'header.lease.signature',
  lease_expires_at: '2030-01-01T00:00:00.000Z',
  ...extra,
});

/** What `GET /admin/features/stats` answers: one metered feature in two packages. */
export const featureStats: FeatureStats = {
  total: 2,
  boolean: 1,
  metered: 1,
  by_feature: [
    {
      feature_id: 'f1',
      key: 'ai_chat',
      name: 'AI chat',
      plans: 2,
      plan_names: ['Pro', 'Team'],
      usage_this_month: 40,
    },
  ],
};
