import type { DbOrTransaction } from '../../db/database.js';
import type { UserRow } from '../../db/tables.js';
import type { OrganisationRow } from '../../db/tables-organisations.js';
import { forbidden, notFound } from '../../http-error.js';
import { findMembership } from './seats-repository.js';

export const organisationNotFound = () => notFound('organisation_not_found', 'Organisation not found');

/**
 * The organisation a caller may buy for: its owner, an admin, or a platform administrator (for
 * support). An outsider is told it does not exist, so ids reveal nothing; a member is told why not.
 */
export async function organisationForBilling(
  db: DbOrTransaction,
  user: Pick<UserRow, 'id' | 'role'>,
  organisationId: string,
): Promise<OrganisationRow> {
  const organisation = await db
    .selectFrom('organisations')
    .selectAll()
    .where('id', '=', organisationId)
    .executeTakeFirst();
  if (!organisation) throw organisationNotFound();
  if (user.role === 'admin') return organisation;
  const membership = await findMembership(db, organisationId, user.id);
  if (!membership) throw organisationNotFound();
  if (membership.role === 'member')
    throw forbidden(
      'organisation_admin_required',
      `Only the owner or an admin of ${organisation.name} can buy its plan or seats`,
    );
  return organisation;
}

/** The organisation's owner: the account its license belongs to. */
export async function organisationOwnerId(db: DbOrTransaction, organisationId: string): Promise<string> {
  const owner = await db
    .selectFrom('organisation_members')
    .select('user_id')
    .where('organisation_id', '=', organisationId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  if (!owner) throw new Error(`organisation ${organisationId} has no owner`);
  return owner.user_id;
}
