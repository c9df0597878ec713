import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { DbOrTransaction } from './db/database.js';

const HOUR_MS = 60 * 60_000;
// Shortly after start, not during it: the first run should not compete with migrations or the
// first requests, yet a server restarted often still gets pruned.
const FIRST_RUN_DELAY_MS = 30_000;

/** Deletes rows of one kind that nothing reads any more; answers how many. */
export type Prune = (db: DbOrTransaction, clock: Clock) => Promise<number>;

/**
 * Runs each prune in turn (the contexts give theirs at composition, each knowing its own tables)
 * and answers how many rows each deleted, by name.
 */
export async function runPrunes<P extends Record<string, Prune>>(
  db: DbOrTransaction,
  clock: Clock,
  prunes: P,
): Promise<{ [K in keyof P]: number }> {
  const pruned = {} as { [K in keyof P]: number };
  for (const name of Object.keys(prunes) as (keyof P)[]) pruned[name] = await prunes[name]!(db, clock);
  return pruned;
}

export interface MaintenanceOptions {
  /** What to prune, by name (the names go into the debug log of each run). */
  prunes: Record<string, Prune>;
  intervalMs?: number;
  firstRunDelayMs?: number;
}

/**
 * Prunes once shortly after start and then every interval until the server closes. The timers
 * never keep the process alive, and closing waits for a run in progress so it never meets a
 * closed database.
 */
export function startMaintenance(
  app: FastifyInstance,
  db: DbOrTransaction,
  clock: Clock,
  { prunes, intervalMs = HOUR_MS, firstRunDelayMs = FIRST_RUN_DELAY_MS }: MaintenanceOptions,
): void {
  let running: Promise<void> | undefined;
  const run = () => {
    // A slow run is not stacked upon: the next tick finds what this one left.
    running ??= runPrunes(db, clock, prunes)
      .then((pruned) => app.log.debug({ pruned }, 'maintenance: pruned expired rows'))
      .catch((error: unknown) => app.log.warn({ err: error }, 'maintenance: pruning failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, firstRunDelayMs).unref();
  const every = setInterval(run, intervalMs).unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
    await running;
  });
}
