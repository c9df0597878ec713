import type { Kysely } from 'kysely';

// Issue 32's leftovers. A single sign-on the desktop app starts runs in the system browser, which
// holds no cookie of the app's: such a sign-in is bound instead to the app by a PKCE-like
// challenge (`desktop_challenge`, the SHA-256 of a verifier only the app's main process holds) and
// returns to the app's loopback listener on `desktop_port` (docs/architecture.md). A SAML
// provider's metadata read from a URL says when it was last read (`saml_metadata_read_at`): it is
// read again when its certificate no longer verifies an answer, at most once in five minutes.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sso_sign_ins').addColumn('desktop_challenge', 'text').execute();
  await db.schema.alterTable('sso_sign_ins').addColumn('desktop_port', 'integer').execute();
  await db.schema.alterTable('organisation_sso').addColumn('saml_metadata_read_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organisation_sso').dropColumn('saml_metadata_read_at').execute();
  await db.schema.alterTable('sso_sign_ins').dropColumn('desktop_port').execute();
  await db.schema.alterTable('sso_sign_ins').dropColumn('desktop_challenge').execute();
}
