import type { Kysely } from 'kysely';

// Mail domains organisations claim, the first step of single sign-on: each claim has its own
// random token, published by the organisation as a TXT record, and is verified once DNS shows it.
// Many organisations may claim a domain while pending; only one may hold it verified, which the
// unique index on `verified_domain` (set on verification, null before) holds under any race.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organisation_domains')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('domain', 'text', (column) => column.notNull())
    .addColumn('token', 'text', (column) => column.notNull())
    .addColumn('verified_domain', 'text', (column) => column.unique())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('check_failure', 'text')
    .addUniqueConstraint('organisation_domains_claim_unique', ['organisation_id', 'domain'])
    .execute();
  await db.schema
    .createIndex('organisation_domains_domain')
    .on('organisation_domains')
    .column('domain')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organisation_domains').execute();
}
