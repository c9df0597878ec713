import type { Kysely } from 'kysely';

// Single sign-on through SAML 2.0 beside OpenID Connect (issue 32, item 3). An organisation's one
// provider says its `protocol`; a SAML provider keeps its identity provider's entity id in
// `issuer` (the Issuer its assertions carry), its sign-in URL and signing certificates here, and
// its group attribute in `group_claim`; the columns only OpenID Connect uses stay empty (''). A
// SAML sign-in under way is an `sso_sign_ins` row too: its state is the RelayState's hash, its
// `nonce` the AuthnRequest's ID (which the answer's InResponseTo must name), and `saml_identity`
// what the verified assertion said until the browser comes back with its cookie. Every assertion
// accepted is remembered until it expires, in the database so that no instance accepts it twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organisation_sso')
    .addColumn('protocol', 'text', (column) => column.notNull().defaultTo('oidc'))
    .execute();
  await db.schema.alterTable('organisation_sso').addColumn('saml_sso_url', 'text').execute();
  await db.schema.alterTable('organisation_sso').addColumn('saml_certificates', 'text').execute();
  await db.schema.alterTable('organisation_sso').addColumn('saml_metadata_url', 'text').execute();
  await db.schema
    .alterTable('sso_sign_ins')
    .addColumn('protocol', 'text', (column) => column.notNull().defaultTo('oidc'))
    .execute();
  await db.schema.alterTable('sso_sign_ins').addColumn('saml_identity', 'text').execute();

  await db.schema
    .createTable('saml_assertions')
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('assertion_id', 'text', (column) => column.notNull())
    .addColumn('accepted_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('saml_assertions_pkey', ['organisation_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('saml_assertions_expiry').on('saml_assertions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('saml_assertions').execute();
  await db.schema.alterTable('sso_sign_ins').dropColumn('saml_identity').execute();
  await db.schema.alterTable('sso_sign_ins').dropColumn('protocol').execute();
  await db.schema.alterTable('organisation_sso').dropColumn('saml_metadata_url').execute();
  await db.schema.alterTable('organisation_sso').dropColumn('saml_certificates').execute();
  await db.schema.alterTable('organisation_sso').dropColumn('saml_sso_url').execute();
  await db.schema.alterTable('organisation_sso').dropColumn('protocol').execute();
}
