import type { OrganisationRole } from '../../../shared/api/organisations.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { OrganisationMemberRow, OrganisationRow } from '../../platform/db/tables-organisations.js';
import { forbidden, notFound } from '../../platform/http-error.js';
import { findOrganisation } from './repository.js';
import { findMembership } from './seats-repository.js';

/** Who is asking about an organisation, and with what powers. */
export interface OrganisationAccess {
  organisation: OrganisationRow;
  /** The caller's own membership; undefined for a platform administrator who is not a member. */
  membership: OrganisationMemberRow | undefined;
  /** The caller's role as the answers show it (null: a platform administrator from outside). */
  role: OrganisationRole | null;
  /** Owners, admins and platform administrators manage members, invitations and seats. */
  manages: boolean;
  /** The owner, and platform administrators: they alone transfer ownership. */
  ownerPowers: boolean;
}

export const organisationNotFound = () => notFound('organisation_not_found', 'Organization not found');

/**
 * The caller's access to an organisation. An outsider is told it does not exist (never 403, so
 * nobody learns which ids are organisations); a platform administrator may do all an owner may,
 * for support. A personal API token's caller is never a platform administrator here.
 */
export async function organisationAccess(
  db: DbOrTransaction,
  organisationId: string,
  caller: UserRow,
): Promise<OrganisationAccess> {
  const organisation = await findOrganisation(db, organisationId);
  if (!organisation) throw organisationNotFound();
  const membership = await findMembership(db, organisationId, caller.id);
  const platformAdmin = caller.role === 'admin';
  if (!membership && !platformAdmin) throw organisationNotFound();
  const role = membership?.role ?? null;
  return {
    organisation,
    membership,
    role,
    manages: platformAdmin || role === 'owner' || role === 'admin',
    ownerPowers: platformAdmin || role === 'owner',
  };
}

/** Refuses a member who is neither the owner nor an admin. */
export function assertManages(access: OrganisationAccess): void {
  if (!access.manages)
    throw forbidden(
      'organisation_admin_required',
      'Only the organization’s owner and admins may do this. Ask one of them.',
    );
}
