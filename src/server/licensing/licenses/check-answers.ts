import { hash } from 'node:crypto';

/**
 * What is kept of a license check's answer: its bytes but the features block, which every license
 * of the plan with the same use today shares and the check finds again from its own read.
 */
export interface KeptAnswer {
  /** {@link stateDigest} of everything the answer is made of: reused only while this stays equal. */
  stateDigest: string;
  /** The answer's bytes (UTF-8), one character a byte, without its features block. */
  text: string;
  /** Where in `text` the features block goes. */
  featuresAt: number;
  /** Where in `text` the signed lease is, and its length (a check's signed nonce names it). */
  leaseAt: number;
  leaseLength: number;
  /** After this (ms since the epoch) the lease is re-signed, so it never gets old. */
  renewAtMs: number;
}

/**
 * A short digest of an answer's state: kept instead of the state itself (about 400 characters), as
 * the state is a tenth of what an answer costs to keep. SHA-256, so two states never share one.
 */
export const stateDigest = (state: string): string => hash('sha256', state, 'base64');

/**
 * What an entry costs besides its strings' characters (about one byte each): the map's slot, the
 * entry object, its number and the strings' headers. Measured with `bench/check-answer-memory.ts`.
 */
export const ENTRY_OVERHEAD_BYTES = 300;

const entryBytes = (key: string, answer: KeptAnswer): number =>
  ENTRY_OVERHEAD_BYTES + key.length + answer.stateDigest.length + answer.text.length;

/** How much the kept answers may hold: at most this many, and at most about this many bytes. */
export interface CheckAnswersRoom {
  maxEntries: number;
  maxBytes: number;
}

/**
 * The last answer per license and machine, so a repeated check costs neither a signature nor a
 * reservation nor the building of its answer: kept while the state it was made from is unchanged
 * and its lease fresh, within {@link CheckAnswersRoom}. When full, a new answer takes the place of
 * the least recently checked ones only once they are due for renewal anyway; otherwise it is not
 * kept. Machines checking in turn, more of them than there is room for, would otherwise push each
 * other out before any came back (every check a miss, and the memory churned); this way the
 * answers kept go on being found.
 */
export function createCheckAnswers(room: CheckAnswersRoom) {
  const entries = new Map<string, KeptAnswer>();
  let bytes = 0;
  const keyOf = (licenseId: string, hardwareId: string) => `${licenseId}\n${hardwareId}`;
  const remove = (key: string, kept: KeptAnswer) => {
    entries.delete(key);
    bytes -= entryBytes(key, kept);
  };
  return {
    /** This license's kept answer on this machine, if made from `digest`'s state and still fresh. */
    get(licenseId: string, hardwareId: string, digest: string, nowMs: number): KeptAnswer | undefined {
      const key = keyOf(licenseId, hardwareId);
      const kept = entries.get(key);
      if (!kept || kept.stateDigest !== digest || nowMs >= kept.renewAtMs) return undefined;
      // Re-inserted, so the map's order is the order of use and the oldest is dropped first.
      entries.delete(key);
      entries.set(key, kept);
      return kept;
    },
    set(licenseId: string, hardwareId: string, answer: KeptAnswer, nowMs: number): void {
      const key = keyOf(licenseId, hardwareId);
      const size = entryBytes(key, answer);
      if (room.maxEntries <= 0 || size > room.maxBytes) return;
      // A machine's new answer always replaces its own.
      const own = entries.get(key);
      if (own) remove(key, own);
      while (entries.size >= room.maxEntries || bytes + size > room.maxBytes) {
        const [oldestKey, oldest] = entries.entries().next().value as [string, KeptAnswer];
        if (nowMs < oldest.renewAtMs) return;
        remove(oldestKey, oldest);
      }
      entries.set(key, answer);
      bytes += size;
    },
    /** How many answers are kept (the metrics, and the tests). */
    get size() {
      return entries.size;
    },
    /** About how many bytes they hold (what the budget counts). */
    get bytes() {
      return bytes;
    },
  };
}

export type CheckAnswers = ReturnType<typeof createCheckAnswers>;
