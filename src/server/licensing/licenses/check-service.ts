import type { FeatureUsage, LicenseCheckRequest, LicenseStatusAnswer } from '../../../shared/api/licenses.js';
import type { SeatHolder } from '../../../shared/api/organisations.js';
import { normalizeLicenseKey } from '../../../shared/license-key.js';
import type { Clock } from '../../platform/clock.js';
import type { ActivationRow } from '../../platform/db/tables.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { type CheckAnswers, type KeptAnswer, stateDigest } from './check-answers.js';
import type { HeldFloatingSeat, LicenseCheckReads, LicenseCheckRow } from './check-repository.js';
import { type Heartbeats, WRITE_AT_ONCE_AFTER_MS } from './heartbeats.js';
import { leaseFor } from './lease.js';
import { type CachedPlan, currentPeriodStart, type PlanCatalogueCache } from '../../catalogue/index.js';
import { inactiveLicense, invalidKey, unknownKey } from './refusals.js';
import { featureUsages, longDateFormat, type PackTotals } from '../usage/feature-usage.js';
import { counterKey, type UsageTotals } from '../usage/counters-repository.js';
import { type CoveredVersionsLookup, noReleases, type WindowAnswer, windowAnswer } from './update-windows.js';
import { effectiveStatus } from './views.js';
import { type CheckedComponents, componentsDiffer } from './fingerprints.js';
import { admitMachine } from './machine-admission.js';
import { dayCount, trialAt } from '../../../shared/trial-days.js';

export interface LicenseChecksDeps {
  clock: Clock;
  leases: LeaseSigner;
  planCatalogue: PlanCatalogueCache;
  reads: LicenseCheckReads;
  heartbeats: Heartbeats;
  answers: CheckAnswers;
  /** Share of a lease's lifetime (0–1) after which a kept answer is signed anew. */
  leaseReuseShare: number;
  /** The versions a perpetual license's ended update window covers (distribution's, at composition). */
  coveredVersions?: CoveredVersionsLookup;
  /**
   * Writes the components a check saw of a recognised machine when they differ from its stored
   * ones (rare: a part replaced, an OS reinstalled); without it they wait for the next activation.
   */
  checkedComponents?: CheckedComponents;
}

const DAY_MS = 86_400_000;

/** The starts of today's and this month's usage periods (UTC), worked out once a day. */
function createPeriodStarts() {
  let today = -1;
  let starts = { day: '', month: '' };
  return (now: Date) => {
    const day = Math.floor(now.getTime() / DAY_MS);
    if (day !== today) {
      starts = { day: currentPeriodStart('day', now), month: currentPeriodStart('month', now) };
      today = day;
    }
    return starts;
  };
}

/** Units left per feature in the license's packs not expired at `now`. */
function packsLeftAt(row: LicenseCheckRow, now: Date): Map<string, number> {
  const left = new Map<string, number>();
  const at = now.toISOString();
  for (const [featureId, units, expiresAt] of row.packs)
    if (expiresAt > at) left.set(featureId, (left.get(featureId) ?? 0) + units);
  return left;
}

/**
 * This period's usage (and what packs hold) as one text, equal for equal usage whatever order the
 * rows came in. A counter still at zero reads as none: the first lease's reservation creates this
 * period's counters, and the machine's next check must still find its answer kept.
 */
const usageKeyOf = (row: LicenseCheckRow, packsLeft: Map<string, number>): string => {
  const used = row.usage.filter(([, , total, fromPacks]) => total !== 0 || fromPacks !== 0);
  if (used.length === 0 && packsLeft.size === 0) return '';
  const cells = used.map((cell) => cell.join(':'));
  for (const [featureId, units] of packsLeft) cells.push(`${featureId}:packs:${units}`);
  return cells.sort().join(' ');
};

/** Feature blocks kept at most: one per plan, day and distinct usage in use, so a few hundred suffice. */
const MAX_FEATURE_BLOCKS = 1_000;

/** A plan's features as a check answers them for one day and usage, with their JSON made once. */
interface FeatureBlock {
  features: FeatureUsage[];
  /** In memory of its own: a small Buffer is a slice of a shared 8 KB slab, which it would keep. */
  bytes: Buffer;
}

const ownBytes = (text: string): Buffer => {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
};

/** A valid answer's fields before its features, and after them, in the order they are written. */
type AnswerHead = Pick<
  LicenseStatusAnswer,
  'valid' | 'status' | 'message' | 'requires_activation' | 'license_id' | 'plan' | 'expires_at'
