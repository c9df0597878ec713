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

/** The license of the activation whose seat key has this hash, when it is on that machine. */
export async function findLicenseIdBySeatKeyHash(
  db: DbOrTransaction,
  keyHash: string,
  hardwareId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('seat_keys')
    .innerJoin('activations', 'activations.id', 'seat_keys.activation_id')
    .select('activations.license_id')
    .where('seat_keys.key_hash', '=', keyHash)
    .where('activations.hardware_id', '=', hardwareId)
    .executeTakeFirst();
  return row?.license_id;
}
