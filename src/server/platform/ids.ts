import { randomBytes } from 'node:crypto';

let lastIdMs = 0;
let idSequence = 0;

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
  return `${ms.toString(16).padStart(12, '0')}-${idSequence.toString(16).padStart(4, '0')}-${randomBytes(6).toString('hex')}`;
}
