/** Writes a batch of `[activation id, seen at]`; a row only moves forward in time. */
export interface HeartbeatWriter {
  write(rows: [activationId: string, seenAt: string][]): Promise<void>;
  close(): Promise<void>;
}

export interface HeartbeatsOptions {
  writer: HeartbeatWriter;
  flushIntervalMs: number;
  onFlushError: (error: unknown) => void;
  /** Check-ins pending at most before they are written without waiting for the interval. */
  mostPending?: number;
}

/**
 * Pending check-ins written early: each holds its machine's id and time in a Map (some 200 bytes
 * of heap, by estimate), so 200 000 machines checking within one interval held about 40 MB until
 * it ended.
 */
export const MOST_PENDING_CHECK_INS = 10_000;

/**
 * A check-in is written at once, not with the next batch, when the machine's stored one is older
 * than this. Seat reclaim takes machines unseen for a window of at least a day, so a live
 * machine's stored check-in (at most this plus one flush interval, an hour at most, behind) can
 * never make it look stale, on any instance.
 */
export const WRITE_AT_ONCE_AFTER_MS = 12 * 60 * 60 * 1000;

/**
 * When each machine last checked in, kept in memory and written in batches every flush interval
 * (or once {@link MOST_PENDING_CHECK_INS} are pending) instead of one write per check. A crash
 * loses at most one interval of `last_seen_at`, which only the machine lists read (seat reclaim is
 * safe, see {@link WRITE_AT_ONCE_AFTER_MS}); never a seat or a license.
 */
export function createHeartbeats({
  writer,
  flushIntervalMs,
  onFlushError,
  mostPending = MOST_PENDING_CHECK_INS,
}: HeartbeatsOptions) {
  let pending = new Map<string, string>();
  let running: Promise<void> | undefined;
  /** After a failed write, nothing is written early until the interval's flush has tried again. */
  let earlyWritesPaused = false;
  /** Check-ins to write at once, gathered until the write before them has finished. */
  let gathering: { rows: Map<string, string>; written: Promise<void> } | undefined;
  /** The last write of check-ins made at once: the next starts when it has finished. */
  let writingNow: Promise<void> = Promise.resolve();

  /** Writes `batch`; on failure keeps its rows for the next flush, unless a machine checked in again. */
  async function write(batch: Map<string, string>): Promise<void> {
    try {
      await writer.write([...batch]);
    } catch (error) {
      for (const [id, seenAt] of batch) if (!pending.has(id)) pending.set(id, seenAt);
      throw error;
    }
  }

  /** Writes what is pending now; one flush at a time, so a later call waits for the running one. */
  async function flush(): Promise<void> {
    while (running) await running.catch(() => undefined);
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    running = write(batch);
    try {
      await running;
    } finally {
      running = undefined;
    }
  }

  const timer = setInterval(() => {
    earlyWritesPaused = false;
    flush().catch((error: unknown) => {
      earlyWritesPaused = true;
      onFlushError(error);
    });
  }, flushIntervalMs);
  timer.unref();

  return {
    /** Notes that the machine checked in at `seenAt` (ISO time); written at the next flush. */
    record(activationId: string, seenAt: string): void {
      pending.set(activationId, seenAt);
      if (pending.size >= mostPending && !running && !earlyWritesPaused)
        flush().catch((error: unknown) => {
          earlyWritesPaused = true;
          onFlushError(error);
        });
    },
    /**
     * Writes the check-in before resolving, together with the others of this turn. A failed write
     * is kept for the next flush and reported, never thrown: the check itself has succeeded.
     */
    recordNow(activationId: string, seenAt: string): Promise<void> {
      pending.delete(activationId);
      if (!gathering) {
        const rows = new Map<string, string>();
        // One write at a time, each taking every check-in that arrived while the one before ran
        // (and at least the rest of this turn): one commit for many machines under load.
        const written = writingNow
          .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
          .then(() => {
            gathering = undefined;
            return write(rows).catch((error: unknown) => {
              onFlushError(error);
            });
          });
        writingNow = written;
        gathering = { rows, written };
      }
      gathering.rows.set(activationId, seenAt);
      return gathering.written;
    },
    flush,
    /** Stops the timer, writes what is pending and closes the writer (a clean shutdown loses nothing). */
    async close(): Promise<void> {
      clearInterval(timer);
      try {
        await writingNow;
        await flush();
      } finally {
        await writer.close();
      }
    },
  };
}

export type Heartbeats = ReturnType<typeof createHeartbeats>;
