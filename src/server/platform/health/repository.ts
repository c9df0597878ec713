import { sql } from 'kysely';
import type { DbOrTransaction } from '../db/database.js';

/** The cheapest statement that proves the database answers; rejects when it does not. */
export async function pingDatabase(db: DbOrTransaction): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The migrations the database has applied, by name (Kysely's own bookkeeping table). */
export async function appliedMigrationNames(db: DbOrTransaction): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return new Set(rows.map((row) => row.name));
}
