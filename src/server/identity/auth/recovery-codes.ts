import { randomInt, randomUUID } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../shared/api/two-factor.js';
import { sha256 } from '../../platform/crypto.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import {
  deleteRecoveryCodes,
  insertRecoveryCodes,
  markRecoveryCodeUsed,
} from './recovery-codes-repository.js';

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
  await deleteRecoveryCodes(db, userId);
  await insertRecoveryCodes(
    db,
    userId,
    codes.map((code) => ({ id: randomUUID(), codeHash: hashOf(code.replace('-', '')) })),
    now,
  );
  return codes;
}

/** Uses the code (already normalised: no dash, lower case) once; of two concurrent uses one wins. */
export async function useRecoveryCode(
  db: DbOrTransaction,
  userId: string,
  normalisedCode: string,
  now: string,
): Promise<boolean> {
  return markRecoveryCodeUsed(db, userId, hashOf(normalisedCode), now);
}
