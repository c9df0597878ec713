import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { createDatabase } from '../../../src/server/platform/db/database.js';
import { migrateToLatest, migrations } from '../../../src/server/platform/db/migrate.js';

/**
 * Migration 0024 on SQLite databases seeded before it: the Business plan's description, as 0019
 * seeded it, is written in US English; one an administrator has rewritten is theirs and stays.
 */
const description = async (edited: string | null) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-0024-'));
  const { db } = createDatabase({ databaseUrl: undefined, dataDir });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0023-seat-keys')).error).toBeUndefined();
    const seeded = await db
      .selectFrom('plans')
      .select('description')
      .where('code', '=', 'business-monthly')
      .executeTakeFirstOrThrow();
    expect(seeded.description).toContain('For organisations:');
    if (edited !== null)
      await db
        .updateTable('plans')
        .set({ description: edited })
        .where('code', '=', 'business-monthly')
        .execute();
    await migrateToLatest(db);
    const row = await db
      .selectFrom('plans')
      .select('description')
      .where('code', '=', 'business-monthly')
      .executeTakeFirstOrThrow();
    return row.description;
  } finally {
    await db.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
};

it('0024 writes the seeded Business plan description in US English', async () => {
  expect(await description(null)).toBe(
    'For organizations: named seats you assign to people, two machines each, unlimited chat and priority support. Priced per seat.',
  );
});

it('0024 leaves a Business plan description an administrator rewrote', async () => {
  expect(await description('Teams of organisations, our way')).toBe('Teams of organisations, our way');
});
