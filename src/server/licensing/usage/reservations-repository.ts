import type { DbOrTransaction } from '../../platform/db/database.js';
import type { CounterKey } from './ingest-repository.js';

/** A machine of the license still activated, named by its activation id or its hardware id. */
export async function findActiveMachine(
  db: DbOrTransaction,
  licenseId: string,
  machine: string,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('activations')
    .select('id')
    .where('license_id', '=', licenseId)
    .where('deactivated_at', 'is', null)
    .where((eb) => eb.or([eb('id', '=', machine), eb('hardware_id', '=', machine)]))
    .orderBy('id')
    .executeTakeFirst();
}

/**
 * Units of each counter that machines other than `activationId` (all of them when null) hold at
 * `at`: a reservation stops holding when it expires or its machine is deactivated.
 */
export async function unitsHeldByOthers(
  db: DbOrTransaction,
  licenseId: string,
  activationId: string | null,
  keys: CounterKey[],
  at: string,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  let query = db
    .selectFrom('usage_reservations')
    .innerJoin('activations', 'activations.id', 'usage_reservations.activation_id')
    .select(['usage_reservations.feature_id', 'usage_reservations.period_start'])
    .select((eb) =>
      eb.fn
        .sum<number | string>(eb('usage_reservations.units', '-', eb.ref('usage_reservations.used')))
        .as('units'),
    )
    .where('usage_reservations.license_id', '=', licenseId)
    .where('usage_reservations.feature_id', 'in', [...new Set(keys.map((key) => key.featureId))])
    .where('usage_reservations.expires_at', '>', at)
    .where('activations.deactivated_at', 'is', null);
  if (activationId !== null) query = query.where('usage_reservations.activation_id', '!=', activationId);
  const rows = await query
    .groupBy(['usage_reservations.feature_id', 'usage_reservations.period_start'])
    .execute();
  return new Map(rows.map((row) => [`${row.feature_id}|${row.period_start}`, Number(row.units)]));
}

/** Frees every reservation of the machine: its next lease takes new ones. */
export async function releaseMachine(db: DbOrTransaction, activationId: string): Promise<void> {
  await db.deleteFrom('usage_reservations').where('activation_id', '=', activationId).execute();
}

export interface ReservationRow {
  licenseId: string;
  activationId: string;
  featureId: string;
  periodStart: string;
  units: number;
  takenAt: string;
  expiresAt: string;
}

/** Writes the machine's reservation of a feature, in place of any it held. */
export async function holdUnits(db: DbOrTransaction, row: ReservationRow): Promise<void> {
  const values = {
    period_start: row.periodStart,
    units: row.units,
    used: 0,
    taken_at: row.takenAt,
    expires_at: row.expiresAt,
  };
  await db
    .insertInto('usage_reservations')
    .values({
      license_id: row.licenseId,
      activation_id: row.activationId,
      feature_id: row.featureId,
      ...values,
    })
    .onConflict((conflict) =>
      conflict.columns(['license_id', 'activation_id', 'feature_id']).doUpdateSet(values),
    )
    .execute();
}

/** The machine's reservations as they stand (the tests and the admin read them). */
export const reservationsOfMachine = (db: DbOrTransaction, activationId: string) =>
  db
    .selectFrom('usage_reservations')
    .selectAll()
    .where('activation_id', '=', activationId)
    .orderBy('feature_id')
    .execute();

/**
 * Counts `amount` of the machine's use of a feature in a period against its reservation, when the
 * use happened since it was taken (older use never drew on it), never past its units.
 */
export async function drawDown(
  db: DbOrTransaction,
  activationId: string,
  key: CounterKey,
  uses: { amount: number; occurredAt: string }[],
): Promise<void> {
  const row = await db
    .selectFrom('usage_reservations')
    .select(['units', 'used', 'taken_at'])
    .where('activation_id', '=', activationId)
    .where('feature_id', '=', key.featureId)
    .where('period_start', '=', key.periodStart)
    .executeTakeFirst();
  if (!row) return;
  const amount = uses
    .filter((use) => use.occurredAt >= row.taken_at)
    .reduce((sum, use) => sum + use.amount, 0);
  if (amount === 0 || Number(row.used) >= Number(row.units)) return;
  await db
    .updateTable('usage_reservations')
    .set({ used: Math.min(Number(row.units), Number(row.used) + amount) })
    .where('activation_id', '=', activationId)
    .where('feature_id', '=', key.featureId)
    .execute();
}
