import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isRetryableConflict } from '../../platform/db/errors.js';
import {
  addToCounter,
  addToDailyRollups,
  type CounterKey,
  findCountedEvents,
  insertEvents,
  lockCounter,
  type UsageEventRow,
} from './ingest-repository.js';
import { openMemberLedger, type ReportingMember } from './member-caps.js';
import { openPackPool, type PackDraw } from './packs.js';
import { drawDownReservations, heldByOthers } from './reservations.js';

export type EventOutcome =
  { outcome: 'counted' } | { outcome: 'duplicate' } | { outcome: 'refused'; code: string; message: string };

/** An event to count, with the most its feature's period may count (null: no ceiling). */
export interface EventToCount extends UsageEventRow {
  /** The feature's allowance per period (null: unlimited). */
  limit: number | null;
  ceiling: number | null;
  /** Whether the ceiling is the allowance (stop) or the allowance and a cap past it. */
  ceilingKind: 'allowance' | 'cap';
  featureName: string;
}

/** A counter that passed a share of its allowance with this batch: 80 % or all of it. */
export interface AllowanceCrossing {
  featureId: string;
  periodStart: string;
  threshold: 'warning' | 'reached';
  used: number;
  limit: number;
}

/** The share of the allowance that warns, as a fraction: 80 %. */
const WARNING_NUMERATOR = 4;
const WARNING_DENOMINATOR = 5;

/** What passing from `before` to `after` crosses of `limit`: all of it, else 80 %, else nothing. */
function crossingOf(
  before: number,
  after: number,
  limit: number | null,
): AllowanceCrossing['threshold'] | undefined {
  if (limit === null || limit <= 0) return undefined;
  if (before < limit && after >= limit) return 'reached';
  const warnsAt = (value: number) => value * WARNING_DENOMINATOR >= limit * WARNING_NUMERATOR;
  if (!warnsAt(before) && warnsAt(after)) return 'warning';
  return undefined;
}

/** A batch of one license's events, and the machine (its activation) that reported it, if any. */
export interface CountInput {
  licenseId: string;
  userId: string;
  receivedAt: string;
  events: EventToCount[];
  machineId?: string | null;
  /** The organisation's member who reported, whose own cap counts too; none for the AI backend. */
  member?: ReportingMember | undefined;
}

/** PostgreSQL may end one of two batches that wait on each other (ids shared across features). */
const ATTEMPTS = 3;

/** Ends a transaction that counted nothing, carrying the outcomes out of it. */
class NothingCounted extends Error {
  constructor(readonly outcomes: EventOutcome[]) {
    super('no usage event was counted');
  }
}

const counterId = (key: CounterKey) => `${key.featureId}|${key.periodStart}`;
const keyOf = (event: CounterKey): CounterKey => ({
  featureId: event.featureId,
  periodStart: event.periodStart,
});

function reusedId(event: EventToCount, earlier: { featureId: string; amount: number }): EventOutcome {
  if (earlier.featureId === event.featureId && earlier.amount === event.amount)
    return { outcome: 'duplicate' };
  return {
    outcome: 'refused',
    code: 'event_id_reused',
    message: `Event ${event.eventId} was already counted with another amount or feature; an event id counts once`,
  };
}

function overCeiling(event: EventToCount): EventOutcome {
  return event.ceilingKind === 'cap'
    ? {
        outcome: 'refused',
        code: 'overage_cap_reached',
        message: `${event.featureName}: this period's allowance and the use allowed past it are used up`,
      }
    : {
        outcome: 'refused',
        code: 'allowance_used',
        message: `${event.featureName}: this period's allowance is used up`,
      };
}

