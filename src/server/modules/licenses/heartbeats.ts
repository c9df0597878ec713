/** Writes a batch of `[activation id, seen at]`; a row only moves forward in time. */
export interface HeartbeatWriter {
  write(rows: [activationId: string, seenAt: string][]): Promise<void>;
  close(): Promise<void>;
}

export interface HeartbeatsOptions {
  writer: HeartbeatWriter;
  flushIntervalMs: number;
  onFlushError: (error: unknown) => void;
}

/**
 * When each machine last checked in, kept in memory and written in batches every flush interval
 * instead of one write per check. A crash loses at most one interval of `last_seen_at`, which
 * only seat reclaim (a window of days) and the machine lists read; never a seat or a license.
 */
export function createHeartbeats({ writer, flushIntervalMs, onFlushError }: HeartbeatsOptions) {
  let pending = new Map<string, string>();
  let running: Promise<void> | undefined;

  async function writePending(): Promise<void> {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await writer.write([...batch]);
    } catch (error) {
      // Kept for the next flush, unless the machine checked in again meanwhile.
      for (const [id, seenAt] of batch) if (!pending.has(id)) pending.set(id, seenAt);
      throw error;
    }
  }

  /** Writes what is pending now; one flush at a time, so a later call waits for the running one. */
  async function flush(): Promise<void> {
    while (running) await running.catch(() => undefined);
    running = writePending();
    try {
      await running;
    } finally {
      running = undefined;
    }
  }

  const timer = setInterval(() => flush().catch(onFlushError), flushIntervalMs);
  timer.unref();

  return {
    /** Notes that the machine checked in at `seenAt` (ISO time); written at the next flush. */
    record(activationId: string, seenAt: string): void {
      pending.set(activationId, seenAt);
    },
    /** A check-in not written yet, for the readers that must not mistake a live machine for a stale one. */
    pendingSeenAt: (activationId: string): string | undefined => pending.get(activationId),
    flush,
    /** Stops the timer, writes what is pending and closes the writer (a clean shutdown loses nothing). */
    async close(): Promise<void> {
      clearInterval(timer);
      try {
        await flush();
      } finally {
        await writer.close();
      }
    },
  };
}

export type Heartbeats = ReturnType<typeof createHeartbeats>;
