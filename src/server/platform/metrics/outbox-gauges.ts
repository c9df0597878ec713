import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import type { OutboxBacklog, WatchedOutbox } from '../outbox-consumer.js';

/**
 * Each queue's depth and the age of its oldest row, read from the database when scraped (one
 * indexed count per queue). Every instance reads the same tables, so a cluster takes the largest.
 */
export function addOutboxGauges(
  registry: Registry,
  {
    outboxes,
    clock,
    log,
  }: { outboxes: () => readonly WatchedOutbox[]; clock: Clock; log: FastifyBaseLogger },
): void {
  // The registry collects its metrics at once: both gauges share the one read of a scrape.
  let reading: Promise<Map<string, OutboxBacklog>> | undefined;
  const backlogs = () =>
    (reading ??= readBacklogs().finally(() => {
      reading = undefined;
    }));

  async function readBacklogs(): Promise<Map<string, OutboxBacklog>> {
    const read = new Map<string, OutboxBacklog>();
    await Promise.all(
      outboxes().map(async (outbox) => {
        try {
          read.set(outbox.kind, await outbox.backlog());
        } catch (error) {
          // The scrape still answers with everything else; the database's trouble shows in readiness.
          log.warn({ err: error, queue: outbox.kind }, 'metrics: could not read the queue');
        }
      }),
    );
    return read;
  }

  new Gauge({
    name: 'portal_outbox_depth',
    help: 'Rows waiting in each queue (mail, webhooks): not done yet, retries included',
    labelNames: ['queue'] as const,
    registers: [registry],
    aggregator: 'max',
    async collect() {
      for (const [queue, { depth }] of await backlogs()) this.set({ queue }, depth);
    },
  });
  new Gauge({
    name: 'portal_outbox_oldest_age_seconds',
    help: 'Age of the oldest row waiting in each queue (mail, webhooks); 0 when the queue is empty',
    labelNames: ['queue'] as const,
    registers: [registry],
    aggregator: 'max',
    async collect() {
      const now = clock.now().getTime();
      for (const [queue, { oldestQueuedAt }] of await backlogs())
        this.set({ queue }, oldestQueuedAt ? Math.max(0, (now - Date.parse(oldestQueuedAt)) / 1000) : 0);
    },
  });
}
