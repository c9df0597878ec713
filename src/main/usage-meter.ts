import { randomUUID } from 'node:crypto';
import type { LeaseSigningKeys } from '../shared/api/licenses.js';
import type { LicenseCheckResult, UsageLeft, UsageReportResult } from '../shared/bridge.js';
import { LEASE_MAX_LIFETIME_SECONDS, type LeaseClaims, verifyLease } from '../shared/lease.js';
import type { LicenseStateFile } from './license-state.js';
import type { createUsageApi } from './usage-api.js';
import type { QueuedEvent, UsageQueue, UsageQueueState } from './usage-queue.js';

export interface UsageMeterOptions {
  queue: UsageQueue;
  api: ReturnType<typeof createUsageApi>;
  state: LicenseStateFile;
  hardwareId: () => string;
  /** The keys leases are verified with (pinned at build time); without them there is no offline use. */
  trustedKeys: LeaseSigningKeys | undefined;
  /** The access token of the user signed in in the app, if any: uploads are made as them. */
  accessToken: () => string | null;
  /** The license check (online, else from the lease): what `left()` reads the server's numbers from. */
  check: () => Promise<LicenseCheckResult>;
  now: () => Date;
  log?: (message: string) => void;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

const queuedOf = (events: QueuedEvent[], feature: string) =>
  events.filter((event) => event.feature === feature).reduce((sum, event) => sum + event.amount, 0);

/** Use under the lease `jti` so far, per feature key (a new lease starts at nothing). */
const leaseUse = (state: UsageQueueState, jti: string) =>
  state.lease_use?.jti === jti ? state.lease_use.used : {};

/** Adds `amount` of `feature` to what the lease `jti` has given. */
const noteLeaseUse = (state: UsageQueueState, jti: string, feature: string, amount: number) => {
  const used = leaseUse(state, jti);
  return { ...state, lease_use: { jti, used: { ...used, [feature]: (used[feature] ?? 0) + amount } } };
};

/**
 * What the server lets a feature use this period, from a check's numbers: null when nothing stops
 * it. Units come from the allowance first, then from credit packs: what packs covered does not
 * count against the ceiling, and what they still hold is left too.
 */
function serverLeft(feature: NonNullable<LicenseCheckResult['features']>[number]): number | null {
  if (feature.limit === null || feature.overage.policy === 'bill') return null;
  const ceiling = feature.limit + (feature.overage.policy === 'cap' ? (feature.overage.cap ?? 0) : 0);
  return Math.max(0, ceiling - (feature.used - feature.from_packs)) + feature.packs_left;
}

/**
 * Metered use on this machine. Each use is an event with its own id and moment, written to the
 * queue before it is sent: online the server counts it and says yes or no; offline (or when no one
 * is signed in to send it as) it stays queued, and is allowed only while what this machine's lease
 * reserved of the feature, less what was used under that lease, covers it. Queued events go up
 * with the next upload, again and again with the same ids until the server answers them.
 */
export function createUsageMeter(options: UsageMeterOptions) {
  const { queue, api, state, trustedKeys, now } = options;
  const log = options.log ?? (() => undefined);

  /** The kept lease, when it verifies here under the pinned keys. */
  async function currentLease(): Promise<LeaseClaims | null> {
    if (!trustedKeys) return null;
    const current = await state.read();
    if (!current.lease) return null;
    const verification = await verifyLease(current.lease.token, {
      keys: trustedKeys,
      hardwareId: options.hardwareId(),
      nowSeconds: seconds(now()),
      lastSeenSeconds: current.last_seen_seconds,
      maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS,
    });
    return verification.ok ? verification.claims : null;
  }

  /** Sends what is queued, as the signed-in user, for the lease's license; nothing without both. */
  async function flush(lease: LeaseClaims | null) {
    const accessToken = options.accessToken();
    if (!accessToken || !lease) return { results: new Map(), stopped: 'no one is signed in to send it as' };
    const outcome = await queue.upload((events) =>
      api.send({ licenseId: lease.sub, hardwareId: options.hardwareId(), accessToken }, events),
    );
    if (outcome.stopped) log(`Usage upload: ${outcome.stopped}; the events stay queued`);
    return outcome;
  }

  /** What the lease leaves of the feature offline: null when nothing limits it; a reason when none. */
  function offlineLeft(
    lease: LeaseClaims | null,
    queued: UsageQueueState,
    feature: string,
  ): { left: number | null; periodEnd: string | null } | { refused: string } {
    if (!lease)
      return { refused: 'Offline, and this machine has no valid offline license; connect to the internet' };
    const reservation = lease.usage?.find((item) => item.key === feature);
    if (!reservation) {
      const included = lease.features.find((item) => item.key === feature);
      if (included?.kind === 'metered' && included.limit === null) return { left: null, periodEnd: null };
      return included
        ? {
            refused: `Offline, and this machine's license holds no offline allowance of ${feature}; connect to the internet`,
          }
        : { refused: `${feature} is not a feature of this license` };
    }
    if (Date.parse(reservation.period_end) <= now().getTime())
      return {
        refused: `The period this machine's offline allowance of ${feature} was for has ended; connect to the internet`,
      };
    const used = leaseUse(queued, lease.jti)[feature] ?? 0;
    return { left: Math.max(0, reservation.reserved - used), periodEnd: reservation.period_end };
  }

  return {
    flush: async () => flush(await currentLease()),

    async report(feature: string, amount: number): Promise<UsageReportResult> {
      const lease = await currentLease();
      const event: QueuedEvent = { id: randomUUID(), feature, amount, occurred_at: now().toISOString() };
      // Written before it is sent: a crash mid-upload leaves it queued, to go again with its id.
      await queue.update((s) => ({ ...s, events: [...s.events, event] }));
      const { results } = await flush(lease);
      const answer = results.get(event.id);
      if (answer) {
        const allowed = answer.outcome !== 'refused';
        if (allowed && lease) await queue.update((s) => noteLeaseUse(s, lease.jti, feature, amount));
        return {
          allowed,
          id: event.id,
          source: 'server',
          message: allowed ? 'Counted' : (answer.message ?? 'The license server refused this use'),
          left: null,
        };
      }
      // No answer: the lease decides, and the event stays queued only if it allows it.
      let decision: UsageReportResult | undefined;
      await queue.update((s) => {
        const left = offlineLeft(lease, s, feature);
        const others = s.events.filter((queued) => queued.id !== event.id);
        if ('refused' in left) {
          decision = {
            allowed: false,
            id: null,
            source: lease ? 'reservation' : 'none',
            message: left.refused,
            left: null,
          };
          return { ...s, events: others };
        }
        if (left.left !== null && left.left < amount) {
          decision = {
            allowed: false,
            id: null,
            source: 'reservation',
            message: `Offline: ${left.left} of this machine's offline allowance of ${feature} left, fewer than the ${amount} asked for; connect to the internet to use more`,
            left: left.left,
          };
          return { ...s, events: others };
        }
        decision = {
          allowed: true,
          id: event.id,
          source: 'reservation',
          message:
            'Offline: allowed from this machine’s offline allowance; it is sent when the app is online',
          left: left.left === null ? null : left.left - amount,
        };
        return lease ? noteLeaseUse(s, lease.jti, feature, amount) : s;
      });
      return decision as UsageReportResult;
    },

    async left(): Promise<UsageLeft> {
      // What waits goes up first when it can, so online the server's numbers already count it.
      await flush(await currentLease()).catch(() => undefined);
      const check = await options.check();
      const queued = await queue.read();
      if (check.valid && !check.offline && check.features) {
        return {
          source: 'server',
          message: 'What the license server counts this period, less what this machine has not sent yet',
          features: check.features
            .filter((feature) => feature.kind === 'metered')
            .map((feature) => {
              const left = serverLeft(feature);
              const waiting = queuedOf(queued.events, feature.key);
              return {
                key: feature.key,
                left: left === null ? null : Math.max(0, left - waiting),
                queued: waiting,
                period_end: feature.period_end,
              };
            }),
        };
      }
      const lease = check.valid ? await currentLease() : null;
      if (!lease) return { source: 'none', message: check.message, features: [] };
      return {
        source: 'reservation',
        message: 'Offline: what this machine’s license reserved for use offline, less what was used under it',
        features: lease.features
          .filter((feature) => feature.kind === 'metered')
          .map((feature) => {
            const left = offlineLeft(lease, queued, feature.key);
            return {
              key: feature.key,
              left: 'refused' in left ? 0 : left.left,
              queued: queuedOf(queued.events, feature.key),
              period_end: 'refused' in left ? null : left.periodEnd,
            };
          }),
      };
    },
  };
}

export type UsageMeter = ReturnType<typeof createUsageMeter>;
