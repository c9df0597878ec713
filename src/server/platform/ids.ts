import { randomFillSync } from 'node:crypto';

let lastIdMs = 0;
let idSequence = 0;

/** Random bytes drawn a few thousand at a time: one call per id took about 8 % of usage
 * ingest's CPU (a profile of bench/usage.ts), since each event is a row with an id of its own. */
const RANDOM_POOL_BYTES = 6 * 1024;
const ID_RANDOM_BYTES = 6;
const randomPool = Buffer.alloc(RANDOM_POOL_BYTES);
let poolOffset = RANDOM_POOL_BYTES;

function randomHex(): string {
  if (poolOffset + ID_RANDOM_BYTES > RANDOM_POOL_BYTES) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  const hex = randomPool.toString('hex', poolOffset, poolOffset + ID_RANDOM_BYTES);
  poolOffset += ID_RANDOM_BYTES;
  return hex;
}

/**
 * Ids that sort in the order this process made them (milliseconds, then a counter within one,
 * then randomness that keeps ids of several processes apart). Rows written at a high rate get
 * them as keys: each lands at the end of its table's index instead of at a random place in it,
 * and a file outbox lists mails in order even when a test clock stands still.
 */
export function timeOrderedId(): string {
  const ms = Math.max(Date.now(), lastIdMs);
  idSequence = ms === lastIdMs ? idSequence + 1 : 0;
  lastIdMs = ms;
  return `${ms.toString(16).padStart(12, '0')}-${idSequence.toString(16).padStart(4, '0')}-${randomHex()}`;
}
