import type { DbOrTransaction } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared-query.js';
import type { UsagePackRow } from '../../platform/db/tables.js';
import type { CounterKey } from './ingest-repository.js';

/** A pack's units still to draw, as a batch sees them under its lock. */
export interface OpenPack {
  id: string;
  featureId: string;
  expiresAt: string;
  left: number;
}

/**
 * Takes the row locks of the license's packs of `featureIds` that have units left and have not
 * ended or expired by `since` (PostgreSQL: until the transaction ends), after the batch's counters
 * are locked; answers them earliest expiry first, so units are drawn in that order. A refund that
 * ends a pack waits for the batch drawing from it, and the other way round.
 */
export async function lockOpenPacks(
  db: DbOrTransaction,
  licenseId: string,
  featureIds: string[],
  since: string,
): Promise<OpenPack[]> {
  if (featureIds.length === 0) return [];
  const rows = await db
    .updateTable('usage_packs')
    .set((eb) => ({ used: eb.ref('used') }))
    .where('license_id', '=', licenseId)
    .where('feature_id', 'in', featureIds)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', since)
    .where((eb) => eb('used', '<', eb.ref('units')))
    .returning(['id', 'feature_id', 'units', 'used', 'expires_at', 'created_at'])
    .execute();
  return rows
    .sort(
      (a, b) =>
        a.expires_at.localeCompare(b.expires_at) ||
        a.created_at.localeCompare(b.created_at) ||
        a.id.localeCompare(b.id),
    )
    .map((row) => ({
      id: row.id,
      featureId: row.feature_id,
      expiresAt: row.expires_at,
      left: Number(row.units) - Number(row.used),
    }));
}

/** Adds what a batch drew to each pack's `used` and each counter's `from_packs`. */
export async function addDraws(
  db: DbOrTransaction,
  licenseId: string,
  perPack: Map<string, number>,
  perCounter: { key: CounterKey; units: number }[],
): Promise<void> {
  for (const [id, units] of perPack)
    await db
      .updateTable('usage_packs')
      .set((eb) => ({ used: eb('used', '+', units) }))
      .where('id', '=', id)
      .execute();
  for (const { key, units } of perCounter)
    await db
      .updateTable('usage_counters')
      .set((eb) => ({ from_packs: eb('from_packs', '+', units) }))
      .where('license_id', '=', licenseId)
      .where('feature_id', '=', key.featureId)
      .where('period_start', '=', key.periodStart)
      .execute();
}

/** Writes a pack; a second pack of the same payment is not written (answers false). */
export async function insertPack(db: DbOrTransaction, pack: UsagePackRow): Promise<boolean> {
  const rows = await db
    .insertInto('usage_packs')
    .values(pack)
    .onConflict((conflict) => conflict.column('payment_id').doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** The pack a payment bought, if any. */
export async function findPackOfPayment(
  db: DbOrTransaction,
  paymentId: string,
): Promise<UsagePackRow | undefined> {
  return db.selectFrom('usage_packs').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
}

/**
 * Ends the units left of the pack a payment bought, waiting for any batch drawing from it; answers
 * the pack as it was ended, or undefined when it had ended already.
 */
export async function endPackOfPayment(
  db: DbOrTransaction,
  paymentId: string,
  at: string,
): Promise<UsagePackRow | undefined> {
  return db
    .updateTable('usage_packs')
    .set({ ended_at: at })
    .where('payment_id', '=', paymentId)
    .where('ended_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Opens again a pack ended for a refund the provider then refused. */
export async function reopenPackOfPayment(db: DbOrTransaction, paymentId: string, at: string): Promise<void> {
  await db
    .updateTable('usage_packs')
    .set({ ended_at: null })
    .where('payment_id', '=', paymentId)
    .where('ended_at', '=', at)
    .execute();
}

/** Units left per `${licenseId}|${featureId}` in packs neither ended nor expired at `now`. */
export async function packsLeft(
  db: DbOrTransaction,
  licenseIds: string[],
  now: string,
): Promise<Map<string, number>> {
  if (licenseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('usage_packs')
    .select((eb) => [
      'license_id',
      'feature_id',
      eb.fn.sum<number | string>(eb('units', '-', eb.ref('used'))).as('left'),
    ])
    .where('license_id', 'in', licenseIds)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .groupBy(['license_id', 'feature_id'])
    .execute();
  return new Map(rows.map((row) => [`${row.license_id}|${row.feature_id}`, Number(row.left)]));
}

const packsLeftQuery = preparedQuery((db, licenseId: string, now: string) =>
  db
    .selectFrom('usage_packs')
    .select((eb) => ['feature_id', eb.fn.sum<number | string>(eb('units', '-', eb.ref('used'))).as('left')])
    .where('license_id', '=', licenseId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .groupBy('feature_id'),
);

/** `packsLeft` of one license, through a statement prepared once (a license check's lease reads it). */
export async function packsLeftOfLicense(
  db: DbOrTransaction,
  licenseId: string,
  now: string,
): Promise<Map<string, number>> {
  const rows = await packsLeftQuery(db, licenseId, now);
  return new Map(rows.map((row) => [`${licenseId}|${row.feature_id}`, Number(row.left)]));
}

/** What is left in each feature's open packs (`packsLeft`'s keys), from the packs already read. */
export function leftInPacks(packs: readonly UsagePackRow[]): Map<string, number> {
  const left = new Map<string, number>();
  for (const pack of packs) {
    const key = `${pack.license_id}|${pack.feature_id}`;
    left.set(key, (left.get(key) ?? 0) + Number(pack.units) - Number(pack.used));
  }
  return left;
}

/** The license's packs neither ended nor expired at `now`, earliest expiry first. */
const openPacksQuery = preparedQuery((db, licenseId: string, now: string) =>
  db
    .selectFrom('usage_packs')
    .selectAll()
    .where('license_id', '=', licenseId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('expires_at')
    .orderBy('created_at'),
);

export const openPacksOfLicense = (
  db: DbOrTransaction,
  licenseId: string,
  now: string,
): Promise<UsagePackRow[]> => openPacksQuery(db, licenseId, now);
