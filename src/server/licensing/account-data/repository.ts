import type { DbOrTransaction } from '../../platform/db/database.js';

/** The account's licenses (its own, not an organisation's it is a member of), oldest first. */
export const licensesOfUser = (db: DbOrTransaction, userId: string) =>
  db.selectFrom('licenses').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').execute();

/** The machines of those licenses, and the machines the account activated on an organisation's. */
export const machinesOfUser = (db: DbOrTransaction, userId: string) =>
  db
    .selectFrom('activations')
    .selectAll('activations')
    .where((eb) =>
      eb.or([
        eb('activated_by', '=', userId),
        eb('license_id', 'in', eb.selectFrom('licenses').select('id').where('user_id', '=', userId)),
      ]),
    )
    .orderBy('activated_at', 'asc')
    .execute();

/** The organisations the account belongs to, with its role and seat. */
export const membershipsOfUser = (db: DbOrTransaction, userId: string) =>
  db
    .selectFrom('organisation_members')
    .innerJoin('organisations', 'organisations.id', 'organisation_members.organisation_id')
    .select([
      'organisations.id as organisation_id',
      'organisations.name as name',
      'organisation_members.role as role',
      'organisation_members.seat_assigned_at as seat_assigned_at',
      'organisation_members.joined_at as joined_at',
    ])
    .where('organisation_members.user_id', '=', userId)
    .orderBy('organisation_members.joined_at', 'asc')
    .execute();

export const organisationsOwnedBy = (db: DbOrTransaction, userId: string) =>
  db
    .selectFrom('organisation_members')
    .innerJoin('organisations', 'organisations.id', 'organisation_members.organisation_id')
    .select(['organisations.id as id', 'organisations.name as name'])
    .where('organisation_members.user_id', '=', userId)
    .where('organisation_members.role', '=', 'owner')
    .execute();

/** Ends the account's live licenses now: their machines are refused at the next check. */
export async function revokeLicensesOfUser(
  db: DbOrTransaction,
  userId: string,
  reason: string,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('licenses')
    .set({ status: 'revoked', revoked_reason: reason, revoked_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'suspended'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Takes the account out of the organisations it is a member of (an owner transfers first). */
export async function leaveOrganisations(db: DbOrTransaction, userId: string): Promise<void> {
  await db
    .deleteFrom('organisation_members')
    .where('user_id', '=', userId)
    .where('role', '!=', 'owner')
    .execute();
}
