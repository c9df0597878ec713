import { randomUUID } from 'node:crypto';
import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, UsagePackRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import type { LicensingEvents } from '../events.js';
import type { CounterKey } from './ingest-repository.js';
import {
  addDraws,
  endPackOfPayment,
  findPackOfPayment,
  insertPack,
  lockOpenPacks,
  type OpenPack,
  reopenPackOfPayment,
} from './packs-repository.js';

/** How long a credit pack's units may be drawn unless configured otherwise (USAGE_PACK_VALID_MONTHS). */
export const DEFAULT_PACK_VALID_MONTHS = 12;

/** What one event of a batch is, as drawing from packs needs it. */
export interface DrawingEvent extends CounterKey {
  amount: number;
  occurredAt: string;
  /** The feature's allowance per period (null: unlimited, nothing to draw). */
  limit: number | null;
  /** The most the period may count past what packs cover (null: no ceiling). */
  ceiling: number | null;
}

/** What an event drew from each pack. */
export type PackDraw = { packId: string; units: number }[];

const counterOf = (key: CounterKey) => `${key.featureId}|${key.periodStart}`;

/**
 * The license's packs as a batch draws from them, under the counters' locks and the packs' own.
 * Units come from the period's allowance first, then from packs, earliest expiry first (a pack
 * expired when the event happened is skipped), and only then count as overage: the ceiling (the
 * allowance under stop, the allowance and the cap under cap) holds for what packs did not cover.
 */
export interface PackPool {
  /**
   * Draws what `event` needs past the allowance, given its counter's `total` before it and the
   * units other machines `held` of the period for offline use (as good as used); answers what it
   * drew, or undefined when the event would pass the ceiling (nothing is drawn then).
   */
  draw(event: DrawingEvent, total: number, held?: number): PackDraw | undefined;
  /** Writes what the counted events drew: each pack's `used`, each counter's `from_packs`. */
  save(db: DbOrTransaction, counted: { key: CounterKey; draw: PackDraw }[]): Promise<void>;
}

/**
 * Locks and reads the packs of the batch's features (after its counters), for {@link PackPool.draw};
 * `drawnBefore` is what packs already covered of each locked counter (its `from_packs`, by
 * `feature|period`).
 */
export async function openPackPool(
  db: DbOrTransaction,
  licenseId: string,
  events: DrawingEvent[],
  drawnBefore: ReadonlyMap<string, number>,
): Promise<PackPool> {
  const metered = events.filter((event) => event.limit !== null);
  const earliest = metered.reduce<string | undefined>(
    (min, event) => (min === undefined || event.occurredAt < min ? event.occurredAt : min),
    undefined,
  );
  const features = [...new Set(metered.map((event) => event.featureId))].sort();
  const packs: OpenPack[] =
    earliest === undefined ? [] : await lockOpenPacks(db, licenseId, features, earliest);
  // What this batch draws is added to it as it goes.
  const drawn = new Map(drawnBefore);

  return {
    draw(event, total, held = 0) {
      const before = drawn.get(counterOf(event)) ?? 0;
      if (event.limit === null)
        return event.ceiling !== null && total + held + event.amount > event.ceiling ? undefined : [];
      // Counted from the allowance, or as overage: everything packs did not cover; what other
      // machines hold is theirs to use. What they hold past the ceiling was reserved from packs.
      const counted = total - before + held;
      const heldFromPacks = event.ceiling === null ? 0 : Math.max(0, counted - event.ceiling);
      const own = counted - heldFromPacks;
      const past = Math.max(0, event.amount - Math.max(0, event.limit - own));
      const open = packs.filter(
        (pack) => pack.featureId === event.featureId && pack.left > 0 && pack.expiresAt > event.occurredAt,
      );
      const covered = Math.min(
        past,
        Math.max(0, open.reduce((sum, pack) => sum + pack.left, 0) - heldFromPacks),
      );
      if (event.ceiling !== null && own + event.amount - covered > event.ceiling) return undefined;
      const draw: PackDraw = [];
      let needed = covered;
      for (const pack of open) {
        if (needed === 0) break;
        const units = Math.min(needed, pack.left);
        pack.left -= units;
        needed -= units;
        draw.push({ packId: pack.id, units });
      }
      if (covered > 0) drawn.set(counterOf(event), before + covered);
      return draw;
    },

    async save(trx, counted) {
      const perPack = new Map<string, number>();
      const perCounter = new Map<string, { key: CounterKey; units: number }>();
      for (const { key, draw } of counted)
        for (const { packId, units } of draw) {
          perPack.set(packId, (perPack.get(packId) ?? 0) + units);
          const counter = perCounter.get(counterOf(key)) ?? { key, units: 0 };
          perCounter.set(counterOf(key), { key, units: counter.units + units });
        }
      if (perPack.size > 0) await addDraws(trx, licenseId, perPack, [...perCounter.values()]);
    },
  };
}

