import { randomUUID } from 'node:crypto';
import type { FeatureUsage } from '../../../shared/api/licenses.js';
import type { PlanFeature } from '../../../shared/api/plans.js';
import {
  MAX_USAGE_EVENT_AGE_DAYS,
  USAGE_CLOCK_SKEW_SECONDS,
  type UsageBatchResponse,
  type UsageEvent,
  type UsageEventResult,
} from '../../../shared/api/usage.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import { currentPeriodStart, featuresOfPlans, periodEnd } from '../../catalogue/index.js';
import { takeNotice } from '../../platform/scheduled-notices.js';
import type { LicensingEvents } from '../events.js';
import { usageCeiling } from './allowance.js';
import {
  type AllowanceCrossing,
  countUsageEvents,
  type EventOutcome,
  type EventToCount,
} from './count-events.js';
import { currentCounters } from './counters-repository.js';
import { featureUsages } from './feature-usage.js';
import { reportingMember } from './member-usage.js';
import { packsLeftOfLicense } from './packs-repository.js';

const DAY_MS = 86_400_000;

/** What counting usage needs: the plans' features may come from the catalogue's short-lived cache. */
export interface UsageDeps {
  db: Db;
  clock: Clock;
  /** A plan's features; the catalogue's cache in the server (an admin's edit shows within seconds). */
  planFeatures?: ((planId: string) => Promise<PlanFeature[]>) | undefined;
  /** The currency a plan is priced in, for reads of a license's use; the same cache in the server. */
  planCurrency?: ((planId: string) => Promise<string>) | undefined;
  /** Where an allowance's 80 % and 100 % are announced (its webhooks, the owner's mail). */
  events?: LicensingEvents | undefined;
}

/**
 * Announces each allowance a batch crossed, once per license, feature, period and share however
 * many batches cross it at once, on however many servers (the notice is taken in the transaction).
 */
function allowanceAnnouncer(deps: UsageDeps, license: LicenseRow, features: PlanFeature[]) {
  return async (trx: DbOrTransaction, crossings: AllowanceCrossing[]) => {
    if (!deps.events) return;
    for (const crossing of crossings) {
      const feature = features.find((each) => each.feature_id === crossing.featureId);
      if (!feature?.period) continue;
      const taken = await takeNotice(trx, {
        subjectId: license.id,
        kind: `usage_${crossing.threshold}:${crossing.featureId}`,
        occasion: crossing.periodStart,
        at: deps.clock.now().toISOString(),
      });
      if (!taken) continue;
      await deps.events.publish(trx, {
        type: crossing.threshold === 'reached' ? 'usage.allowance_reached' : 'usage.allowance_warning',
        license,
        allowance: {
          featureId: feature.feature_id,
          featureKey: feature.key,
          featureName: feature.name,
          unit: feature.unit,
          period: feature.period,
          periodStart: crossing.periodStart,
          periodEnd: periodEnd(feature.period, crossing.periodStart),
          used: crossing.used,
          limit: crossing.limit,
          overage: feature.overage,
        },
      });
    }
  };
}

/** An event as the reporter sent it, with what only the server's own callers add. */
export interface ReportedEvent extends UsageEvent {
  /** JSON text of the event's details (the single-event call's `usageData`). */
  data?: string;
}

type Prepared = { event: EventToCount } | { refused: EventOutcome & { outcome: 'refused' } };

const refused = (code: string, message: string): Prepared => ({
  refused: { outcome: 'refused', code, message },
});

/** The plan's feature an event names, by id or key. */
function featureNamed(features: PlanFeature[], name: string): PlanFeature | undefined {
  return features.find((feature) => feature.feature_id === name || feature.key === name);
}

