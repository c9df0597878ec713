import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';

/** What waits in a queue: rows not yet done, and when the oldest of them was queued. */
export interface OutboxBacklog {
  depth: number;
  /** ISO time; null when the queue is empty. */
  oldestQueuedAt: string | null;
}

/** What readiness and the metrics see of a queue's worker, whatever its rows are. */
export interface WatchedOutbox {
  /** The queue's name in metrics and readiness: `mail`, `webhooks`. */
  readonly kind: string;
  /**
   * Whether the worker is doing its rounds: started, not closed, and either looked at the queue
   * within a few poll intervals or busy with a batch for less than a claim's length.
   */
  alive(): boolean;
  backlog(): Promise<OutboxBacklog>;
}

/** The loop over a queue table that a worker drives; the worker says what its rows are. */
export interface OutboxConsumer extends WatchedOutbox {
  /** Starts polling and looks at the queue at once; before it, waking or draining does nothing. */
  start(): void;
  /** Looks at the queue now instead of at the next poll. */
  wake(): void;
  /** Processes everything due and waits until nothing more is due (tests, shutdown). */
  drain(): Promise<void>;
  /** Stops polling and waits for the run in progress. */
  close(): Promise<void>;
}

/** What a queue table gives the loop: its claims, one row's work and giving rows back. */
export interface OutboxQueue<Row> {
  /**
   * Claims due rows until `claimedUntil` (so other instances leave them alone) and answers them
   * in the order they are to be processed; none when nothing is due.
   */
  claim(now: Date, claimedUntil: Date): Promise<Row[]>;
  /** Processes one claimed row; false gives the rest of its lane back untried. */
  process(row: Row): Promise<boolean>;
  /** Gives claimed rows back to the queue untried. */
  release(rows: Row[]): Promise<void>;
  /**
   * Rows of one lane are processed one at a time in order, lanes at once (one per webhook
   * endpoint, so a slow one holds up no other). Without it a batch is one lane.
   */
  laneOf?(row: Row): string;
  /** Counts the rows not done yet (read at each metrics scrape, so one indexed query). */
  backlog(): Promise<OutboxBacklog>;
}

/** Past this many poll intervals without a look at the queue, a worker counts as stalled. */
const STALLED_AFTER_POLLS = 3;
/** Plus this, so a short poll interval does not turn a busy event loop into a failing probe. */
const STALL_SLACK_MS = 10_000;

/**
 * Runs a queue: polls it on a timer that never keeps the process alive, claims a batch with a
 * deadline, processes it and claims again until nothing is due. Runs never overlap; a wake
 * during one starts another when it ends, so nothing queued meanwhile waits for the next poll.
 */
export function createOutboxConsumer<Row>(deps: {
  queue: OutboxQueue<Row>;
  clock: Clock;
  /** How long a claim keeps other instances off a row: longer than its processing can take. */
  claimMs: number;
  pollIntervalMs: number;
  /**
   * Whether closing gives back the rows of a batch not started yet (at once to another instance)
   * instead of processing them before the close ends.
   */
  releaseUntriedOnClose: boolean;
  log: FastifyBaseLogger;
  /** Names the queue in the log: `<name>: could not read the queue`. */
  name: string;
  /** Names the queue in metrics and readiness. */
  kind: string;
}): OutboxConsumer {
  const { queue, clock, log } = deps;
  let started = false;
  // Process time, not the clock's: whether the loop turns is about this process, not business time.
  let lastLookAt = performance.now();
  let runStartedAt = 0;
  let poll: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wokenWhileRunning = false;
  let closed = false;

  async function processLane(rows: Row[]): Promise<void> {
    for (const [index, row] of rows.entries()) {
      if (closed && deps.releaseUntriedOnClose) {
        await queue.release(rows.slice(index));
        return;
      }
      if (!(await queue.process(row))) {
        await queue.release(rows.slice(index + 1));
        return;
      }
    }
  }

  async function processDue(): Promise<void> {
    while (!closed) {
      const now = clock.now();
      const batch = await queue.claim(now, new Date(now.getTime() + deps.claimMs));
      if (batch.length === 0) return;
      const lanes = new Map<string, Row[]>();
      for (const row of batch) {
        const lane = queue.laneOf?.(row) ?? '';
        lanes.set(lane, [...(lanes.get(lane) ?? []), row]);
      }
      await Promise.all([...lanes.values()].map(processLane));
    }
  }

  function run(): Promise<void> {
    if (!started) return Promise.resolve();
    lastLookAt = performance.now();
    if (!running) runStartedAt = lastLookAt;
    running ??= processDue()
      .catch((error: unknown) => log.warn({ err: error }, `${deps.name}: could not read the queue`))
      .finally(() => {
        running = undefined;
        if (wokenWhileRunning && !closed) {
          wokenWhileRunning = false;
          void run();
        }
      });
    return running;
  }

  return {
    kind: deps.kind,
    alive() {
      if (!started || closed) return false;
      const now = performance.now();
      if (running) return now - runStartedAt < deps.claimMs;
      return now - lastLookAt < deps.pollIntervalMs * STALLED_AFTER_POLLS + STALL_SLACK_MS;
    },
    backlog: () => queue.backlog(),
    start() {
      started = true;
      poll = setInterval(() => void run(), deps.pollIntervalMs).unref();
      void run();
    },
    wake() {
      if (closed) return;
      if (running) wokenWhileRunning = true;
      else void run();
    },
    async drain() {
      // A wake during a run starts another when it ends; wait for that one too.
      do await run();
      while (running);
    },
    async close() {
      closed = true;
      clearInterval(poll);
      await running;
    },
  };
}
