import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../../src/server/platform/db/database.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import {
  activatedMachine,
  activationRow,
  licenseSuiteOptions,
  statusOf,
} from '../helpers/license-helpers.js';

async function checkedMachine(s: TestServer) {
  s.clock.freeze();
  const { license, hw } = await activatedMachine(s);
  s.clock.advance(90_000);
  expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);
  return { license, hw, checkedAt: s.clock.now().toISOString() };
}

/** `last_seen_at` read over a connection of its own, after the server has closed its own. */
async function lastSeenAfterClose(s: TestServer, activationId: string): Promise<string | undefined> {
  if (s.dialect === 'sqlite') {
    const sqlite = new SqliteDatabase(join(s.config.dataDir, SQLITE_FILE_NAME), { readonly: true });
    try {
      const row = sqlite.prepare('SELECT last_seen_at FROM activations WHERE id = ?').get(activationId) as
        { last_seen_at: string } | undefined;
      return row?.last_seen_at;
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: s.config.databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ last_seen_at: string }>(
      'SELECT last_seen_at FROM activations WHERE id = $1',
      [activationId],
    );
    return result.rows[0]?.last_seen_at;
  } finally {
    await client.end();
  }
}

describeOnEveryDatabase(
  'heartbeats: written by the flush timer (HEARTBEAT_FLUSH_MINUTES=0.02)',
  (server) => {
    it('a check-in lands in the database within one flush interval, without any other request', async () => {
      const s = server();
      const { license, hw, checkedAt } = await checkedMachine(s);
      // The timer flushes every 1.2 s; the poll waits up to 10 s for it on a busy machine.
      await expect.poll(async () => (await activationRow(s, license.id, hw))?.last_seen_at).toBe(checkedAt);
    });
  },
  { env: { ...licenseSuiteOptions.env, HEARTBEAT_FLUSH_MINUTES: '0.02' } },
);

describeOnEveryDatabase(
  'heartbeats: a clean shutdown writes what is pending (HEARTBEAT_FLUSH_MINUTES=60)',
  (server) => {
    it('a check-in noted an hour before the next flush is in the database once the server has closed', async () => {
      const s = server();
      const { license, hw, checkedAt } = await checkedMachine(s);
      const before = await activationRow(s, license.id, hw);
      expect(before?.last_seen_at).not.toBe(checkedAt);
      await s.app.close();
      expect(await lastSeenAfterClose(s, before!.id)).toBe(checkedAt);
    });
  },
  { env: { ...licenseSuiteOptions.env, HEARTBEAT_FLUSH_MINUTES: '60' } },
);