/** Works out where an event counts, or why it cannot: a feature the plan meters, a moment in bounds. */
function prepare(event: ReportedEvent, features: PlanFeature[], now: Date): Prepared {
  const feature = featureNamed(features, event.feature);
  if (!feature)
    return refused('feature_not_included', `${event.feature} is not a feature of this license’s plan`);
  if (feature.kind !== 'metered' || !feature.period)
    return refused(
      'feature_not_metered',
      `${feature.name} is an on/off feature; only metered features count usage`,
    );
  const occurred = event.occurred_at ? new Date(event.occurred_at) : now;
  if (occurred.getTime() > now.getTime() + USAGE_CLOCK_SKEW_SECONDS * 1000)
    return refused('event_in_future', `Event ${event.id} is dated in the future (${occurred.toISOString()})`);
  if (occurred.getTime() < now.getTime() - MAX_USAGE_EVENT_AGE_DAYS * DAY_MS)
    return refused(
      'event_too_old',
      `Event ${event.id} is older than ${MAX_USAGE_EVENT_AGE_DAYS} days; usage is counted for that long`,
    );
  const occurredAt = occurred.toISOString();
  return {
    event: {
      eventId: event.id,
      featureId: feature.feature_id,
      featureName: feature.name,
      periodStart: currentPeriodStart(feature.period, occurred),
      day: occurredAt.slice(0, 10),
      amount: event.amount,
      occurredAt,
      data: event.data ?? '{}',
      limit: feature.limit,
      ceiling: usageCeiling(feature.limit, feature.overage),
      ceilingKind: feature.overage.policy === 'cap' ? 'cap' : 'allowance',
    },
  };
}

const resultOf = (id: string, outcome: EventOutcome): UsageEventResult =>
  outcome.outcome === 'refused'
    ? { id, outcome: 'refused', code: outcome.code, message: outcome.message }
    : { id, outcome: outcome.outcome };

/** How a batch is counted and answered; each defaults to the desktop's batch. */
export interface ReportOptions {
  /** Answer the features the batch named as they stand after it (true). */
  features?: boolean;
  /** Count the reporter's own use within their caps on an organisation's license (true). */
  member?: boolean;
  /** The machine (activation) that reported, whose offline reservation it may use (none). */
  machineId?: string | null;
}

/**
 * Counts a batch of usage events of an active license reported by `userId` (the holder or an
 * organisation's member): every event gets its outcome, and (unless `features` is false) the
 * features it named are answered as they stand after it. On an organisation's license the
 * reporter's own use counts too, within the caps set on them, unless `member` is false (the
 * vendor's backend, which reports for the license as a whole).
 */
export async function reportUsage(
  deps: UsageDeps,
  license: LicenseRow,
  userId: string,
  events: ReportedEvent[],
  { features: answerFeatures = true, member = true, machineId = null }: ReportOptions = {},
): Promise<UsageBatchResponse> {
  const now = deps.clock.now();
  const features = deps.planFeatures
    ? await deps.planFeatures(license.plan_id)
    : ((await featuresOfPlans(deps.db, [license.plan_id])).get(license.plan_id) ?? []);
  const prepared = events.map((event) => prepare(event, features, now));
  const toCount = prepared.flatMap((item) => ('event' in item ? [item.event] : []));
  const counted = toCount.length
    ? await countUsageEvents(
        deps.db,
        {
          licenseId: license.id,
          userId,
          receivedAt: now.toISOString(),
          events: toCount,
          machineId,
          member: member ? await reportingMember(deps.db, license, userId) : undefined,
        },
        allowanceAnnouncer(deps, license, features),
      )
    : [];
  let next = 0;
  const results = prepared.map((item, index) =>
    resultOf(events[index]!.id, 'event' in item ? counted[next++]! : item.refused),
  );
  const named = new Set(toCount.map((event) => event.featureId));
  let current: FeatureUsage[] = [];
  if (answerFeatures) {
    const [counters, left] = await Promise.all([
      currentCounters(deps.db, [license.id], now),
      packsLeftOfLicense(deps.db, license.id, now.toISOString()),
    ]);
    current = featureUsages(
      license.id,
      features.filter((feature) => named.has(feature.feature_id)),
      counters.totals,
      now,
      true,
      { draws: counters.draws, left },
    );
  }
  return {
    license_id: license.id,
    counted: results.filter((result) => result.outcome === 'counted').length,
    duplicates: results.filter((result) => result.outcome === 'duplicate').length,
    refused: results.filter((result) => result.outcome === 'refused').length,
    results,
    features: current,
  };
}

/** A one-off event of the single-event call, which has no id of its own. */
export const singleEvent = (
  feature: string,
  amount: number,
  data: Record<string, unknown>,
): ReportedEvent => ({
  id: randomUUID(),
  feature,
  amount,
  data: JSON.stringify(data),
});
