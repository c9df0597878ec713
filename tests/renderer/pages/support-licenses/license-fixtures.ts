import type { Activation, FeatureUsage, License, Release } from '../../../../src/shared/api/licenses';
import type { Plan } from '../../../../src/shared/api/plans';
import { localStorageKeys } from '../../../../src/shared/storage-keys';
import { FakeApi } from '../../support/fake-api';
import { renderApp, servicesFor } from '../../support/render-app';
import { withOwnPrice } from '../../support/plan-prices';

export const LICENSE_ID = '6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
export const OTHER_LICENSE_ID = '7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d';
/** A well-formed key (its check characters are right) as the server issues them. */
export const LICENSE_KEY = 'JSA7W-Y952T-EV4Z7-D207Y-WY4K5';
export const THIS_MACHINE = 'hw-this-browser-0001';

export const chat = (extra: Partial<FeatureUsage> = {}): FeatureUsage => ({
  feature_id: 'f-chat',
  key: 'ai_chat',
  name: 'AI chat',
  kind: 'metered',
  period: 'month',
  unit: 'messages',
  limit: 100,
  overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
  pack: null,
  from_packs: 0,
  packs_left: 0,
  over_allowance: 0,
  used: 37,
  remaining: 63,
  available: true,
  message: '37 of 100 messages used this month; it resets on Dec 1, 2025',
  period_start: '2025-11-01T00:00:00.000Z',
  period_end: '2025-12-01T00:00:00.000Z',
  ...extra,
});

export const voice = (extra: Partial<FeatureUsage> = {}): FeatureUsage => ({
  feature_id: 'f-voice',
  key: 'voice_commands',
  name: 'Voice commands',
  kind: 'boolean',
  period: null,
  unit: null,
  limit: null,
  overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
  pack: null,
  from_packs: 0,
  packs_left: 0,
  over_allowance: 0,
  used: 0,
  remaining: null,
  available: true,
  message: 'Voice commands is included',
  period_start: null,
  period_end: null,
  ...extra,
});

export const activation = (extra: Partial<Activation> = {}): Activation => ({
  activation_id: 'act-1',
  license_id: LICENSE_ID,
  hardware_id: 'hw-work-laptop-9999',
  label: null,
  device_name: 'Work laptop',
  platform: 'Windows',
  app_version: '1.4.0',
  activated_at: '2025-10-01T09:00:00.000Z',
  last_seen_at: '2025-11-20T09:00:00.000Z',
  deactivated_at: null,
  deactivated_reason: null,
  ...extra,
});

/** A license as `GET /licenses/{id}` answers it. */
export const license = (extra: Partial<License> = {}): License => ({
  license_id: LICENSE_ID,
  license_key: LICENSE_KEY,
  user_id: 'user-1',
  plan_id: 'plan-pro',
  plan: { id: 'plan-pro', code: 'pro-monthly', name: 'Pro', billing_interval: 'month' },
  subscription_id: null,
  status: 'active',
  expires_at: '2030-01-15T00:00:00.000Z',
  renews: false,
  paused_until: null,
  updates_until: null,
  update_window_ended: false,
  max_activations: 3,
  activations_used: 1,
  revoked_reason: null,
  revoked_at: null,
  created_at: '2025-10-01T09:00:00.000Z',
  updated_at: '2025-10-01T09:00:00.000Z',
  floating: false,
  organisation: null,
  trial: null,
  usage_info: { features: [chat(), voice()] },
  ...extra,
});

export const basePlan: Plan = withOwnPrice({
  id: 'plan-base',
  code: 'base',
  name: 'Base',
  description: 'Try the assistant on one machine.',
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
  features: [
    {
      feature_id: 'f-chat',
      key: 'ai_chat',
      name: 'AI chat',
      kind: 'metered',
      period: 'month',
      unit: 'messages',
      limit: 100,
      overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
      pack: null,
    },
  ],
  archived_at: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
});

export const proPlan: Plan = withOwnPrice({
  ...basePlan,
  id: 'plan-pro',
  code: 'pro-monthly',
  name: 'Pro',
  price_minor: 1999,
  currency: 'USD',
  billing_interval: 'month',
  max_activations: 3,
});

export const release = (extra: Partial<Release> = {}): Release => ({
  platform: 'linux',
  version: '1.4.0',
  file_name: 'Assistant-1.4.0.AppImage',
  size_bytes: 4,
  sha256: '0'.repeat(64),
  published_at: '2025-11-01T00:00:00.000Z',
  // The server's public URL, not the portal's: the portal fetches the path through its own API base.
  url: 'https://downloads.example.com/api/v1/downloads/signed-token',
  url_expires_at: new Date(Date.now() + 10 * 60_000).toISOString(),
  ...extra,
});

/** A fake API answering the license screens' reads (override any route with `api.on`). */
export async function startLicenseApi(): Promise<FakeApi> {
  const api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [basePlan, proPlan] }));
  api.on('GET /licenses', () => ({ json: [] }));
  api.on('GET /licenses/current-plan', () => ({ json: { plan: null, license: null } }));
  return api;
}

/** Opens `path` signed in as a user whose browser has the id {@link THIS_MACHINE} (and `licenseKey` stored). */
export async function openAsUser(api: FakeApi, path: string, options: { licenseKey?: string } = {}) {
  const services = await servicesFor(api, 'user');
  services.local.setItem(localStorageKeys.hardwareId, THIS_MACHINE);
  if (options.licenseKey) services.local.setItem(localStorageKeys.licenseKey, options.licenseKey);
  return { ...renderApp(services, path), services };
}

/** The body of the only (or `index`th) call of `route`, parsed. */
export function bodyOf(api: FakeApi, route: string, index = 0): Record<string, unknown> {
  const call = api.calls(route)[index];
  if (!call) throw new Error(`${route} was not called (${index})`);
  return JSON.parse(call.body || '{}') as Record<string, unknown>;
}

/** Lazy pages and the session gate take longer than Testing Library's default second under load. */
export const SLOW = { timeout: 10_000 };
