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
 * The last answer per license and machine, so a repeated check costs neither a signature nor the
 * building of its features: kept while the state it was made from is unchanged and its lease
 * fresh, and at most `maxEntries` of them (the least recently checked go first).
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
    set(licenseId: string, hardwareId: string, answer: KeptAnswer): void {
      const key = `${licenseId}\n${hardwareId}`;
      entries.delete(key);
      entries.set(key, answer);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}

export type CheckAnswers = ReturnType<typeof createCheckAnswers>;