>;
type AnswerTail = Omit<LicenseStatusAnswer, keyof AnswerHead | 'features'>;

/**
 * The answer's bytes: the kept text with the features block put back, which is what
 * `JSON.stringify` makes of head, features and tail as one object.
 */
function answerBytes(kept: KeptAnswer, block: FeatureBlock): Buffer {
  const { text, featuresAt } = kept;
  const body = Buffer.allocUnsafe(text.length + block.bytes.length);
  body.write(text, 0, featuresAt, 'latin1');
  block.bytes.copy(body, featuresAt);
  body.write(text.slice(featuresAt), featuresAt + block.bytes.length, 'latin1');
  return body;
}

/** An answer as sent, with the lease inside it (which a check's signed nonce names). */
interface SentAnswer {
  body: Buffer;
  lease: string;
}

/** Whose seat the machine is on, on an organisation's license: the member who activated it. */
const seatOf = (row: LicenseCheckRow, activation: ActivationRow): SeatHolder | null =>
  row.organisation_id === null || activation.activated_by === null
    ? null
    : {
        organisation_id: row.organisation_id,
        organisation_name: row.organisation_name ?? '',
        user_id: activation.activated_by,
      };

/** Everything a valid answer is made of but the check's time: equal states give equal answers. */
function stateOf(
  row: LicenseCheckRow,
  activation: ActivationRow,
  presentedHardwareId: string,
  catalogue: CachedPlan,
  keyId: string,
  periods: { day: string; month: string },
  usage: string,
  now: Date,
  window: WindowAnswer | undefined,
): string {
  return JSON.stringify([
    row.license_key,
    row.plan_id,
    row.expires_at,
    // Any write to the license (a suspension lifted, a plan changed back) gets a fresh lease.
    row.updated_at,
    activation.id,
    presentedHardwareId,
    // The seat the answer and its lease name: a renamed organisation, or the machine on another
    // member's seat, gets a fresh lease.
    row.organisation_id,
    row.organisation_name,
    activation.activated_by,
    // A trial's days left change at its own hour of the day, not at midnight.
    trialAt(row.trial_ends_at, now)?.days_left,
    catalogue.fingerprint,
    keyId,
    periods.day,
    periods.month,
    usage,
    // A perpetual license's window: ended since, a release published, another version of the app.
    window?.fields,
    window?.message,
  ]);
}

/**
 * License checks from machines (`/licenses/validate`, `/licensing/status`), the hot path of every
 * desktop. One read per check; the answer, with its signed lease, is kept per license and machine
 * as the bytes sent, and sent again while nothing it was made from has changed and the lease is
 * fresh. The machine's check-in is noted in memory and written with the next batch of heartbeats.
 */
