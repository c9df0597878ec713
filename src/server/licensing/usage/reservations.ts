import type { LeaseUsage } from '../../../shared/lease.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isRetryableConflict } from '../../platform/db/errors.js';
import { badRequest, notFound } from '../../platform/http-error.js';
import { currentPeriodStart, periodEnd } from '../../catalogue/index.js';
import type { ReservableFeature, UsageReserver } from '../leases/lease-signer.js';
import { usageCeiling } from './allowance.js';
import { type CounterKey, lockCounter } from './ingest-repository.js';
import type { UsageEventRow } from './ingest-repository.js';
import { packsLeftOfLicense } from './packs-repository.js';
import { reserveTogether } from './reservation-batches.js';
import {
  drawDown,
  findActiveMachine,
  holdUnits,
  releaseMachine,
  unitsHeldByOthers,
} from './reservations-repository.js';

/** The share of a feature's allowance a lease reserves, in percent, unless configured. */
export const DEFAULT_RESERVATION_PERCENT = 10;

/**
 * The most one lease reserves of a feature: `percent` of its allowance, rounded down, but at least
 * one unit, so a small allowance still lets an offline app do something; none at 0 %, which turns
 * offline allowances off.
 */
export const reservationShare = (limit: number, percent: number) =>
  percent <= 0 ? 0 : Math.max(1, Math.floor((limit * percent) / 100));

const counterId = (key: CounterKey) => `${key.featureId}|${key.periodStart}`;

/** PostgreSQL may end one of two transactions that wait on each other; the other is tried again. */
const ATTEMPTS = 3;

/**
 * What other machines hold of each counter when `activationId` reports (every machine's when it
 * names none: a reporter that is no machine cannot use what machines hold). Read after the
 * counters are locked: a reservation is written only under its counter's lock, so none slips in.
 */
export const heldByOthers = (
  db: DbOrTransaction,
  licenseId: string,
  activationId: string | null,
  keys: CounterKey[],
  at: string,
) => unitsHeldByOthers(db, licenseId, activationId, keys, at);

/**
 * Draws the reporting machine's reservations down by what it counted of use made since they were
 * taken: that use is in the counters now, so holding it as well would take it twice from others.
 * Called under the counters' locks, as every write of a reservation is.
 */
export async function drawDownReservations(
  db: DbOrTransaction,
  activationId: string | null | undefined,
  counted: UsageEventRow[],
): Promise<void> {
  if (!activationId || counted.length === 0) return;
  const byCounter = new Map<string, { key: CounterKey; uses: { amount: number; occurredAt: string }[] }>();
  for (const event of counted) {
    const key = { featureId: event.featureId, periodStart: event.periodStart };
    const entry = byCounter.get(counterId(key)) ?? { key, uses: [] };
    entry.uses.push({ amount: event.amount, occurredAt: event.occurredAt });
    byCounter.set(counterId(key), entry);
  }
  for (const { key, uses } of byCounter.values()) await drawDown(db, activationId, key, uses);
}

/** The activation a batch says it comes from: a machine of this license still activated. */
export async function reportingMachine(db: Db, licenseId: string, machine: string): Promise<string> {
  if (machine.trim() === '')
    throw badRequest('machine_invalid', 'machine must name a machine of the license');
  const found = await findActiveMachine(db, licenseId, machine);
  if (!found)
    throw notFound(
      'machine_not_found',
      `No activated machine ${machine} on this license; activate it, or send the batch without machine`,
    );
  return found.id;
}

