import type { DbOrTransaction } from '../platform/db/database.js';
import { conflict, forbidden } from '../platform/http-error.js';
import { lockAccount } from '../identity/index.js';
import { activeAdminIds } from './users-repository.js';

/**
 * Takes the row lock of every active administrator, one at a time in id order (the same order
 * in every transaction, so two of them cannot deadlock), then counts them again. An update that
 * changes nothing still locks its row on PostgreSQL until the transaction ends; SQLite runs one
 * write transaction at a time anyway. Two administrators demoting each other at the same moment
 * are thereby serialised: the second sees the first's change and is refused.
 */
async function lockActiveAdmins(trx: DbOrTransaction): Promise<string[]> {
  for (const id of await activeAdminIds(trx)) {
    await lockAccount(trx, id);
  }
  return activeAdminIds(trx);
}

/**
 * Refuses a change that would remove the last active administrator (demoting, disabling or
 * deleting `targetId`), and one made by an administrator who lost that role meanwhile. Call it
 * in the transaction that writes the change, before writing.
 */
export async function assertAnotherAdminRemains(
  trx: DbOrTransaction,
  targetId: string,
  actorId: string,
): Promise<void> {
  const admins = await lockActiveAdmins(trx);
  if (!admins.some((id) => id !== targetId)) {
    throw conflict(
      'last_admin',
      'This is the last active administrator. Make another account an administrator first.',
    );
  }
  if (!admins.includes(actorId)) {
    throw forbidden('admin_required', 'You do not have permission to access this resource');
  }
}