/** A pack to write: bought with a payment, or granted by an administrator with a reason. */
export type NewPack = {
  license: LicenseRow;
  feature: { id: string; key: string; name: string; unit: string | null };
  units: number;
  /** Months its units may be drawn (USAGE_PACK_VALID_MONTHS unless the grant says otherwise). */
  validMonths: number;
} & ({ source: 'purchase'; paymentId: string } | { source: 'grant'; grantedBy: string; reason: string });

/**
 * Writes a credit pack of the license's feature and announces it (`usage.pack_bought` for a bought
 * one), in the caller's transaction. A payment buys one pack row however often it is settled: a
 * second write of the same payment adds nothing and answers undefined.
 */
export async function addUsagePack(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents | undefined,
  pack: NewPack,
): Promise<UsagePackRow | undefined> {
  const now = clock.now();
  const row: UsagePackRow = {
    id: randomUUID(),
    license_id: pack.license.id,
    feature_id: pack.feature.id,
    units: pack.units,
    used: 0,
    source: pack.source,
    payment_id: pack.source === 'purchase' ? pack.paymentId : null,
    granted_by: pack.source === 'grant' ? pack.grantedBy : null,
    reason: pack.source === 'grant' ? pack.reason : null,
    created_at: now.toISOString(),
    expires_at: utc(now).add(pack.validMonths, 'month').toISOString(),
    ended_at: null,
  };
  if (!(await insertPack(trx, row))) return undefined;
  if (pack.source === 'purchase' && events)
    await events.publish(trx, {
      type: 'usage.pack_bought',
      license: pack.license,
      pack: {
        id: row.id,
        featureId: pack.feature.id,
        featureKey: pack.feature.key,
        units: row.units,
        expiresAt: row.expires_at,
        paymentId: pack.paymentId,
      },
    });
  return row;
}

/** What a refund of a pack's payment may give back: the unused share of what was paid. */
export interface EndedPack {
  units: number;
  used: number;
}

/**
 * Ends what is left of the pack a payment bought, for its refund (in the refund's transaction,
 * waiting for any batch drawing from it): answers its units and how many were used, undefined when
 * the payment bought no pack. A pack used up, or ended already, is refused with 409.
 */
export async function endPackForRefund(
  trx: DbOrTransaction,
  paymentId: string,
  at: string,
): Promise<EndedPack | undefined> {
  const ended = await endPackOfPayment(trx, paymentId, at);
  if (!ended) {
    if (!(await findPackOfPayment(trx, paymentId))) return undefined;
    throw conflict('pack_already_refunded', 'This credit pack was refunded already: nothing is left of it');
  }
  if (Number(ended.used) >= Number(ended.units))
    throw conflict(
      'pack_used_up',
      `All ${ended.units} units of this credit pack are used: there is nothing unused to refund`,
    );
  return { units: Number(ended.units), used: Number(ended.used) };
}

/** Opens again a pack ended for a refund the provider refused (nothing was refunded). */
export const reopenPackAfterFailedRefund = reopenPackOfPayment;
