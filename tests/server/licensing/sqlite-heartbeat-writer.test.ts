import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDatabase,
  type DatabaseHandle,
  SQLITE_FILE_NAME,
} from '../../../src/server/platform/db/database.js';
import { migrateToLatest } from '../../../src/server/platform/db/migrate.js';
import { createHeartbeatWriter } from '../../../src/server/licensing/licenses/heartbeat-repository.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A migrated SQLite database holding one machine's activation (foreign keys set aside to insert it alone). */
async function databaseWithOneMachine(): Promise<{ handle: DatabaseHandle; file: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'heartbeat-writer-'));
  const handle = createDatabase({ databaseUrl: undefined, dataDir });
  await migrateToLatest(handle.db);
  const file = join(dataDir, SQLITE_FILE_NAME);
  const direct = new SqliteDatabase(file);
  direct.pragma('foreign_keys = OFF');
  direct
    .prepare(
      `INSERT INTO activations (id, license_id, hardware_id, activated_at, last_seen_at)
       VALUES ('machine-1', 'license-1', 'hw-1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    )
    .run();
  direct.close();
  cleanup = async () => {
    await handle.db.destroy();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { handle, file };
}

const lastSeen = (handle: DatabaseHandle) =>
  handle.db
    .selectFrom('activations')
    .select('last_seen_at')
    .where('id', '=', 'machine-1')
    .executeTakeFirstOrThrow();

describe('the SQLite heartbeat writer (a thread with its own connection)', () => {
  it('writes a batch, and never moves a check-in backwards', async () => {
    const { handle } = await databaseWithOneMachine();
    const writer = createHeartbeatWriter(handle.raw);
    await writer.write([['machine-1', '2026-01-02T00:00:00.000Z']]);
    expect((await lastSeen(handle)).last_seen_at).toBe('2026-01-02T00:00:00.000Z');
    await writer.write([['machine-1', '2026-01-01T12:00:00.000Z']]);
    expect((await lastSeen(handle)).last_seen_at).toBe('2026-01-02T00:00:00.000Z');
    await writer.close();
  });

  it('does not break a server transaction that read before the thread wrote (transactions begin immediate)', async () => {
    const { handle } = await databaseWithOneMachine();
    const writer = createHeartbeatWriter(handle.raw);
    let written: Promise<void> | undefined;
    await handle.db.transaction().execute(async (trx) => {
      await trx.selectFrom('settings').selectAll().execute();
      // The thread tries to write meanwhile; a deferred transaction would then fail to write
      // (SQLITE_BUSY_SNAPSHOT). One that took the write lock at its start makes the thread wait.
      written = writer.write([['machine-1', '2026-01-03T00:00:00.000Z']]);
      await Promise.race([written, sleep(300)]);
      await trx
        .insertInto('settings')
        .values({ key: 'probe', value: '1', updated_at: '2026-01-03T00:00:00.000Z' })
        .execute();
    });
    await written;
    expect((await lastSeen(handle)).last_seen_at).toBe('2026-01-03T00:00:00.000Z');
    await writer.close();
  });

  it('fails only the batch it cannot write: later batches are written', async () => {
    const { handle } = await databaseWithOneMachine();
    const writer = createHeartbeatWriter(handle.raw);
    // A batch the thread cannot write (not an array of rows).
    await expect(writer.write(null as unknown as [string, string][])).rejects.toThrow(
      'heartbeat write failed',
    );
    await writer.write([['machine-1', '2026-01-04T00:00:00.000Z']]);
    expect((await lastSeen(handle)).last_seen_at).toBe('2026-01-04T00:00:00.000Z');
    await writer.close();
  });
});
