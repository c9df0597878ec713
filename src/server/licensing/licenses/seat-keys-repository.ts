import type { DbOrTransaction } from '../../platform/db/database.js';

/** Stores the hash of the activation's new seat key in place of any it had. */
export async function replaceSeatKeyHash(
  trx: DbOrTransaction,
  activationId: string,
  keyHash: string,
  createdAt: string,
): Promise<void> {
  await trx.deleteFrom('seat_keys').where('activation_id', '=', activationId).execute();
  await trx
    .insertInto('seat_keys')
    .values({ activation_id: activationId, key_hash: keyHash, created_at: createdAt })
    .execute();
}
