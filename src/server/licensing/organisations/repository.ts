import type { z } from 'zod';
import type { adminOrganisationListQuerySchema } from '../../../shared/api/organisations.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import type { ActivationRow, SubscriptionRow } from '../../platform/db/tables.js';
import type {
  OrganisationInvitationRow,
  OrganisationInvitationsTable,
  OrganisationMemberRow,
  OrganisationRow,
} from '../../platform/db/tables-organisations.js';

// The organisations' SQL: organisations, their members and invitations. The lock and the seat
// counts every seat decision shares live in seats-repository.ts.

export async function insertOrganisation(db: DbOrTransaction, row: OrganisationRow): Promise<void> {
  await db.insertInto('organisations').values(row).execute();
}

export const findOrganisation = (db: DbOrTransaction, id: string): Promise<OrganisationRow | undefined> =>
  db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();

export async function updateOrganisation(
  db: DbOrTransaction,
  id: string,
  changes: Partial<Pick<OrganisationRow, 'name' | 'billing_details'>> & { updated_at: string },
): Promise<void> {
  await db.updateTable('organisations').set(changes).where('id', '=', id).execute();
}

/** The organisations an account belongs to, with its role in each, oldest membership first. */
export const organisationsOf = (db: DbOrTransaction, userId: string) =>
  db
    .selectFrom('organisation_members')
    .innerJoin('organisations', 'organisations.id', 'organisation_members.organisation_id')
    .selectAll('organisations')
    .select('organisation_members.role')
    .where('organisation_members.user_id', '=', userId)
    .orderBy('organisation_members.joined_at')
    .orderBy('organisations.id')
    .execute();

export async function insertMember(db: DbOrTransaction, row: OrganisationMemberRow): Promise<void> {
  await db.insertInto('organisation_members').values(row).execute();
}