export function createLicenseChecksService(deps: LicenseChecksDeps) {
  const { clock, leases, planCatalogue, reads, heartbeats, answers, leaseReuseShare } = deps;
  const coveredVersions = deps.coveredVersions ?? noReleases;
  const periodStarts = createPeriodStarts();
  // The features block depends only on the plan, the day and the usage: every license of a plan
  // with the same usage today (most often none) shares one, built once.
  const featureBlocks = new Map<string, FeatureBlock>();

  function featuresFor(
    row: LicenseCheckRow,
    catalogue: CachedPlan,
    now: Date,
    day: string,
    usage: string,
    packsLeft: Map<string, number>,
  ): FeatureBlock {
    const key = `${catalogue.fingerprint} ${day} ${usage}`;
    let block = featureBlocks.get(key);
    if (!block) {
      const totals: UsageTotals = new Map(
        row.usage.map(([featureId, periodStart, total]) => [
          counterKey(row.id, featureId, periodStart),
          total,
        ]),
      );
      // Units come from the allowance first, then from packs: what the answer says is left counts them.
      const packs: PackTotals = {
        draws: new Map(
          row.usage.map(([featureId, periodStart, , fromPacks]) => [
            counterKey(row.id, featureId, periodStart),
            fromPacks,
          ]),
        ),
        left: new Map([...packsLeft].map(([featureId, units]) => [`${row.id}|${featureId}`, units])),
      };
      const features = featureUsages(row.id, catalogue.features, totals, now, true, packs);
      block = { features, bytes: ownBytes(JSON.stringify(features)) };
      if (featureBlocks.size >= MAX_FEATURE_BLOCKS) featureBlocks.clear();
      featureBlocks.set(key, block);
    }
    return block;
  }

  /**
   * The kept answer with the check's nonce echoed and signed beside it: one signature, spliced into
   * the kept bytes, and nothing written (the app remembers the nonce it sent).
   */
  function withNonce(answer: SentAnswer, licenseId: string, hardwareId: string, nonce: string): Buffer {
    const check = leases.signCheck({ nonce, licenseId, hardwareId, lease: answer.lease });
    const tail = Buffer.from(`,"nonce":${JSON.stringify(nonce)},"check":${JSON.stringify(check)}}`);
    return Buffer.concat([answer.body.subarray(0, answer.body.length - 1), tail]);
  }

  /**
   * A new answer: a lease signed for the machine, with its offline allowance reserved, and the
   * answer around it as it is kept (everything but the features block).
   */
  async function keptAnswerFor(
    row: LicenseCheckRow,
    activation: ActivationRow,
    presentedHardwareId: string,
    catalogue: CachedPlan,
    now: Date,
    digest: string,
    block: FeatureBlock,
    window: WindowAnswer | undefined,
  ): Promise<KeptAnswer> {
    const seat = seatOf(row, activation);
    const trial = trialAt(row.trial_ends_at, now);
    // Bound to the id the machine presents: a cloned machine's row is kept under another.
    const signed = await leaseFor(
      leases,
      row,
      presentedHardwareId,
      { plan: catalogue.plan, usage_info: { features: block.features }, trial },
      seat,
      activation.id,
    );
    const head: AnswerHead = {
      valid: true,
      status: 'active',
      message: window?.fields.update_window_ended
        ? window.message
        : trial
          ? `Free trial: ${dayCount(trial.days_left)} left`
          : 'License is valid',
      requires_activation: false,
      license_id: row.id,
      plan: catalogue.plan,
      expires_at: row.expires_at,
    };
    const tail: AnswerTail = {
      activation_id: activation.id,
      seat,
      trial,
      lease: signed.lease,
      lease_expires_at: signed.expiresAt,
      ...window?.fields,
    };
    // Both sides always have fields (`valid`, `activation_id`), so the features fit between them.
    const before = Buffer.from(`${JSON.stringify(head).slice(0, -1)},"features":`);
    const text = Buffer.concat([before, Buffer.from(`,${JSON.stringify(tail).slice(1)}`)]).toString('latin1');
    const signedAtMs = now.getTime();
    const lifetimeMs = Date.parse(signed.expiresAt) - signedAtMs;
    return {
      stateDigest: digest,
      text,
      featuresAt: before.length,
      // The lease is ASCII and unique (its id and signature), so its characters are its bytes.
      leaseAt: text.indexOf(signed.lease, before.length),
      leaseLength: signed.lease.length,
      renewAtMs: signedAtMs + lifetimeMs * leaseReuseShare,
    };
  }

  /**
   * The answer to a machine holding a floating seat: valid while the seat is held, with a lease
   * that lasts no longer than the seat (so the app's offline fallback ends with it) and no offline
   * usage allowance (a seat's machine has no activation to reserve for). Made afresh each time, as
   * every heartbeat moves the seat's end; nothing is written (the seat's heartbeats keep it).
   */
  async function floatingAnswerFor(
    row: LicenseCheckRow,
    seat: HeldFloatingSeat,
    catalogue: CachedPlan,
    now: Date,
    appVersion: string | undefined,
    day: string,
  ): Promise<SentAnswer> {
    const packsLeft = packsLeftAt(row, now);
    const { features } = featuresFor(row, catalogue, now, day, usageKeyOf(row, packsLeft), packsLeft);
    const window =
      row.updates_until === null
        ? undefined
        : await windowAnswer(row.updates_until, appVersion, now, coveredVersions);
    const trial = trialAt(row.trial_ends_at, now);
    const lifetimeSeconds = Math.max(1, Math.floor((Date.parse(seat.holds_until) - now.getTime()) / 1000));
    const signed = await leases.sign({
      licenseId: row.id,
      licenseKey: row.license_key,
      hardwareId: seat.hardware_id,
      plan: { id: catalogue.plan.id, code: catalogue.plan.code, name: catalogue.plan.name },
      features: features.map(({ key, kind, limit }) => ({ key, kind, limit })),
      licenseExpiresAt: row.expires_at,
      trial: trial ? { ends_at: trial.ends_at, days_left: trial.days_left } : null,
      updatesUntil: row.updates_until,
      floating: { seatId: seat.id, borrowedUntil: seat.borrowed_until, lifetimeSeconds },
    });
    const answer: LicenseStatusAnswer = {
      valid: true,
      status: 'active',
      message: window?.fields.update_window_ended
        ? window.message
        : seat.borrowed_until
          ? `Floating seat borrowed for offline use until ${longDateFormat.format(new Date(seat.borrowed_until))}`
          : 'License is valid on a floating seat',
      requires_activation: false,
      license_id: row.id,
      plan: catalogue.plan,
      expires_at: row.expires_at,
      features,
      activation_id: null,
      floating_seat: { seat_id: seat.id, held_until: seat.holds_until, borrowed_until: seat.borrowed_until },
      // A member's machine on the organisation's pool: the answer names the organisation and them.
      seat:
        row.floating_member_id && row.organisation_id && row.organisation_name
          ? {
              organisation_id: row.organisation_id,
              organisation_name: row.organisation_name,
              user_id: row.floating_member_id,
            }
          : null,
      trial,
      lease: signed.lease,
      lease_expires_at: signed.expiresAt,
      ...window?.fields,
    };
    return { body: Buffer.from(JSON.stringify(answer)), lease: signed.lease };
  }

  return {
    /** Answers a license check from a machine (JSON, as bytes), and notes the machine's check-in. */
    async validate(body: LicenseCheckRequest): Promise<Buffer> {
      const key = normalizeLicenseKey(body.license_key);
      if (!key) throw invalidKey();
      const now = clock.now();
      const periods = periodStarts(now);
      const row = await reads.read(key, body.hardware_id, periods.day, periods.month);
      if (!row) throw unknownKey();
      const status = effectiveStatus(row, now);
      if (status !== 'active') throw inactiveLicense(row, status);
      const catalogue = await planCatalogue.get(row.plan_id);
      const admitted = await admitMachine(reads, row, body, catalogue.fingerprintThreshold, now);
      if (admitted.kind === 'floating') {
        const answer = await floatingAnswerFor(
          row,
          admitted.seat,
          catalogue,
          now,
          body.app_version,
          periods.day,
        );
        return body.nonce ? withNonce(answer, row.id, body.hardware_id, body.nonce) : answer.body;
      }
      const { activation } = admitted;

      // Components changed within the plan's tolerance are the machine's now: kept, and the
      // change in its history, before it is answered.
      if (body.components && deps.checkedComponents && componentsDiffer(activation, body.components))
        await deps.checkedComponents(
          activation,
          { hardware_id: body.hardware_id, components: body.components },
          catalogue.fingerprintThreshold,
        );
      const seenAt = now.toISOString();
      // A machine back after a long absence is written at once, so seat reclaim on any instance
      // sees it; every other check-in goes with the next batch.
      if (now.getTime() - Date.parse(activation.last_seen_at) > WRITE_AT_ONCE_AFTER_MS)
        await heartbeats.recordNow(activation.id, seenAt);
      else heartbeats.record(activation.id, seenAt);
      const packsLeft = packsLeftAt(row, now);
      const usage = usageKeyOf(row, packsLeft);
      const window =
        row.updates_until === null
          ? undefined
          : await windowAnswer(row.updates_until, body.app_version, now, coveredVersions);
      const digest = stateDigest(
        stateOf(
          row,
          activation,
          body.hardware_id,
          catalogue,
          leases.activeKeyId,
          periods,
          usage,
          now,
          window,
        ),
      );
      const block = featuresFor(row, catalogue, now, periods.day, usage, packsLeft);
      let kept = answers.get(row.id, activation.hardware_id, digest, now.getTime());
      if (!kept) {
        kept = await keptAnswerFor(row, activation, body.hardware_id, catalogue, now, digest, block, window);
        answers.set(row.id, activation.hardware_id, kept, now.getTime());
      }
      const sent = answerBytes(kept, block);
      if (!body.nonce) return sent;
      const lease = kept.text.slice(kept.leaseAt, kept.leaseAt + kept.leaseLength);
      return withNonce({ body: sent, lease }, row.id, body.hardware_id, body.nonce);
    },
  };
}

export type LicenseChecksService = ReturnType<typeof createLicenseChecksService>;
