import { z } from 'zod';
import { MAX_USAGE_BATCH, type UsageEventResult } from '../shared/api/usage.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

const queuedEventSchema = z.object({
  id: z.string().min(1),
  feature: z.string().min(1),
  amount: z.number().int().positive(),
  occurred_at: z.string(),
});
export type QueuedEvent = z.infer<typeof queuedEventSchema>;

const queueSchema = z.object({
  version: z.literal(1),
  /** The server the events are for: another server's queue means nothing here. */
  server_url: z.string(),
  /** Use not yet answered by the server, oldest first; each keeps its id until it is. */
  events: z.array(queuedEventSchema),
  /**
   * Use made under the current lease (its `jti`), per feature key: what it drew from the lease's
   * reservation, whether uploaded since or still queued. A new lease starts again at nothing.
   */
  lease_use: z
    .object({ jti: z.string(), used: z.record(z.string(), z.number().int().nonnegative()) })
    .nullable(),
});
export type UsageQueueState = z.infer<typeof queueSchema>;

/** What one upload of a batch came to. */
export type UploadOutcome =
  | { kind: 'answered'; results: UsageEventResult[] }
  /** No answer, or one that says nothing of the events: they stay queued and go again. */
  | { kind: 'not_sent'; reason: string };

export interface UsageQueue {
  read(): Promise<UsageQueueState>;
  /** Applies `change` to the queue and writes it; changes run one after another. */
  update(change: (state: UsageQueueState) => UsageQueueState): Promise<UsageQueueState>;
  /**
   * Sends the queued events in batches of at most 1 000, oldest first, each with its own id (a
   * batch sent again counts once), and drops only those the server answered: counted, duplicate or
   * refused. Answers each answered event's result by id, and why sending stopped, if it did.
   */
  upload(send: (events: QueuedEvent[]) => Promise<UploadOutcome>): Promise<{
    results: Map<string, UsageEventResult>;
    stopped?: string;
  }>;
}

/**
 * Usage made on this machine and not yet answered by the server, in one JSON file under the app's
 * user data, written whole to a sibling and renamed (json-file.ts): a crash mid-write leaves the
 * queue as it was, never half of it. A missing or damaged file, or another server's, reads empty.
 */
export function createUsageQueue(path: string, serverUrl: string): UsageQueue {
  const empty = (): UsageQueueState => ({ version: 1, server_url: serverUrl, events: [], lease_use: null });
  const read = async (): Promise<UsageQueueState> => {
    const parsed = queueSchema.safeParse(await readJsonFile(path));
    return parsed.success && parsed.data.server_url === serverUrl ? parsed.data : empty();
  };
  let chain: Promise<unknown> = Promise.resolve();
  const update = (change: (state: UsageQueueState) => UsageQueueState) => {
    const next = chain.then(async () => {
      const state = queueSchema.parse(change(await read()));
      await writeJsonFile(path, state);
      return state;
    });
    chain = next.catch(() => undefined);
    return next;
  };
  // One upload at a time: two at once would send the same events twice (harmless, but wasted).
  let uploading: Promise<unknown> = Promise.resolve();

  return {
    read,
    update,
    upload(send) {
      const run = uploading.then(async () => {
        const results = new Map<string, UsageEventResult>();
        for (;;) {
          const batch = (await read()).events.slice(0, MAX_USAGE_BATCH);
          if (batch.length === 0) return { results };
          const outcome = await send(batch);
          if (outcome.kind === 'not_sent') return { results, stopped: outcome.reason };
          for (const result of outcome.results) results.set(result.id, result);
          const answered = new Set(outcome.results.map((result) => result.id));
          if (!batch.some((event) => answered.has(event.id)))
            return { results, stopped: 'the server answered none of the events' };
          await update((state) => ({
            ...state,
            events: state.events.filter((event) => !answered.has(event.id)),
          }));
        }
      });
      uploading = run.catch(() => undefined);
      return run;
    },
  };
}