async function reserveOnce(
  trx: DbOrTransaction,
  percent: number,
  now: Date,
  request: Parameters<UsageReserver>[0],
  features: (ReservableFeature & { limit: number; period: NonNullable<ReservableFeature['period']> })[],
): Promise<LeaseUsage[]> {
  // A license check knows its machine; other callers name it by its hardware id.
  const machine = request.activationId
    ? { id: request.activationId }
    : await findActiveMachine(trx, request.licenseId, request.hardwareId);
  if (!machine) return [];
  const nowIso = now.toISOString();
  const items = features
    .map((feature) => ({
      feature,
      key: { featureId: feature.feature_id, periodStart: currentPeriodStart(feature.period, now) },
    }))
    .sort((a, b) => counterId(a.key).localeCompare(counterId(b.key)));
  // Counters first, in the order every counting takes them: counting and reserving never interleave.
  const used = new Map<string, number>();
  const drawn = new Map<string, number>();
  for (const { key } of items) {
    const locked = await lockCounter(trx, request.licenseId, key);
    used.set(counterId(key), locked.total);
    drawn.set(counterId(key), locked.fromPacks);
  }
  // What the previous lease held is freed: its use was reported and counted, the rest is free again.
  await releaseMachine(trx, machine.id);
  const held = await heldByOthers(
    trx,
    request.licenseId,
    machine.id,
    items.map((item) => item.key),
    nowIso,
  );
  // Units come from the allowance first, then from packs: what packs hold is left too.
  const inPacks = await packsLeftOfLicense(trx, request.licenseId, nowIso);
  const answers = new Map<string, LeaseUsage>();
  for (const { feature, key } of items) {
    const ceiling = usageCeiling(feature.limit, feature.overage);
    // What the ceiling counts: use packs did not cover, and what other machines hold.
    const taken =
      (used.get(counterId(key)) ?? 0) - (drawn.get(counterId(key)) ?? 0) + (held.get(counterId(key)) ?? 0);
    const packs = inPacks.get(`${request.licenseId}|${feature.feature_id}`) ?? 0;
    // Under bill nothing stops, so the share is taken whole: what it goes past is billed later.
    const left = ceiling === null ? Infinity : Math.max(0, ceiling - taken + packs);
    const units = Math.min(left, reservationShare(feature.limit, percent));
    const end = periodEnd(feature.period, key.periodStart);
    if (units > 0)
      await holdUnits(trx, {
        licenseId: request.licenseId,
        activationId: machine.id,
        featureId: feature.feature_id,
        periodStart: key.periodStart,
        units,
        takenAt: nowIso,
        expiresAt: end < request.expiresAt ? end : request.expiresAt,
      });
    answers.set(feature.feature_id, {
      key: feature.key,
      period_start: key.periodStart,
      period_end: end,
      reserved: units,
    });
  }
  return features.flatMap((feature) => answers.get(feature.feature_id) ?? []);
}

/** The license's metered features with an allowance: what a lease reserves. */
const reservableOf = (request: Parameters<UsageReserver>[0]) =>
  request.features.flatMap((feature) =>
    feature.kind === 'metered' && feature.period && feature.limit !== null
      ? [{ ...feature, limit: feature.limit, period: feature.period }]
      : [],
  );

/**
 * The offline allowance leases carry. Each lease of a machine takes, per metered feature with an
 * allowance, up to `percent` of the allowance from what is left this period (the allowance, or
 * under cap the allowance and the cap, less what is used and what other machines hold, and the
 * units left in the license's credit packs), in place
 * of what its previous lease held. A feature with nothing left is reserved 0 units; the lease is
 * signed all the same. On SQLite (`together`) the reservations of checks that arrive together are
 * written in one transaction (see reservation-batches.ts).
 */
export function createUsageReservations({
  db,
  clock,
  percent = DEFAULT_RESERVATION_PERCENT,
  together = false,
}: {
  db: Db;
  clock: Clock;
  percent?: number;
  together?: boolean;
}): UsageReserver {
  const inBatches = reserveTogether(db, (trx, request) =>
    reserveOnce(trx, percent, clock.now(), request, reservableOf(request)),
  );
  return async (request) => {
    const features = reservableOf(request);
    if (features.length === 0) return [];
    if (together) return inBatches(request);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db
          .transaction()
          .execute((trx) => reserveOnce(trx, percent, clock.now(), request, features));
      } catch (error) {
        if (attempt >= ATTEMPTS || !isRetryableConflict(error)) throw error;
      }
    }
  };
}
