import { type Clock, isoNow } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { NewUserRow, UserRow, UserUpdate } from '../../platform/db/tables.js';
import { endEverySession } from '../auth/end-sessions.js';
import { deleteUserRow, insertUser, lockUserRow, updateUser } from './repository.js';

// The writes to accounts that flows of other contexts make (licensing's invitations, admin's
// users, the operator's CLI), in their own transactions: identity does them, so the accounts'
// repository and what a change of role means for sessions stay identity's.

/**
 * An invitee's account, made from the invitation's link (confirmed: the link proved the address),
 * in the transaction that joins them to the organisation. The unique index on the address refuses
 * one that another sign-up took meanwhile; the caller answers that.
 */
export async function createInvitedAccount(trx: DbOrTransaction, account: NewUserRow): Promise<void> {
  await insertUser(trx, account);
}

/**
 * An account an administrator creates (`/admin/users`), in the transaction that records it in
 * the security log; a taken address is refused by the unique index, which the caller answers.
 */
export async function createAccountByAdministrator(trx: DbOrTransaction, account: NewUserRow): Promise<void> {
  await insertUser(trx, account);
}

/**
 * An administrator's change to an account, `changes` holding only what differs from the stored
 * row. A new role or a disabled account ends every session and access token of the user at once
 * (they carry what it may do), recorded as `role_changed` or `disabled`.
 */
export async function changeAccountByAdministrator(
  trx: DbOrTransaction,
  clock: Clock,
  id: string,
  changes: UserUpdate,
): Promise<void> {
  await updateUser(trx, id, changes);
  const roleChanged = changes.role !== undefined;
  if (roleChanged || changes.status === 'disabled')
    await endEverySession(trx, clock, id, roleChanged ? 'role_changed' : 'disabled');
}

/**
 * The operator's `create-admin` for an address that has an account: it becomes an administrator
 * with its address confirmed (one who cannot sign in is no use); its password and sessions stay.
 */
export async function promoteToAdministrator(
  db: DbOrTransaction,
  clock: Clock,
  account: UserRow,
): Promise<void> {
  const now = isoNow(clock);
  await updateUser(db, account.id, {
    role: 'admin',
    email_verified_at: account.email_verified_at ?? now,
    updated_at: now,
  });
}

/**
 * Holds the account still until the caller's transaction ends: another context's change that
 * must not interleave with a second one for the same buyer (billing's subscriptions) or the same
 * administrators (admin's last-administrator rule) takes it first.
 */
export const lockAccount = (trx: DbOrTransaction, id: string): Promise<void> => lockUserRow(trx, id);

/** Deletes an account an administrator removes, and what it owns with it; false when there was none. */
export const deleteAccountByAdministrator = (trx: DbOrTransaction, id: string): Promise<boolean> =>
  deleteUserRow(trx, id);
