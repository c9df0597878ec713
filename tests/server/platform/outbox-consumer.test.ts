import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createOutboxConsumer, type OutboxQueue } from '../../../src/server/platform/outbox-consumer.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

/** A logger that keeps the warnings' messages. */
function warnings() {
  const messages: string[] = [];
  const log = { warn: (_details: unknown, message: string) => void messages.push(message) };
  return { messages, log: log as unknown as FastifyBaseLogger };
}

/**
 * Rows named by their lane's letter and a number ("a1"), claimed three at a time; `fails` are
 * the rows whose processing answers false, `hold` makes processing wait until released.
 */
function memoryQueue(rows: string[], options: { fails?: string[]; laned?: boolean } = {}) {
  const due = [...rows];
  const processed: string[] = [];
  const released: string[] = [];
  const claims: Date[] = [];
  let active = 0;
  let mostActive = 0;
  let hold: Promise<void> | undefined;
  let letGo = () => {};
  const queue: OutboxQueue<string> = {
    claim: (_now, claimedUntil) => {
      claims.push(claimedUntil);
      return Promise.resolve(due.splice(0, 3));
    },
    process: async (row) => {
      active += 1;
      mostActive = Math.max(mostActive, active);
      await hold;
      active -= 1;
      processed.push(row);
      return !options.fails?.includes(row);
    },
    release: (given) => {
      released.push(...given);
      return Promise.resolve();
    },
    backlog: () => Promise.resolve({ depth: due.length, oldestQueuedAt: null }),
    ...(options.laned ? { laneOf: (row: string) => row.slice(0, 1) } : {}),
  };
  return {
    queue,
    due,
    processed,
    released,
    claims,
    mostActive: () => mostActive,
    hold: () => {
      hold = new Promise((resolve) => (letGo = resolve));
    },
    letGo: () => letGo(),
  };
}

const consumerOf = (queue: OutboxQueue<string>, releaseUntriedOnClose = false) => {
  const { messages, log } = warnings();
  const consumer = createOutboxConsumer({
    queue,
    clock,
    claimMs: 60_000,
    pollIntervalMs: 60_000,
    releaseUntriedOnClose,
    log,
    name: 'test queue',
    kind: 'test',
  });
  return { consumer, messages };
};

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('outbox consumer', () => {
  it('does nothing before it starts, then drains batch after batch until nothing is due', async () => {
    const q = memoryQueue(['a1', 'a2', 'a3', 'a4', 'a5']);
    const { consumer } = consumerOf(q.queue);
    consumer.wake();
    await consumer.drain();
    expect(q.processed).toEqual([]);

    consumer.start();
    await consumer.drain();

    expect(q.processed).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(q.claims[0]).toEqual(new Date('2026-01-01T00:01:00Z'));
    await consumer.close();
  });

  it('never overlaps runs: a wake during one runs again after it, for what was queued meanwhile', async () => {
    const q = memoryQueue(['a1']);
    const { consumer } = consumerOf(q.queue);
    q.hold();
    consumer.start();
    await flush();
    q.due.push('a2');
    consumer.wake();
    consumer.wake();
    q.letGo();
    await consumer.drain();

    expect(q.processed).toEqual(['a1', 'a2']);
    // Not started beside the held run (it would have processed a2 alongside a1)...
    expect(q.mostActive()).toBe(1);
    // ...but once after it: the held run claimed a1, a2 and nothing; the wake's run nothing.
    expect(q.claims).toHaveLength(4);
    await consumer.close();
  });

  it('processes lanes at once, each in order, and gives back the rest of a lane after a false', async () => {
    const q = memoryQueue(['a1', 'b1', 'a2'], { fails: ['a1'], laned: true });
    const { consumer } = consumerOf(q.queue);
    consumer.start();
    await consumer.drain();

    expect(q.processed).toEqual(['a1', 'b1']);
    expect(q.released).toEqual(['a2']);
    expect(q.mostActive()).toBe(2);
    await consumer.close();
  });

  it('on close, gives back what it has not started when asked to, else finishes the batch', async () => {
    for (const releaseUntriedOnClose of [true, false]) {
      const q = memoryQueue(['a1', 'a2', 'a3', 'a4']);
      const { consumer } = consumerOf(q.queue, releaseUntriedOnClose);
      q.hold();
      consumer.start();
      await flush();
      const closing = consumer.close();
      q.letGo();
      await closing;

      // Either way the next batch (a4) is not claimed once closing.
      expect(q.processed).toEqual(releaseUntriedOnClose ? ['a1'] : ['a1', 'a2', 'a3']);
      expect(q.released).toEqual(releaseUntriedOnClose ? ['a2', 'a3'] : []);
      expect(q.due).toEqual(['a4']);
    }
  });

  it('logs a queue it cannot read under its name and tries again at the next wake', async () => {
    const q = memoryQueue(['a1']);
    let broken = true;
    const claim = q.queue.claim;
    const { consumer, messages } = consumerOf({
      ...q.queue,
      claim: (now, until) => (broken ? Promise.reject(new Error('down')) : claim(now, until)),
    });
    consumer.start();
    await consumer.drain();
    expect(messages).toEqual(['test queue: could not read the queue']);

    broken = false;
    consumer.wake();
    await consumer.drain();
    expect(q.processed).toEqual(['a1']);
    await consumer.close();
  });

  it('counts as alive only between start and close (readiness asks), and reports its backlog', async () => {
    const q = memoryQueue(['a1', 'a2']);
    const { consumer } = consumerOf(q.queue);
    expect(consumer.kind).toBe('test');
    expect(consumer.alive()).toBe(false);
    expect(await consumer.backlog()).toEqual({ depth: 2, oldestQueuedAt: null });
    consumer.start();
    expect(consumer.alive()).toBe(true);
    await consumer.drain();
    expect(consumer.alive()).toBe(true);
    expect(await consumer.backlog()).toEqual({ depth: 0, oldestQueuedAt: null });
    await consumer.close();
    expect(consumer.alive()).toBe(false);
  });
});
