import type { LeaseUsage } from '../../../shared/lease.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { inSavepoint, SavepointFailed } from '../../platform/db/savepoint.js';
import type { UsageReserver } from '../leases/lease-signer.js';

type ReserveRequest = Parameters<UsageReserver>[0];

interface Waiting {
  request: ReserveRequest;
  resolve: (usage: LeaseUsage[]) => void;
  reject: (error: unknown) => void;
}

/** The most reservations one transaction writes, so other writers wait for a short one only. */
const MOST_AT_ONCE = 64;

/**
 * Reservations written together on SQLite: those asked for in one turn of the event loop go into
 * one transaction, each in a savepoint of its own, and each is answered once the transaction has
 * committed. Why: every commit on the main connection makes the license check's own read
 * connection drop its page cache, so a read right after another connection's commit costs about
 * four times one that finds its pages (measured: 55 against 220 µs), and a machine's first check
 * used to commit once for itself. A reservation that fails is undone alone and fails alone.
 */
export function reserveTogether(
  db: Db,
  reserveIn: (trx: DbOrTransaction, request: ReserveRequest) => Promise<LeaseUsage[]>,
): UsageReserver {
  let gathering: Waiting[] | undefined;

  async function write(batch: Waiting[]): Promise<void> {
    const answers: { waiting: Waiting; usage: LeaseUsage[] }[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const waiting of batch) {
          try {
            const usage = await inSavepoint(trx, 'reservation', () => reserveIn(trx, waiting.request));
            answers.push({ waiting, usage });
          } catch (error) {
            // Undone alone; a failure of the savepoint's own statements ends the batch instead.
            if (error instanceof SavepointFailed) throw error;
            waiting.reject(error);
          }
        }
      });
    } catch (error) {
      // Nothing of the batch was written: every reservation of it still waiting fails with it.
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    for (const { waiting, usage } of answers) waiting.resolve(usage);
  }

  return (request) =>
    new Promise<LeaseUsage[]>((resolve, reject) => {
      if (!gathering || gathering.length >= MOST_AT_ONCE) {
        const batch: Waiting[] = [];
        gathering = batch;
        // The rest of this turn's checks join it; the transaction waits for Kysely's one connection.
        setImmediate(() => {
          if (gathering === batch) gathering = undefined;
          void write(batch);
        });
      }
      gathering.push({ request, resolve, reject });
    });
}
