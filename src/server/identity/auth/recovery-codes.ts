import { randomInt, randomUUID } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../shared/api/two-factor.js';
import { sha256 } from '../../platform/crypto.js';
import type { DbOrTransaction } from '../../platform/db/database.js';

/**
 * Recovery codes: ten random codes shown once, kept only as SHA-256 hashes (each holds 50 random
 * bits, and sign-in attempts are counted, so a plain hash is enough), each usable once. A new
 * set replaces the old one.
 */

// No 0/o, 1/l/i: codes are read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const CODE_LENGTH = 10;

/** A code as shown, e.g. `k3hq8-wtr2m`; what people type is normalised to the undashed form. */
function newRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < CODE_LENGTH; index++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

const hashOf = (normalisedCode: string) => sha256(`recovery:${normalisedCode}`);

/** Replaces the account's codes with a new set; answers the codes to show once. */
export async function replaceRecoveryCodes(
  db: DbOrTransaction,
  userId: string,
  now: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(
      codes.map((code) => ({
        id: randomUUID(),
        user_id: userId,
        code_hash: hashOf(code.replace('-', '')),
        used_at: null,
        created_at: now,
      })),
    )
    .execute();
  return codes;
}

/** Uses the code (already normalised: no dash, lower case) once; of two concurrent uses one wins. */
export async function useRecoveryCode(
  db: DbOrTransaction,
  userId: string,
  normalisedCode: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashOf(normalisedCode))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: DbOrTransaction, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function deleteRecoveryCodes(db: DbOrTransaction, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}
