import { sql } from 'kysely';
import type { DbOrTransaction } from '../db/database.js';

/** The cheapest statement that proves the database answers; rejects when it does not. */
export async function pingDatabase(db: DbOrTransaction): Promise<void> {
  await sql`select 1`.execute(db);
}
