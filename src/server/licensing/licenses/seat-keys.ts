import { webcrypto } from 'node:crypto';
import { generateLicenseKey } from '../../../shared/license-key.js';
import type { Clock } from '../../platform/clock.js';
import { sha256 } from '../../platform/crypto.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { replaceSeatKeyHash } from './seat-keys-repository.js';

/**
 * Seat keys: what a member's machine checks its seat with (`/licenses/validate`, `/licensing/status`,
 * the update feed) in place of the organisation's key, which no member sees. Shaped as a license
 * key so the apps keep and send it as one; it works only with its machine's hardware id, and only
 * its SHA-256 is stored.
 */

/** A fresh seat key for the activation; the one it had before stops working. */
export async function issueSeatKey(
  trx: DbOrTransaction,
  clock: Clock,
  activationId: string,
): Promise<string> {
  const key = generateLicenseKey((bytes) => webcrypto.getRandomValues(bytes));
  await replaceSeatKeyHash(trx, activationId, sha256(key), clock.now().toISOString());
  return key;
}
