import type { Kysely } from 'kysely';

// Single sign-on through OpenID Connect, per organisation: its provider's settings (the client
// secret only encrypted), and the sign-ins under way. A sign-in's state, nonce and PKCE verifier
// are kept here, not in the browser, for minutes and for one callback; the callback then leaves a
// one-time hand-over code the portal trades for its session, as a password sign-in answers it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organisation_sso')
    .addColumn('organisation_id', 'text', (column) =>
      column.primaryKey().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('client_id', 'text', (column) => column.notNull())
    .addColumn('client_secret_encrypted', 'text', (column) => column.notNull())
    .addColumn('scopes', 'text', (column) => column.notNull())
    .addColumn('group_claim', 'text')
    .addColumn('role_mapping', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('require_sso', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('last_test_at', 'text')
    .addColumn('last_test_result', 'text')
    .execute();

  await db.schema
    .createTable('sso_sign_ins')
    .addColumn('state_hash', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('nonce', 'text', (column) => column.notNull())
    .addColumn('code_verifier', 'text', (column) => column.notNull())
    .addColumn('browser_hash', 'text', (column) => column.notNull())
    .addColumn('started_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('handoff_hash', 'text', (column) => column.unique())
    .addColumn('handoff_expires_at', 'text')
    .addColumn('user_id', 'text')
    .addColumn('outcome', 'text')
    .execute();
  await db.schema.createIndex('sso_sign_ins_expiry').on('sso_sign_ins').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_sign_ins').execute();
  await db.schema.dropTable('organisation_sso').execute();
}
