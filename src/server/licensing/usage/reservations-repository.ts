import type { DbOrTransaction } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared-query.js';
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

/** What machines hold of each of the license's counters at `at`, less `exceptActivationId`'s. */
const heldByOthersQuery = preparedQuery((db, licenseId: string, at: string, exceptActivationId: string) =>
  db
    .selectFrom('usage_reservations')
    .innerJoin('activations', 'activations.id', 'usage_reservations.activation_id')
    .select(['usage_reservations.feature_id', 'usage_reservations.period_start'])
    .select((eb) =>
      eb.fn
        .sum<number | string>(eb('usage_reservations.units', '-', eb.ref('usage_reservations.used')))
        .as('units'),
    )
    .where('usage_reservations.license_id', '=', licenseId)
    .where('usage_reservations.expires_at', '>', at)
    .where('activations.deactivated_at', 'is', null)
    .where('usage_reservations.activation_id', '!=', exceptActivationId)
    .groupBy(['usage_reservations.feature_id', 'usage_reservations.period_start']),
);

/**
 * Units of each counter that machines other than `activationId` (all of them when null) hold at
 * `at`: a reservation stops holding when it expires or its machine is deactivated. A license has
 * a few metered features, so all its counters are read and those asked for kept: one statement
 * prepared once, whatever the keys.
 */
export async function unitsHeldByOthers(
  db: DbOrTransaction,
  licenseId: string,
  activationId: string | null,
  keys: CounterKey[],
  at: string,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const asked = new Set(keys.map((key) => `${key.featureId}|${key.periodStart}`));
  // No activation's id is empty: with none to leave out, every machine's holding counts.
  const rows = await heldByOthersQuery(db, licenseId, at, activationId ?? '');
  const held = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.feature_id}|${row.period_start}`;
    if (asked.has(key)) held.set(key, Number(row.units));
  }
  return held;
}

const releaseQuery = preparedQuery((db, activationId: string) =>
  db.deleteFrom('usage_reservations').where('activation_id', '=', activationId),
);

/** Frees every reservation of the machine: its next lease takes new ones. */
export async function releaseMachine(db: DbOrTransaction, activationId: string): Promise<void> {
  await releaseQuery(db, activationId);
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

const holdQuery = preparedQuery(
  (
    db,
    licenseId: string,
    activationId: string,
    featureId: string,
    periodStart: string,
    units: number,
    takenAt: string,
    expiresAt: string,
  ) =>
    db
      .insertInto('usage_reservations')
      .values({
        license_id: licenseId,
        activation_id: activationId,
        feature_id: featureId,
        period_start: periodStart,
        units,
        used: 0,
        taken_at: takenAt,
        expires_at: expiresAt,
      })
      .onConflict((conflict) =>
        conflict.columns(['license_id', 'activation_id', 'feature_id']).doUpdateSet((eb) => ({
          period_start: eb.ref('excluded.period_start'),
          units: eb.ref('excluded.units'),
          used: eb.ref('excluded.used'),
          taken_at: eb.ref('excluded.taken_at'),
          expires_at: eb.ref('excluded.expires_at'),
        })),
      ),
);

/** Writes the machine's reservation of a feature, in place of any it held. */
export async function holdUnits(db: DbOrTransaction, row: ReservationRow): Promise<void> {
  await holdQuery(
    db,
    row.licenseId,
    row.activationId,
    row.featureId,
    row.periodStart,
    row.units,
    row.takenAt,
    row.expiresAt,
  );
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
