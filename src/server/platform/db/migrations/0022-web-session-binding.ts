import type { Kysely } from 'kysely';

// A web session's refresh tokens are bound to an HttpOnly cookie: the session keeps the SHA-256 of
// the cookie's random secret, and a refresh without the matching cookie is refused. Null for
// sessions of other clients (the desktop keeps its token in the main process).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_token_families').addColumn('binding_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_token_families').dropColumn('binding_hash').execute();
}
