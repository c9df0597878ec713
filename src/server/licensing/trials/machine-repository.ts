import { sql } from 'kysely';
import type { DbOrTransaction, DialectName } from '../../platform/db/database.js';
import type { LicenseTrialRow, MachineTrialRow } from '../../platform/db/tables-trials.js';

export const insertMachineTrial = async (db: DbOrTransaction, row: MachineTrialRow): Promise<void> => {
  await db.insertInto('machine_trials').values(row).execute();
};

/** The machine's trial of the plan, if it ever had one. */
export const findMachineTrial = (
  db: DbOrTransaction,
  hardwareId: string,
  planId: string,
): Promise<MachineTrialRow | undefined> =>
  db
    .selectFrom('machine_trials')
    .selectAll()
    .where('hardware_id', '=', hardwareId)
    .where('plan_id', '=', planId)
    .executeTakeFirst();

/** The earliest account trial of the plan started on this machine, if any. */
export const accountTrialOnMachine = (
  db: DbOrTransaction,
  hardwareId: string,
  planId: string,
): Promise<LicenseTrialRow | undefined> =>
  db
    .selectFrom('license_trials')
    .selectAll()
    .where('hardware_id', '=', hardwareId)
    .where('plan_id', '=', planId)
    .orderBy('started_at')
    .executeTakeFirst();

/**
 * Hands the machine trial to a license; false when another license took it first (the update
 * only takes a trial nobody has claimed, so of two claims at once one wins).
 */
export async function claimMachineTrial(
  trx: DbOrTransaction,
  id: string,
  licenseId: string,
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('machine_trials')
    .set({ claimed_license_id: licenseId, claimed_at: at })
    .where('id', '=', id)
    .where('claimed_license_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * A paid license activated on a machine claims the machine's trials nobody claimed, of any plan:
 * the machine is paid for now. A trial license, or a free plan's, claims nothing. Answers the
 * trials claimed.
 */
export async function claimMachineTrialsForPaidLicense(
  trx: DbOrTransaction,
  licenseId: string,
  hardwareId: string,
  at: string,
): Promise<number> {
  const paid = await trx
    .selectFrom('licenses')
    .innerJoin('plans', 'plans.id', 'licenses.plan_id')
    .select('licenses.id')
    .where('licenses.id', '=', licenseId)
    .where('licenses.trial_ends_at', 'is', null)
    .where('plans.billing_interval', '!=', 'free')
    .executeTakeFirst();
  if (!paid) return 0;
  const result = await trx
    .updateTable('machine_trials')
    .set({ claimed_license_id: licenseId, claimed_at: at })
    .where('hardware_id', '=', hardwareId)
    .where('claimed_license_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Holds a machine's trials for the rest of the transaction, so an account trial and a machine
 * trial of one machine started at once, on any number of servers, run one after the other and the
 * second sees the first. PostgreSQL: an advisory lock on the hardware id's hash. SQLite needs none:
 * its one writer at a time does the same once the transaction has written.
 */
export async function lockMachineTrials(
  trx: DbOrTransaction,
  dialect: DialectName,
  hardwareId: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${`machine-trial:${hardwareId}`}, 0))`.execute(trx);
}
