import type { DbOrTransaction } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared-query.js';
import type {
  ActivationRow,
  ActivationInsert,
  ActivationUpdate,
  DeactivationReason,
  LicenseRow,
  LicenseUpdate,
} from '../../platform/db/tables.js';

const licenseById = preparedQuery((db, id: string) =>
  db.selectFrom('licenses').selectAll().where('id', '=', id),
);

/** Read on every usage read and by the AI backend's calls: prepared once (prepared-query.ts). */
export const findLicenseById = async (db: DbOrTransaction, id: string): Promise<LicenseRow | undefined> =>
  (await licenseById(db, id))[0];

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

/** The organisation's name, or undefined when there is no such organisation. */
export async function findOrganisationName(
  db: DbOrTransaction,
  organisationId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('organisations')
    .select('name')
    .where('id', '=', organisationId)
    .executeTakeFirst();
  return row?.name;
}

/** The organisation's name; throws when there is no such organisation. */
export async function getOrganisationName(db: DbOrTransaction, organisationId: string): Promise<string> {
  const row = await db
    .selectFrom('organisations')
    .select('name')
    .where('id', '=', organisationId)
    .executeTakeFirstOrThrow();
  return row.name;
}

/** The names of organisations by id, for the licenses they provide. */
export async function organisationNames(
  db: DbOrTransaction,
  organisationIds: string[],
): Promise<Map<string, string>> {
  if (organisationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('organisations')
    .select(['id', 'name'])
    .where('id', 'in', organisationIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * The licenses of the organisations where the user holds a seat without owning the license (its
 * owner has it among their own), not revoked.
 */
export const seatLicensesOfUser = (db: DbOrTransaction, userId: string): Promise<LicenseRow[]> =>
  db
    .selectFrom('licenses')
    .innerJoin('organisation_members as m', 'm.organisation_id', 'licenses.organisation_id')
    .selectAll('licenses')
    .where('m.user_id', '=', userId)
    .where('m.seat_assigned_at', 'is not', null)
    .where('licenses.user_id', '!=', userId)
    .where('licenses.status', '!=', 'revoked')
    .orderBy('licenses.created_at', 'desc')
    .orderBy('licenses.id')
    .execute();

/** A license of an organisation where the user holds a seat, by id; anything else reads as not found. */
export const findSeatLicense = (
  db: DbOrTransaction,
  userId: string,
  id: string,
): Promise<LicenseRow | undefined> =>
  db
    .selectFrom('licenses')
    .innerJoin('organisation_members as m', 'm.organisation_id', 'licenses.organisation_id')
    .selectAll('licenses')
    .where('licenses.id', '=', id)
    .where('m.user_id', '=', userId)
    .where('m.seat_assigned_at', 'is not', null)
    .executeTakeFirst();

export async function insertLicense(db: DbOrTransaction, row: LicenseRow): Promise<void> {
  await db.insertInto('licenses').values(row).execute();
}

/** The user's one free Base license, if it was issued. */
export const findBaseLicense = (db: DbOrTransaction, userId: string): Promise<LicenseRow | undefined> =>
  db.selectFrom('licenses').selectAll().where('base_owner_id', '=', userId).executeTakeFirst();

/** The user's licenses of a plan whose row says active (not yet checked against the expiry), latest expiry first. */
export const activePaidLicensesOfPlan = (
  db: DbOrTransaction,
  userId: string,
  planId: string,
): Promise<LicenseRow[]> =>
  db
    .selectFrom('licenses')
    .selectAll()
    .where('user_id', '=', userId)
    .where('plan_id', '=', planId)
    .where('status', '=', 'active')
    .where('base_owner_id', 'is', null)
    .orderBy('expires_at', 'desc')
    .orderBy('id')
    .execute();

/** Whether any license refers to the plan. */
export async function planHasLicenses(db: DbOrTransaction, planId: string): Promise<boolean> {
  const row = await db
    .selectFrom('licenses')
    .select('id')
    .where('plan_id', '=', planId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the license's row lock: an update that changes nothing still locks the row on
 * PostgreSQL until the transaction ends (SQLite runs one write transaction at a time anyway),
 * so seat counting that follows cannot interleave with another activation of the same license.
 */
export async function lockLicense(trx: DbOrTransaction, licenseId: string): Promise<void> {
  await trx
    .updateTable('licenses')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', licenseId)
    .execute();
}

/** The license's seat limit as stored now (read under its lock, it cannot change meanwhile). */
export async function seatLimitOf(trx: DbOrTransaction, licenseId: string): Promise<number> {
  const row = await trx
    .selectFrom('licenses')
    .select('max_activations')
    .where('id', '=', licenseId)
    .executeTakeFirstOrThrow();
  return row.max_activations;
}

export async function updateLicense(
  db: DbOrTransaction,
  id: string,
  changes: LicenseUpdate,
): Promise<LicenseRow | undefined> {
  return db.updateTable('licenses').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/**
 * Extends an active license to `expiresAt` only if its expiry is still `seenExpiresAt`: another
 * payment extending it at the same moment makes this one miss, and the caller reads again.
 */
export const extendLicenseIfUnchanged = (
  db: DbOrTransaction,
  id: string,
  seenExpiresAt: string | null,
  changes: { expires_at: string | null; updated_at: string },
): Promise<LicenseRow | undefined> =>
  db
    .updateTable('licenses')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where((eb) =>
      seenExpiresAt === null ? eb('expires_at', 'is', null) : eb('expires_at', '=', seenExpiresAt),
    )
    .returningAll()
    .executeTakeFirst();

/** Revokes a license unless it already is; undefined when nothing was revoked. */
export const revokeLicense = (
  db: DbOrTransaction,
  id: string,
  reason: string,
  now: string,
): Promise<LicenseRow | undefined> =>
  db
    .updateTable('licenses')
    .set({ status: 'revoked', revoked_reason: reason, revoked_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '!=', 'revoked')
    .returningAll()
    .executeTakeFirst();

/** Ends a license at `at` unless it ended by then already; false when nothing changed. */
export async function endLicenseAt(db: DbOrTransaction, id: string, at: string): Promise<boolean> {
  const ended = await db
    .updateTable('licenses')
    .set({ expires_at: at, updated_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .executeTakeFirst();
  return Number(ended.numUpdatedRows) > 0;
}

/** Machines holding a seat of one license. */
export async function countSeatsInUse(db: DbOrTransaction, licenseId: string): Promise<number> {
  return (await seatsInUse(db, [licenseId])).get(licenseId) ?? 0;
}

/** A machine record of the license: by its id, or by hardware id; only those `activatedBy` took, when given. */
export function findActivationOfLicense(
  db: DbOrTransaction,
  licenseId: string,
  target: { activationId: string } | { hardwareId: string },
  activatedBy?: string,
): Promise<ActivationRow | undefined> {
  let query = db.selectFrom('activations').selectAll().where('license_id', '=', licenseId);
  if (activatedBy !== undefined) query = query.where('activated_by', '=', activatedBy);
  query =
    'activationId' in target
      ? query.where('id', '=', target.activationId)
      : query.where('hardware_id', '=', target.hardwareId);
  return query.executeTakeFirst();
}

/** Frees the seat of a machine still holding one. */
export async function deactivateActivation(
  db: DbOrTransaction,
  id: string,
  at: string,
  reason: DeactivationReason,
): Promise<void> {
  await db
    .updateTable('activations')
    .set({ deactivated_at: at, deactivated_reason: reason })
    .where('id', '=', id)
    .where('deactivated_at', 'is', null)
    .execute();
}

/** The license's machines holding a seat and unseen since `cutoff`, the longest unseen first. */
export const staleActivations = (
  db: DbOrTransaction,
  licenseId: string,
  cutoff: string,
  limit: number,
): Promise<ActivationRow[]> =>
  db
    .selectFrom('activations')
    .selectAll()
    .where('license_id', '=', licenseId)
    .where('deactivated_at', 'is', null)
    .where('last_seen_at', '<', cutoff)
    .orderBy('last_seen_at')
    .limit(limit)
    .execute();

export async function reclaimActivations(db: DbOrTransaction, ids: string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('activations')
    .set({ deactivated_at: at, deactivated_reason: 'reclaimed' })
    .where('id', 'in', ids)
    .execute();
}

export const insertActivation = (db: DbOrTransaction, row: ActivationInsert): Promise<ActivationRow> =>
  db.insertInto('activations').values(row).returningAll().executeTakeFirstOrThrow();

export const updateActivation = (
  db: DbOrTransaction,
  id: string,
  changes: ActivationUpdate,
): Promise<ActivationRow> =>
  db.updateTable('activations').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/**
 * Of these licenses, those an active subscription will renew: paid up and not canceled at the
 * period's end (a past-due one may still lapse, so it does not count).
 */
export async function renewingLicenseIds(db: DbOrTransaction, licenseIds: string[]): Promise<Set<string>> {
  if (licenseIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('subscriptions')
    .select('license_id')
    .where('license_id', 'in', licenseIds)
    .where('status', '=', 'active')
    .where('cancel_at_period_end', '=', 0)
    .execute();
  return new Set(rows.flatMap((row) => (row.license_id === null ? [] : [row.license_id])));
}

/**
 * Active licenses bought once (no subscription) whose expiry lies in (from, to], earliest first,
 * with their owner and plan: the expiry notices' work.
 */
export const oneOffLicensesExpiringBetween = (db: DbOrTransaction, from: string, to: string, limit: number) =>
  db
    .selectFrom('licenses')
    .innerJoin('users', 'users.id', 'licenses.user_id')
    .innerJoin('plans', 'plans.id', 'licenses.plan_id')
    .select([
      'licenses.id',
      'licenses.license_key',
      'licenses.expires_at',
      'users.id as user_id',
      'users.email',
      'users.full_name',
      'users.preferences',
      'plans.name as plan_name',
    ])
    .where('licenses.subscription_id', 'is', null)
    .where('licenses.status', '=', 'active')
    // A free trial's end has its own mail (trials/notices.ts).
    .where('licenses.trial_ends_at', 'is', null)
    .where('licenses.expires_at', '>', from)
    .where('licenses.expires_at', '<=', to)
    .orderBy('licenses.expires_at')
    .limit(limit)
    .execute();

/** The member's machines holding a seat of the license. */
export async function countMachinesOfMember(
  db: DbOrTransaction,
  licenseId: string,
  userId: string,
): Promise<number> {
  const row = await db
    .selectFrom('activations')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('license_id', '=', licenseId)
    .where('activated_by', '=', userId)
    .where('deactivated_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The user's own licenses of a perpetual plan whose update window a renewal may extend (revoked
 * ones are not), the window ending first before the others.
 */
export const licensesWithUpdatesOfPlan = (
  db: DbOrTransaction,
  userId: string,
  planId: string,
): Promise<LicenseRow[]> =>
  db
    .selectFrom('licenses')
    .selectAll()
    .where('user_id', '=', userId)
    .where('plan_id', '=', planId)
    .where('organisation_id', 'is', null)
    .where('status', '!=', 'revoked')
    .where('updates_until', 'is not', null)
    .orderBy('updates_until')
    .orderBy('id')
    .execute();

/** Moves a license's update window unless another change moved it since it was read. */
export const moveUpdatesUntilIfUnchanged = (
  db: DbOrTransaction,
  id: string,
  seenUpdatesUntil: string,
  changes: { updates_until: string; updated_at: string },
): Promise<LicenseRow | undefined> =>
  db
    .updateTable('licenses')
    .set(changes)
    .where('id', '=', id)
    .where('updates_until', '=', seenUpdatesUntil)
    .returningAll()
    .executeTakeFirst();