export async function updateMember(
  db: DbOrTransaction,
  organisationId: string,
  userId: string,
  changes: Partial<Pick<OrganisationMemberRow, 'role' | 'seat_assigned_at'>>,
): Promise<void> {
  await db
    .updateTable('organisation_members')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(
  db: DbOrTransaction,
  organisationId: string,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('organisation_members')
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countMembers(db: DbOrTransaction, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('organisation_members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A member with the account's address and name. */
export type MemberWithAccount = OrganisationMemberRow & { email: string; full_name: string | null };

const membersWithAccounts = (db: DbOrTransaction, organisationId: string) =>
  db
    .selectFrom('organisation_members')
    .innerJoin('users', 'users.id', 'organisation_members.user_id')
    .selectAll('organisation_members')
    .select(['users.email', 'users.full_name'])
    .where('organisation_members.organisation_id', '=', organisationId);

/** The owner first, then admins, then members, each by when they joined. */
export const listMembers = (db: DbOrTransaction, organisationId: string): Promise<MemberWithAccount[]> =>
  membersWithAccounts(db, organisationId)
    .orderBy((eb) =>
      eb
        .case()
        .when('organisation_members.role', '=', 'owner')
        .then(0)
        .when('organisation_members.role', '=', 'admin')
        .then(1)
        .else(2)
        .end(),
    )
    .orderBy('organisation_members.joined_at')
    .orderBy('organisation_members.user_id')
    .execute();

export const findOwner = (
  db: DbOrTransaction,
  organisationId: string,
): Promise<MemberWithAccount | undefined> =>
  membersWithAccounts(db, organisationId).where('organisation_members.role', '=', 'owner').executeTakeFirst();

/** Machines holding a seat of the license, activated by one of these accounts. */
export const activeMachinesOf = (
  db: DbOrTransaction,
  licenseId: string,
  userIds: readonly string[],
): Promise<ActivationRow[]> =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('activations')
        .selectAll()
        .where('license_id', '=', licenseId)
        .where('activated_by', 'in', userIds)
        .where('deactivated_at', 'is', null)
        .orderBy('activated_at')
        .orderBy('id')
        .execute();

/** The organisation's licenses change owner with the organisation. */
export async function transferOrganisationLicenses(
  db: DbOrTransaction,
  organisationId: string,
  userId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('licenses')
    .set({ user_id: userId, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .execute();
}

/** Machines per seat: the seat-based plan's `max_activations`. */
export async function planMachinesPerSeat(db: DbOrTransaction, planId: string): Promise<number> {
  const row = await db
    .selectFrom('plans')
    .select('max_activations')
    .where('id', '=', planId)
    .executeTakeFirstOrThrow();
  return row.max_activations;
}

/** The organisation's newest subscription with its plan's name, if it ever subscribed. */
export const findOrganisationSubscription = (
  db: DbOrTransaction,
  organisationId: string,
): Promise<(SubscriptionRow & { plan_name: string }) | undefined> =>
  db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .selectAll('subscriptions')
    .select('plans.name as plan_name')
    .where('subscriptions.organisation_id', '=', organisationId)
    .orderBy('subscriptions.created_at', 'desc')
    .orderBy('subscriptions.id', 'desc')
    .executeTakeFirst();

// Invitations

export async function insertInvitation(
  db: DbOrTransaction,
  row: OrganisationInvitationsTable,
): Promise<void> {
  await db.insertInto('organisation_invitations').values(row).execute();
}

/** An invitation with the address of whoever sent it (null once that account is gone). */
export type InvitationWithInviter = OrganisationInvitationRow & {
  invited_by_email: string | null;
  invited_by_name: string | null;
};

const withInviter = (db: DbOrTransaction) =>
  db
    .selectFrom('organisation_invitations')
    .leftJoin('users as inviter', 'inviter.id', 'organisation_invitations.invited_by')
    .selectAll('organisation_invitations')
    .select(['inviter.email as invited_by_email', 'inviter.full_name as invited_by_name']);

export const findInvitation = (
  db: DbOrTransaction,
  organisationId: string,
  invitationId: string,
): Promise<InvitationWithInviter | undefined> =>
  withInviter(db)
    .where('organisation_invitations.organisation_id', '=', organisationId)
    .where('organisation_invitations.id', '=', invitationId)
    .executeTakeFirst();

export const findInvitationByTokenHash = (
  db: DbOrTransaction,
  tokenHash: string,
): Promise<InvitationWithInviter | undefined> =>
  withInviter(db).where('organisation_invitations.token_hash', '=', tokenHash).executeTakeFirst();

/** Newest first. */
export const listInvitations = (
  db: DbOrTransaction,
  organisationId: string,
): Promise<InvitationWithInviter[]> =>
  withInviter(db)
    .where('organisation_invitations.organisation_id', '=', organisationId)
    .orderBy('organisation_invitations.created_at', 'desc')
    .orderBy('organisation_invitations.id', 'desc')
    .execute();

/** An invitation to this address that may still be accepted. */
export const findPendingInvitationTo = (
  db: DbOrTransaction,
  organisationId: string,
  email: string,
  nowIso: string,
): Promise<OrganisationInvitationRow | undefined> =>
  db
    .selectFrom('organisation_invitations')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();

/** Revokes an invitation not yet accepted or revoked; false when it was not. */
export async function revokeInvitation(db: DbOrTransaction, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('organisation_invitations')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A fresh link and expiry for an invitation not accepted or revoked: the old link dies with its hash. */
export async function renewInvitation(
  db: DbOrTransaction,
  id: string,
  changes: { token_hash: string; sent_at: string; expires_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('organisation_invitations')
    .set(changes)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Spends the invitation of this link if it is still usable at `nowIso`: of two acceptances of one
 * link, or an acceptance racing a revocation or a re-send, exactly one update succeeds.
 */
export async function spendInvitation(
  db: DbOrTransaction,
  tokenHash: string,
  { at, by }: { at: string; by: string },
): Promise<boolean> {
  const result = await db
    .updateTable('organisation_invitations')
    .set({ accepted_at: at, accepted_by: by })
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// Administrators

/** One page of every organisation; `search` matches its name or a member's address. */
export async function listOrganisations(
  db: DbOrTransaction,
  query: z.output<typeof adminOrganisationListQuerySchema>,
): Promise<Paged<OrganisationRow>> {
  let select = db.selectFrom('organisations').selectAll('organisations');
  const term = query.search;
  if (term) {
    select = select.where((eb) =>
      eb.or([
        matchesSearch(['organisations.name'], term),
        eb.exists(
          eb
            .selectFrom('organisation_members')
            .innerJoin('users', 'users.id', 'organisation_members.user_id')
            .select('organisation_members.user_id')
            .whereRef('organisation_members.organisation_id', '=', 'organisations.id')
            .where(matchesSearch(['users.email'], term)),
        ),
      ]),
    );
  }
  const field = query.sort?.field ?? 'created_at';
  const direction = query.sort?.direction ?? (field === 'name' ? 'asc' : 'desc');
  select = select
    .orderBy(field === 'name' ? 'organisations.name' : 'organisations.created_at', direction)
    .orderBy('organisations.id', direction);
  return fetchPage(select, query);
}
