import type { FingerprintComponents } from '../../../src/shared/fingerprint.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  type ActivationResult,
  activationResultSchema,
  type LicenseCheckStatus,
  licenseRefusalSchema,
  type LicenseRefusal,
} from '../../../src/shared/api/licenses.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import type { LicenseRow, PlanRow } from '../../../src/server/platform/db/tables.js';
import { issueLicense } from '../../../src/server/licensing/licenses/issue.js';
import { STRONG_PASSWORD, type TestServer, uniqueEmail } from '../../support/test-server.js';
import { expectApiError } from './auth-helpers.js';

/** Shared set-up and assertions of the license suites (tests/server/licensing/licenses-*.test.ts). */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** License checks are rate limited per address; the suites send many from one. */
export const licenseSuiteOptions = { env: { LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '100000' } };

export interface Member {
  id: string;
  email: string;
  token: string;
}

/** A verified account created directly (no mail round trip), signed in. */
export async function member(s: TestServer, role: 'user' | 'admin' = 'user'): Promise<Member> {
  const email = uniqueEmail(role);
  const user = await s.app.authService.createAccount({
    email,
    password: STRONG_PASSWORD,
    role,
    verified: true,
  });
  const tokens = await s.login(email, STRONG_PASSWORD);
  return { id: user.id, email, token: tokens.access_token };
}

/** A new access token, for after the clock moved past the old one's expiry. */
export async function signInAgain(s: TestServer, who: Member): Promise<Member> {
  const tokens = await s.login(who.email, STRONG_PASSWORD);
  who.token = tokens.access_token;
  return who;
}

