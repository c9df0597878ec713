import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import type { OrganisationMemberRow } from '../../platform/db/tables-organisations.js';

// The reads and the lock every part of the organisations' seats shares: invitations, joining,
// assigning, buying seats and activating a machine on a seat all decide under the same lock.

/**
 * Serialises every change to an organisation's members and seats: a no-op update takes the row's
 * write lock on PostgreSQL (SQLite's immediate transactions already run one writer at a time).
 * Two acceptances of the last seat, or a seat bought while one is assigned, then see each other.
 */
export async function lockOrganisation(trx: DbOrTransaction, organisationId: string): Promise<boolean> {
  const result = await trx
    .updateTable('organisations')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', organisationId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The organisation's seat-based license: the newest one not revoked, if it bought any. */
export async function findOrganisationLicense(
  db: DbOrTransaction,
  organisationId: string,
): Promise<LicenseRow | undefined> {
  return db
    .selectFrom('licenses')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('status', '!=', 'revoked')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function findMembership(
  db: DbOrTransaction,
  organisationId: string,
  userId: string,
): Promise<OrganisationMemberRow | undefined> {
  return db
    .selectFrom('organisation_members')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Members holding a seat now. */
export async function countAssignedSeats(db: DbOrTransaction, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('organisation_members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('seat_assigned_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Invitations that may still be accepted at `nowIso`: each will take a seat when it is. */
export async function countPendingInvitations(
  db: DbOrTransaction,
  organisationId: string,
  nowIso: string,
): Promise<number> {
  const row = await db
    .selectFrom('organisation_invitations')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Seats held plus seats promised to pending invitations: every seat decision (an invitation, a seat
 * given by hand, the owner's seat at the first charge) counts both, so a seat promised to an
 * invitee is never given away and their link keeps working.
 */
export async function countSeatsTaken(
  db: DbOrTransaction,
  organisationId: string,
  nowIso: string,
): Promise<{ held: number; pending: number }> {
  return {
    held: await countAssignedSeats(db, organisationId),
    pending: await countPendingInvitations(db, organisationId, nowIso),
  };
}

/** Gives the member a seat from `at`, unless they hold one already. */
export async function seatMemberIfUnseated(
  db: DbOrTransaction,
  organisationId: string,
  userId: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('organisation_members')
    .set({ seat_assigned_at: at })
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .where('seat_assigned_at', 'is', null)
    .execute();
}
