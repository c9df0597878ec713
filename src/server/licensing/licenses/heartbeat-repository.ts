import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import type { RawConnection } from '../../platform/db/database.js';
import type { HeartbeatWriter } from './heartbeats.js';

/** Rows per statement (PostgreSQL) or per transaction (SQLite): short locks, few round trips. */
const BATCH_ROWS = 500;

/**
 * The SQLite writer's thread, as source: a worker started from a file would need the TypeScript
 * loader under tsx and the tests, and this is plain JavaScript under every runner. It opens its
 * own connection, so the writes (each row dirties its own page) never block the event loop.
 */
const SQLITE_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const update = db.prepare('UPDATE activations SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?');
const writeBatch = db.transaction((rows) => {
  for (const [id, seenAt] of rows) update.run(seenAt, id, seenAt);
});
parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    for (let start = 0; start < message.rows.length; start += ${BATCH_ROWS})
      writeBatch(message.rows.slice(start, start + ${BATCH_ROWS}));
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String((error && error.message) || error) });
  }
});
`;

function sqliteHeartbeatWriter(file: string): HeartbeatWriter {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let sequence = 0;
  let closing = false;

  /** The writing thread; one that failed or stopped is replaced at the next write. */
  let current: { worker: Worker; exited: Promise<void> } | undefined;
  function thread() {
    if (current) return current;
    const worker = new Worker(SQLITE_WORKER_SOURCE, { eval: true, workerData: { driver, file } });
    // Idle between flushes the thread must not keep the process alive; while a write is in flight
    // it must, or a shutdown that awaits the last flush could end with nothing left to wait on.
    worker.unref();
    const failAll = (error: Error) => {
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    };
    worker.on('message', (message: { id: number; error?: string }) => {
      const request = waiting.get(message.id);
      waiting.delete(message.id);
      if (waiting.size === 0) worker.unref();
      if (message.error) request?.reject(new Error(`heartbeat write failed: ${message.error}`));
      else request?.resolve();
    });
    worker.on('error', failAll);
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', () => {
        failAll(new Error('the heartbeat writer stopped'));
        current = undefined;
        resolve();
      }),
    );
    current = { worker, exited };
    return current;
  }

  return {
    write(rows) {
      if (closing) return Promise.reject(new Error('the heartbeat writer is closed'));
      const { worker } = thread();
      const id = ++sequence;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, rows });
      });
    },
    async close() {
      closing = true;
      if (!current) return;
      const { worker, exited } = current;
      // Held until it has closed its connection, or the process could end before it does.
      worker.ref();
      worker.postMessage({ close: true });
      await exited;
    },
  };
}

/** `UPDATE … FROM (VALUES …)`: one statement per batch; each row only moves forward in time. */
function postgresHeartbeatWriter(pool: pg.Pool): HeartbeatWriter {
  return {
    async write(rows) {
      for (let start = 0; start < rows.length; start += BATCH_ROWS) {
        const batch = rows.slice(start, start + BATCH_ROWS);
        const values = batch.map((_row, index) => `($${index * 2 + 1}::text, $${index * 2 + 2}::text)`);
        await pool.query(
          `UPDATE activations AS a SET last_seen_at = v.seen_at
             FROM (VALUES ${values.join(', ')}) AS v(id, seen_at)
            WHERE a.id = v.id AND a.last_seen_at < v.seen_at`,
          batch.flat(),
        );
      }
    },
    close: () => Promise.resolve(),
  };
}

/** Where heartbeats are written: a worker thread with its own SQLite connection, or the PostgreSQL pool. */
export const createHeartbeatWriter = (raw: RawConnection): HeartbeatWriter =>
  raw.dialect === 'sqlite' ? sqliteHeartbeatWriter(raw.file) : postgresHeartbeatWriter(raw.pool);
