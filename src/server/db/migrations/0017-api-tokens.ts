import type { Kysely } from 'kysely';

// Reserved: the tables arrive with the change that uses them.
export async function up(_db: Kysely<unknown>): Promise<void> {}
