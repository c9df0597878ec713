import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import type { LicenseTrialRow } from '../../platform/db/tables-trials.js';

export const insertTrial = async (db: DbOrTransaction, row: LicenseTrialRow): Promise<void> => {
  await db.insertInto('license_trials').values(row).execute();
};

/** Earlier trials of the plan by this account, this person or this machine, earliest first. */
export const earlierTrials = (
  db: DbOrTransaction,
  who: { userId: string; personHash: string; hardwareId: string | null; planId: string },
): Promise<LicenseTrialRow[]> =>
  db
    .selectFrom('license_trials')
    .selectAll()
    .where('plan_id', '=', who.planId)
    .where((eb) =>
      eb.or([
        eb('user_id', '=', who.userId),
        eb('person_hash', '=', who.personHash),
        ...(who.hardwareId === null ? [] : [eb('hardware_id', '=', who.hardwareId)]),
      ]),
    )
    .orderBy('started_at')
    .execute();

/** The trials of these licenses, by license id. */
export async function trialsOfLicenses(
  db: DbOrTransaction,
  licenseIds: string[],
): Promise<Map<string, LicenseTrialRow>> {
  if (licenseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('license_trials')
    .selectAll()
    .where('license_id', 'in', licenseIds)
    .execute();
  return new Map(rows.map((row) => [row.license_id, row]));
}

/**
 * Ends the trial of the user's personal license of the plan, if one is still a trial (running or
 * ended unpaid, not revoked): it becomes the paid license with the given expiry. Only the first of
 * two payments at once converts it; the other finds no trial.
 */
export async function convertTrialLicense(
  trx: DbOrTransaction,
  who: { userId: string; planId: string },
  changes: {
    expires_at: string | null;
    subscription_id: string | null;
    /** A perpetual plan's window, counted from the purchase, not from the trial's start. */
    updates_until: string | null;
    at: string;
  },
): Promise<LicenseRow | undefined> {
  const trial = await trx
    .selectFrom('licenses')
    .select('id')
    .where('user_id', '=', who.userId)
    .where('plan_id', '=', who.planId)
    .where('organisation_id', 'is', null)
    .where('status', '=', 'active')
    .where('trial_ends_at', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!trial) return undefined;
  const converted = await trx
    .updateTable('licenses')
    .set({
      trial_ends_at: null,
      expires_at: changes.expires_at,
      subscription_id: changes.subscription_id,
      updates_until: changes.updates_until,
      updated_at: changes.at,
    })
    .where('id', '=', trial.id)
    .where('trial_ends_at', 'is not', null)
    .returningAll()
    .executeTakeFirst();
  if (converted)
    await trx
      .updateTable('license_trials')
      .set({ converted_at: changes.at })
      .where('license_id', '=', converted.id)
      .execute();
  return converted;
}

/** Moves a trial's end (the license's expiry with it), for an administrator's extension or ending. */
export async function setTrialEnd(
  trx: DbOrTransaction,
  licenseId: string,
  endsAt: string,
  at: string,
): Promise<LicenseRow | undefined> {
  const license = await trx
    .updateTable('licenses')
    .set({ trial_ends_at: endsAt, expires_at: endsAt, updated_at: at })
    .where('id', '=', licenseId)
    .where('trial_ends_at', 'is not', null)
    .returningAll()
    .executeTakeFirst();
  if (license)
    await trx
      .updateTable('license_trials')
      .set({ ends_at: endsAt })
      .where('license_id', '=', licenseId)
      .execute();
  return license;
}

/**
 * Trial licenses still trials whose end lies in (from, to], earliest first, with their owner and
 * plan: the reminders' and the expiry's work.
 */
export const trialsEndingBetween = (db: DbOrTransaction, from: string, to: string, limit: number) =>
  db
    .selectFrom('licenses')
    .innerJoin('users', 'users.id', 'licenses.user_id')
    .innerJoin('plans', 'plans.id', 'licenses.plan_id')
    .select([
      'licenses.id',
      'licenses.license_key',
      'licenses.trial_ends_at',
      'licenses.subscription_id',
      'users.id as user_id',
      'users.email',
      'users.full_name',
      'users.preferences',
      'plans.name as plan_name',
      'plans.id as plan_id',
    ])
    .where('licenses.status', '=', 'active')
    .where('licenses.trial_ends_at', '>', from)
    .where('licenses.trial_ends_at', '<=', to)
    .orderBy('licenses.trial_ends_at')
    .limit(limit)
    .execute();