/** A batch of one license's events; `member` when an organisation's member reports on its license. */
async function countOnce(
  db: DbOrTransaction,
  input: CountInput,
): Promise<{ outcomes: EventOutcome[]; crossings: AllowanceCrossing[] }> {
  const { events } = input;
  // Every caller locks a license's counters in one order: no two batches wait in a circle.
  const keys = [...new Map(events.map((event) => [counterId(event), keyOf(event)])).values()].sort((a, b) =>
    counterId(a).localeCompare(counterId(b)),
  );
  const totals = new Map<string, number>();
  const drawn = new Map<string, number>();
  for (const key of keys) {
    const locked = await lockCounter(db, input.licenseId, key);
    totals.set(counterId(key), locked.total);
    drawn.set(counterId(key), locked.fromPacks);
  }
  const before = new Map(totals);
  // Units other machines hold for offline use are not this reporter's to count.
  const held = await heldByOthers(db, input.licenseId, input.machineId ?? null, keys, input.receivedAt);
  // The member's own counters after the license's: one lock order for every batch.
  const member = input.member && (await openMemberLedger(db, input.licenseId, input.member, keys));
  // Past the allowance, units are drawn from the license's credit packs before any is overage.
  const packs = await openPackPool(db, input.licenseId, events, drawn);

  const counted = await findCountedEvents(db, input.licenseId, [
    ...new Set(events.map((event) => event.eventId)),
  ]);
  const outcomes: EventOutcome[] = [];
  const accepted: { index: number; event: EventToCount; draw: PackDraw }[] = [];
  /** Index of the first event of each id in this batch; later ones repeat it. */
  const firstOf = new Map<string, number>();
  const repeats: { index: number; first: number }[] = [];
  for (const [index, event] of events.entries()) {
    const earlier = counted.get(event.eventId);
    if (earlier) {
      outcomes[index] = reusedId(event, earlier);
      continue;
    }
    const first = firstOf.get(event.eventId);
    if (first !== undefined) {
      repeats.push({ index, first });
      continue;
    }
    firstOf.set(event.eventId, index);
    const total = totals.get(counterId(event)) ?? 0;
    const overMemberCap = member?.refusal(event);
    if (overMemberCap) {
      outcomes[index] = overMemberCap;
      continue;
    }
    // What other machines hold counts as used of the allowance: past it, packs and the ceiling decide.
    const draw = packs.draw(event, total, held.get(counterId(event)) ?? 0);
    if (!draw) {
      outcomes[index] = overCeiling(event);
      continue;
    }
    member?.take(event);
    totals.set(counterId(event), total + event.amount);
    accepted.push({ index, event, draw });
  }

  const written = await insertEvents(db, { ...input, events: accepted.map(({ event }) => event) });
  // Another batch wrote these ids a moment ago (under another feature's lock): theirs count.
  const lost = accepted.filter(({ event }) => !written.has(event.eventId));
  const theirs = await findCountedEvents(
    db,
    input.licenseId,
    lost.map(({ event }) => event.eventId),
  );
  const added = new Map<string, { key: CounterKey; amount: number; limit: number | null }>();
  const daily = new Map<string, { featureId: string; day: string; amount: number }>();
  for (const { index, event } of accepted) {
    if (!written.has(event.eventId)) {
      const earlier = theirs.get(event.eventId);
      outcomes[index] = earlier ? reusedId(event, earlier) : { outcome: 'duplicate' };
      continue;
    }
    outcomes[index] = { outcome: 'counted' };
    const counter = added.get(counterId(event)) ?? { key: keyOf(event), amount: 0, limit: event.limit };
    added.set(counterId(event), { ...counter, amount: counter.amount + event.amount });
    const dayKey = `${event.featureId}|${event.day}`;
    const day = daily.get(dayKey) ?? { featureId: event.featureId, day: event.day, amount: 0 };
    daily.set(dayKey, { ...day, amount: day.amount + event.amount });
  }
  // A repeated id in one batch: a duplicate of its first when that one counted, else its refusal.
  for (const { index, first } of repeats) {
    const outcome = outcomes[first];
    outcomes[index] =
      outcome?.outcome === 'refused' && outcome.code !== 'event_id_reused'
        ? outcome
        : reusedId(events[index]!, { featureId: events[first]!.featureId, amount: events[first]!.amount });
  }
  const crossings: AllowanceCrossing[] = [];
  for (const { key, amount, limit } of added.values()) {
    await addToCounter(db, input.licenseId, key, amount);
    await member?.add(key, amount);
    const from = before.get(counterId(key)) ?? 0;
    const threshold = crossingOf(from, from + amount, limit);
    if (threshold && limit !== null) crossings.push({ ...key, threshold, used: from + amount, limit });
  }
  await addToDailyRollups(db, input.licenseId, [...daily.values()]);
  const countedEvents = accepted.filter(({ event }) => written.has(event.eventId));
  await packs.save(
    db,
    countedEvents.map(({ event, draw }) => ({ key: keyOf(event), draw })),
  );
  await drawDownReservations(
    db,
    input.machineId,
    countedEvents.map(({ event }) => event),
  );
  return { outcomes, crossings };
}

/**
 * Counts a batch of one license's usage events in one transaction: each event id once (a retried
 * batch reads as duplicates; the same id with another amount or feature is refused, never quietly
 * dropped), each event in the period it happened, and none past its feature's ceiling. Answers
 * each event's outcome, in the batch's order; `announce` hears the allowances it crossed.
 */
export async function countUsageEvents(
  db: Db,
  input: CountInput,
  announce?: (trx: DbOrTransaction, crossings: AllowanceCrossing[]) => Promise<void>,
): Promise<EventOutcome[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(async (trx) => {
        const { outcomes, crossings } = await countOnce(trx, input);
        // Nothing counted: roll back, so not even a period's empty counter row is left behind.
        if (!outcomes.some((outcome) => outcome.outcome === 'counted')) throw new NothingCounted(outcomes);
        // Told in the counting's transaction: the notice commits with the use that crossed, or neither.
        if (announce && crossings.length > 0) await announce(trx, crossings);
        return outcomes;
      });
    } catch (error) {
      if (error instanceof NothingCounted) return error.outcomes;
      if (attempt >= ATTEMPTS || !isRetryableConflict(error)) throw error;
    }
  }
}
