import { randomUUID, webcrypto } from 'node:crypto';
import { BASE_PLAN_CODE } from '../../../shared/api/plans.js';
import { generateLicenseKey } from '../../../shared/license-key.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { LicenseRow, PlanRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import { findOfferedPlanByCode } from '../../catalogue/index.js';
import type { LicensingEvents } from '../events.js';
import { expiryAfterInterval } from './periods.js';
import { findBaseLicense, insertLicense } from './repository.js';
import { updatesUntilFor } from './update-windows.js';

export interface IssueLicenseInput {
  userId: string;
  plan: PlanRow;
  subscriptionId?: string | null;
  /** Set on the free Base license only, so each user has at most one. */
  baseOwnerId?: string | null;
  metadata?: Record<string, unknown> | null;
  /** An administrator's choice instead of the plan's interval (null: never expires). */
  expiresAt?: string | null;
  /** An administrator's choice instead of the plan's seat limit. */
  maxActivations?: number;
  /** An organisation's license of a seat-based plan, with the named seats bought. */
  organisation?: { id: string; seats: number };
  /** A free trial's end: the license is a trial until then (its expiry too), or until bought. */
  trialEndsAt?: string;
}

/** Creates a license of a plan with a fresh key (used by plan activation, payments and admins). */
export async function issueLicense(
  db: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  input: IssueLicenseInput,
): Promise<LicenseRow> {
  const now = clock.now();
  const row: LicenseRow = {
    id: randomUUID(),
    license_key: generateLicenseKey((bytes) => webcrypto.getRandomValues(bytes)),
    user_id: input.userId,
    plan_id: input.plan.id,
    subscription_id: input.subscriptionId ?? null,
    status: 'active',
    expires_at:
      input.expiresAt === undefined ? expiryAfterInterval(input.plan.billing_interval, now) : input.expiresAt,
    max_activations: input.maxActivations ?? input.plan.max_activations,
    base_owner_id: input.baseOwnerId ?? null,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    revoked_reason: null,
    revoked_at: null,
    suspended_reason: null,
    organisation_id: input.organisation?.id ?? null,
    seats: input.organisation?.seats ?? null,
    trial_ends_at: input.trialEndsAt ?? null,
    updates_until: updatesUntilFor(input.plan, now),
    paused_until: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await insertLicense(db, row);
  await events.publish(db, { type: 'license.created', license: row });
  return row;
}

/** The user's one free Base license, issued on first use. */
export async function ensureBaseLicense(
  db: Db,
  clock: Clock,
  events: LicensingEvents,
  userId: string,
): Promise<{ row: LicenseRow; created: boolean }> {
  const existing = await findBaseLicense(db, userId);
  if (existing) return { row: existing, created: false };
  const plan = await findOfferedPlanByCode(db, BASE_PLAN_CODE);
  if (!plan) throw conflict('base_plan_unavailable', 'The free Base plan is not available at the moment');
  try {
    const row = await issueLicense(db, clock, events, { userId, plan, baseOwnerId: userId });
    return { row, created: true };
  } catch (error) {
    // A second request of the same user won the race: theirs is the one Base license.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findBaseLicense(db, userId);
    if (!winner) throw error;
    return { row: winner, created: false };
  }
}
