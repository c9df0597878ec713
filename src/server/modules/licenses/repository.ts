import type { DbOrTransaction } from '../../db/database.js';
import type { ActivationRow, LicenseRow } from '../../db/tables.js';

export const findLicenseById = (db: DbOrTransaction, id: string): Promise<LicenseRow | undefined> =>
  db.selectFrom('licenses').selectAll().where('id', '=', id).executeTakeFirst();

export const findLicenseByKey = (db: DbOrTransaction, key: string): Promise<LicenseRow | undefined> =>
  db.selectFrom('licenses').selectAll().where('license_key', '=', key).executeTakeFirst();

/** The user's own license: another user's id reads as not found, never as forbidden. */
export const findOwnLicense = (
  db: DbOrTransaction,
  userId: string,
  id: string,
): Promise<LicenseRow | undefined> =>
  db.selectFrom('licenses').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export const licensesOfUser = (db: DbOrTransaction, userId: string): Promise<LicenseRow[]> =>
  db
    .selectFrom('licenses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();

export const findActivation = (
  db: DbOrTransaction,
  licenseId: string,
  hardwareId: string,
): Promise<ActivationRow | undefined> =>
  db
    .selectFrom('activations')
    .selectAll()
    .where('license_id', '=', licenseId)
    .where('hardware_id', '=', hardwareId)
    .executeTakeFirst();

/** Whether the user holds a machine's record on the license, its seat taken or freed. */
export async function hasActivatedOn(
  db: DbOrTransaction,
  licenseId: string,
  userId: string,
): Promise<boolean> {
  const found = await db
    .selectFrom('activations')
    .select('id')
    .where('license_id', '=', licenseId)
    .where('activated_by', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

export const activationsOfLicense = (db: DbOrTransaction, licenseId: string): Promise<ActivationRow[]> =>
  db
    .selectFrom('activations')
    .selectAll()
    .where('license_id', '=', licenseId)
    .orderBy('deactivated_at', 'desc')
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .execute();

/** Seats in use per license: activations not deactivated. */
export async function seatsInUse(db: DbOrTransaction, licenseIds: string[]): Promise<Map<string, number>> {
  if (licenseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('activations')
    .select(['license_id', (eb) => eb.fn.countAll<number | string>().as('used')])
    .where('license_id', 'in', licenseIds)
    .where('deactivated_at', 'is', null)
    .groupBy('license_id')
    .execute();
  return new Map(rows.map((row) => [row.license_id, Number(row.used)]));
}
