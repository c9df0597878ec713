import { type Clock, isoNow } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { bumpSessionVersion } from '../users/repository.js';
import { revokeAllFamiliesOfUser } from './refresh-tokens-repository.js';

/**
 * Ends every session of the user in the caller's transaction: the session version moves on, so
 * access tokens already handed out stop working at once, and every live refresh family is revoked
 * with `reason` (what the portal is told when it next refreshes). A sign-out everywhere, a new
 * password, and an administrator's change of role or disabling all end sessions this one way.
 */
export async function endEverySession(
  trx: DbOrTransaction,
  clock: Clock,
  userId: string,
  reason: string,
): Promise<void> {
  await bumpSessionVersion(trx, userId);
  await revokeAllFamiliesOfUser(trx, userId, isoNow(clock), reason);
}
