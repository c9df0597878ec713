import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { DbOrTransaction } from '../db/database.js';
import { postgresDriver } from '../db/postgres-driver.js';
import { notifyChannel } from './outbox-repository.js';

/**
 * PostgreSQL's LISTEN/NOTIFY tells every instance's mail worker about newly queued mail. A
 * NOTIFY sent in the transaction that queues the mail is delivered when, and only if, it
 * commits: the worker looks exactly once there is something to see, on whichever instance.
 */
const CHANNEL = 'mail_outbox';
const RECONNECT_DELAY_MS = 5_000;

/** Tells the listening workers, in the caller's transaction, that mail was queued. */
export async function notifyQueuedMail(trx: DbOrTransaction): Promise<void> {
  await notifyChannel(trx, CHANNEL);
}

/**
 * Calls `onQueued` whenever any instance commits queued mail, over a connection of its own.
 * A lost connection is made again after a pause; meanwhile the worker's poll still finds the
 * mail. Returns what stops listening.
 */
export function listenForQueuedMail(
  databaseUrl: string,
  onQueued: () => void,
  log: FastifyBaseLogger,
): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const reconnectLater = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_DELAY_MS).unref();
  };

  async function connect(): Promise<void> {
    const next = new (postgresDriver().Client)({ connectionString: databaseUrl });
    next.on('notification', onQueued);
    next.on('error', (error) => {
      log.warn({ err: error }, 'mail outbox: lost the PostgreSQL notification connection; reconnecting');
      void next.end().catch(() => undefined);
      reconnectLater();
    });
    try {
      await next.connect();
      await next.query(`listen ${CHANNEL}`);
      if (closed) await next.end();
      else client = next;
      // Mail queued while this connection was being made was not announced to it.
      onQueued();
    } catch (error) {
      log.warn({ err: error }, 'mail outbox: could not listen for queued mail; polling meanwhile');
      void next.end().catch(() => undefined);
      reconnectLater();
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
