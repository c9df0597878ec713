/** A license check's answer, as the bytes sent: equal states give equal answers. */
export interface KeptAnswer {
  /** Everything the answer is made of: the answer is reused only while this stays equal. */
  state: string;
  body: Buffer;
  /** The lease inside, which a check's signed nonce names. */
  lease: string;
  /** After this (ms since the epoch) the lease inside is re-signed, so it never gets old. */
  renewAtMs: number;
}

/**
 * The answer's bytes in memory of their own. A small Buffer is a slice of a shared 8 KB slab, and a
 * kept one holds its whole slab: 8 KB an answer of 3.4 KB instead of its own size.
 */
export function answerBytes(json: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
  bytes.write(json);
  return bytes;
}

/**
 * The last answer per license and machine, so a repeated check costs neither a signature nor the
 * building of its features: kept while the state it was made from is unchanged and its lease
 * fresh, and at most `maxEntries` of them. When full, a new answer takes the place of the least
 * recently checked one only once that one's lease is due for renewal anyway; otherwise it is not
 * kept. Machines checking in turn, more of them than there is room for, would otherwise push each
 * other out before any came back (every check a miss, and the memory churned); this way the
 * answers kept go on being found.
 */
export function createCheckAnswers(maxEntries: number) {
  const entries = new Map<string, KeptAnswer>();
  return {
    /** The kept answer of this license on this machine, if it was made from `state` and is still fresh. */
    get(licenseId: string, hardwareId: string, state: string, nowMs: number): KeptAnswer | undefined {
      const key = `${licenseId}\n${hardwareId}`;
      const kept = entries.get(key);
      if (!kept || kept.state !== state || nowMs >= kept.renewAtMs) return undefined;
      // Re-inserted, so the map's order is the order of use and the oldest is dropped first.
      entries.delete(key);
      entries.set(key, kept);
      return kept;
    },
    set(licenseId: string, hardwareId: string, answer: KeptAnswer, nowMs: number): void {
      if (maxEntries <= 0) return;
      const key = `${licenseId}\n${hardwareId}`;
      // A machine's new answer always replaces its own.
      if (!entries.delete(key) && entries.size >= maxEntries) {
        const [oldestKey, oldest] = entries.entries().next().value as [string, KeptAnswer];
        if (nowMs < oldest.renewAtMs) return;
        entries.delete(oldestKey);
      }
      entries.set(key, answer);
    },
    /** How many answers are kept (the metrics, and the tests). */
    get size() {
      return entries.size;
    },
  };
}

export type CheckAnswers = ReturnType<typeof createCheckAnswers>;
