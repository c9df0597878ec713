import type { Kysely } from 'kysely';

// A plan an administrator creates is a draft (1) until it is published with its features: drafts
// are neither listed nor sold. Plans that exist already are on sale, so they start published (0);
// so does a row written without the column, as the default catalogue and fixtures write them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('draft', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('draft').execute();
}