/** A valid-looking hardware id, unique per call. */
export const machine = (label = 'pc') => `hw-${label}-${randomBytes(6).toString('hex')}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A machine's five hashed fingerprint components, as the app sends them, with `changes` made. */
export const componentsOf = (
  label: string,
  changes: Partial<FingerprintComponents> = {},
): FingerprintComponents => ({
  machine_id: sha256(`${label} machine id`),
  cpu: sha256(`${label} cpu`),
  disk: sha256(`${label} disk`),
  board: sha256(`${label} board`),
  os_install: sha256(`${label} os install`),
  ...changes,
});

export const planByCode = (s: TestServer, code: string): Promise<PlanRow> =>
  s.app.db.selectFrom('plans').selectAll().where('code', '=', code).executeTakeFirstOrThrow();

export const featureByKey = (s: TestServer, key: string) =>
  s.app.db.selectFrom('features').selectAll().where('key', '=', key).executeTakeFirstOrThrow();

/** A plan written straight to the catalogue, with metered limits (or null for on/off) per feature key. */
export async function createPlan(
  s: TestServer,
  input: {
    price?: number;
    seats?: number;
    interval?: PlanRow['billing_interval'];
    features?: Record<string, number | null>;
    /** Days of the free trial it offers (0: none). */
    trialDays?: number;
    /** Perpetual with this many months of updates, or (with `renewsUpdatesOf`) the months a renewal adds. */
    updateMonths?: number;
    renewsUpdatesOf?: string;
    /** What happens past a metered feature's allowance, per feature key (stop when left out). */
    overage?: Record<string, Overage>;
    /** The credit pack sold per feature key (none when left out). */
    packs?: Record<string, { units: number; price_minor: number }>;
    /** Floating: seats at once, the lease in minutes, the longest borrow in days (node-locked when left out). */
    floating?: { seats: number; leaseMinutes: number; borrowDays: number };
    /** Machines a license may deactivate in 30 days (3 when left out). */
    deactivationsPer30Days?: number;
    /** Fingerprint components that must match to know a machine again (3 when left out). */
    fingerprintThreshold?: number;
  } = {},
): Promise<PlanRow> {
  const now = s.clock.now().toISOString();
  const code = `test-${randomBytes(4).toString('hex')}`;
  const row: PlanRow = {
    id: randomUUID(),
    code,
    name: `Test plan ${code}`,
    description: 'A plan made by a test',
    price_minor: input.price ?? 0,
    currency: 'INR',
    billing_interval: input.interval ?? 'free',
    max_activations: input.seats ?? 1,
    is_public: 1,
    is_active: 1,
    sort_order: 100,
    archived_at: null,
    seat_based: 0,
    // On sale at once, as the plans tests' own rows are.
    draft: 0,
    trial_days: input.trialDays ?? 0,
    update_months: input.updateMonths ?? null,
    renews_updates_of: input.renewsUpdatesOf ?? null,
    floating_seats: input.floating?.seats ?? null,
    floating_lease_minutes: input.floating?.leaseMinutes ?? null,
    floating_borrow_days: input.floating?.borrowDays ?? null,
    deactivations_per_30_days: input.deactivationsPer30Days ?? 3,
    fingerprint_threshold: input.fingerprintThreshold ?? 3,
    created_at: now,
    updated_at: now,
  };
  await s.app.db.insertInto('plans').values(row).execute();
  for (const [key, limit] of Object.entries(input.features ?? {})) {
    const feature = await featureByKey(s, key);
    await s.app.db
      .insertInto('plan_features')
      .values({
        plan_id: row.id,
        feature_id: feature.id,
        limit_value: limit,
        ...overageColumns(input.overage?.[key]),
        pack_units: input.packs?.[key]?.units ?? null,
        pack_price_minor: input.packs?.[key]?.price_minor ?? null,
      })
      .execute();
  }
  return row;
}

const overageColumns = (overage: Overage | undefined) =>
  overage
    ? {
        overage_policy: overage.policy,
        overage_price_minor: overage.price_minor,
        overage_per_units: overage.per_units,
        overage_cap: overage.cap,
      }
    : {};

/** A license of a plan (by code or row) owned by the user, as a purchase or an admin would issue it. */
export async function giveLicense(
  s: TestServer,
  owner: { id: string },
  plan: string | PlanRow,
  extra: { subscriptionId?: string } = {},
): Promise<LicenseRow> {
  const planRow = typeof plan === 'string' ? await planByCode(s, plan) : plan;
  return issueLicense(s.app.db, s.clock, s.app.events, {
    userId: owner.id,
    plan: planRow,
    subscriptionId: extra.subscriptionId ?? null,
  });
}

export const activate = (
  s: TestServer,
  token: string,
  licenseKey: string,
  hardwareId: string,
  device: {
    device_name?: string;
    platform?: string;
    app_version?: string;
    components?: FingerprintComponents;
  } = {},
) =>
  s.api({
    method: 'POST',
    path: '/licenses/activate',
    token,
    body: { license_key: licenseKey, hardware_id: hardwareId, ...device },
  });

export const activateBase = (s: TestServer, token: string, hardwareId: string) =>
  s.api({ method: 'POST', path: '/licenses/activate-base', token, body: { hardware_id: hardwareId } });

/** A member holding a license of `plan`, activated on one new machine. */
export async function activatedMachine(s: TestServer, plan = 'pro-monthly') {
  const owner = await member(s);
  const license = await giveLicense(s, owner, plan);
  const hw = machine();
  expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
  return { owner, license, hw };
}

/** The desktop's check: POST /licenses/validate (API key only, no sign-in). */
export const validate = (s: TestServer, licenseKey: string, hardwareId: string) =>
  s.api({
    method: 'POST',
    path: '/licenses/validate',
    body: { license_key: licenseKey, hardware_id: hardwareId },
  });

/** The desktop's background check: GET /licensing/status?license_key&hardware_id. */
export const statusOf = (s: TestServer, licenseKey: string, hardwareId: string) =>
  s.api({
    path: `/licensing/status?${new URLSearchParams({ license_key: licenseKey, hardware_id: hardwareId })}`,
  });

export const trackUsage = (s: TestServer, token: string, licenseId: string, body: unknown) =>
  s.api({ method: 'POST', path: `/licenses/${licenseId}/usage`, token, body });

export const deactivate = (s: TestServer, token: string, licenseId: string, hardwareId: string) =>
  s.api({
    method: 'POST',
    path: `/licenses/${licenseId}/deactivate`,
    token,
    body: { hardware_id: hardwareId },
  });

/** Asserts a 200/201 activation and returns it, checked against the shared schema. */
export function expectActivation(response: LightMyRequestResponse, status: 200 | 201): ActivationResult {
  expect(response.statusCode, response.body).toBe(status);
  return activationResultSchema.parse(response.json());
}

/** Asserts a refused license check: the error body plus `valid: false`, the status and what to do. */
export function expectRefusal(
  response: LightMyRequestResponse,
  httpStatus: number,
  code: string,
  status: LicenseCheckStatus,
): LicenseRefusal {
  expectApiError(response, httpStatus, code);
  const body = licenseRefusalSchema.parse(response.json());
  expect(body.valid).toBe(false);
  expect(body.status).toBe(status);
  expect(body.requires_activation).toBe(status === 'not_activated' || status === 'deactivated');
  return body;
}

/** Activations of a license still holding a seat. */
export const activeSeats = (s: TestServer, licenseId: string) =>
  s.app.db
    .selectFrom('activations')
    .selectAll()
    .where('license_id', '=', licenseId)
    .where('deactivated_at', 'is', null)
    .execute();

export const activationRow = (s: TestServer, licenseId: string, hardwareId: string) =>
  s.app.db
    .selectFrom('activations')
    .selectAll()
    .where('license_id', '=', licenseId)
    .where('hardware_id', '=', hardwareId)
    .executeTakeFirst();

export const licenseRow = (s: TestServer, licenseId: string) =>
  s.app.db.selectFrom('licenses').selectAll().where('id', '=', licenseId).executeTakeFirstOrThrow();

/** Every row of the tables a license request may write, to show that a refused one wrote nothing. */
export async function licensingTables(s: TestServer) {
  const [activations, counters, events, licenses] = await Promise.all([
    s.app.db.selectFrom('activations').selectAll().orderBy('id').execute(),
    s.app.db
      .selectFrom('usage_counters')
      .selectAll()
      .orderBy('license_id')
      .orderBy('feature_id')
      .orderBy('period_start')
      .execute(),
    s.app.db.selectFrom('usage_events').selectAll().orderBy('id').execute(),
    s.app.db.selectFrom('licenses').selectAll().orderBy('id').execute(),
  ]);
  return { activations, counters, events, licenses };
}

/** The usage counter and the sum of the usage events of one license and feature. */
export async function usageTotals(s: TestServer, licenseId: string, featureId: string) {
  const counters = await s.app.db
    .selectFrom('usage_counters')
    .select('total')
    .where('license_id', '=', licenseId)
    .where('feature_id', '=', featureId)
    .execute();
  const events = await s.app.db
    .selectFrom('usage_events')
    .select('amount')
    .where('license_id', '=', licenseId)
    .where('feature_id', '=', featureId)
    .execute();
  return {
    counter: counters.reduce((sum, row) => sum + Number(row.total), 0),
    events: events.length,
    eventSum: events.reduce((sum, row) => sum + Number(row.amount), 0),
  };
}

const KEY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The key with one character replaced by another valid one: the check characters must catch it. */
export function mistypedKey(key: string, position = 7): string {
  const original = key[position] as string;
  const replacement = KEY_ALPHABET[(KEY_ALPHABET.indexOf(original) + 1) % KEY_ALPHABET.length] as string;
  return `${key.slice(0, position)}${replacement}${key.slice(position + 1)}`;
}

/** Milliseconds from the clock's now to one hour into the next calendar month (UTC). */
export function untilNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1);
  return next - now.getTime();
}
