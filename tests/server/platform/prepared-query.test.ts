import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../src/server/platform/db/database.js';
import { preparedQuery } from '../../../src/server/platform/db/prepared-query.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from '../../support/databases.js';

// The settings table is the smallest the migrations make; these tests make their own beside it.
const rows = [
  { key: 'a', value: 'first', updated_at: '2026-01-01T00:00:00.000Z' },
  { key: 'b', value: 'second', updated_at: '2026-02-01T00:00:00.000Z' },
  { key: 'c', value: 'third', updated_at: '2026-03-01T00:00:00.000Z' },
];

// Module level, as the repositories hold theirs: one function serves both dialects in one process.
const byKey = preparedQuery((db, key: string) =>
  db.selectFrom('settings').selectAll().where('key', '=', key),
);
const byKeysSince = preparedQuery((db, first: string, second: string, since: string) =>
  db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', [first, second])
    .where('updated_at', '>=', since)
    // A value the query writes itself stays as it was written.
    .where('value', '!=', 'never')
    .orderBy('key'),
);

function definePreparedQuerySuite(dialect: DialectUnderTest) {
  let handle: DatabaseHandle;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portal-prepared-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    if (postgres) cleanups.push(postgres.drop);
    handle = createDatabase({ databaseUrl: postgres?.url, dataDir });
    cleanups.push(() => handle.db.destroy());
    await handle.db.schema
      .createTable('settings')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await handle.db.insertInto('settings').values(rows).execute();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('answers what the query built anew answers, value after value', async () => {
    for (const row of rows) expect(await byKey(handle.db, row.key)).toEqual([row]);
    expect(await byKey(handle.db, 'missing')).toEqual([]);
    expect(await byKeysSince(handle.db, 'c', 'a', '2026-01-15T00:00:00.000Z')).toEqual([
      { key: 'c', value: 'third' },
    ]);
    expect(await byKeysSince(handle.db, 'a', 'b', '2025-12-01T00:00:00.000Z')).toEqual(
      await handle.db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('key', 'in', ['a', 'b'])
        .orderBy('key')
        .execute(),
    );
  });

  it('runs inside a transaction, seeing its own writes', async () => {
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('settings').set({ value: 'changed' }).where('key', '=', 'b').execute();
        expect((await byKey(trx, 'b'))[0]?.value).toBe('changed');
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await byKey(handle.db, 'b'))[0]?.value).toBe('second');
  });

  it('binds a value that looks like SQL as a value', async () => {
    expect(await byKey(handle.db, "a' or '1'='1")).toEqual([]);
    const count = await sql<{ n: number | string }>`select count(*) as n from settings`.execute(handle.db);
    expect(Number(count.rows[0]?.n)).toBe(rows.length);
  });
}

describe('preparedQuery on SQLite', () => definePreparedQuerySuite('sqlite'));
describe.skipIf(!TEST_POSTGRES_URL)(
  `preparedQuery on PostgreSQL${TEST_POSTGRES_URL ? '' : ` (${postgresSkipReason})`}`,
  () => definePreparedQuerySuite('postgres'),
);

describe('preparedQuery refuses a build that does not use each value once', () => {
  let handle: DatabaseHandle;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-prepared-refused-'));
    handle = createDatabase({ databaseUrl: undefined, dataDir });
  });
  afterAll(async () => {
    await handle.db.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names the placeholder left out, and the one used twice', async () => {
    const unused = preparedQuery((db, _key: string) => db.selectFrom('settings').selectAll());
    await expect(unused(handle.db, 'a')).rejects.toThrow(/placeholder 0 exactly once/);
    const twice = preparedQuery((db, key: string) =>
      db.selectFrom('settings').selectAll().where('key', '=', key).where('value', '=', key),
    );
    await expect(twice(handle.db, 'a')).rejects.toThrow(/placeholder 0 exactly once/);
  });
});
