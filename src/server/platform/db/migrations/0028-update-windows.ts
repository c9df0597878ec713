import type { Kysely } from 'kysely';

// Perpetual licenses with an update window. A plan with `update_months` is perpetual: its license
// never expires and gets updates for that many months (`licenses.updates_until`). A plan with
// `renews_updates_of` is an update renewal: buying it moves the window of the buyer's license of
// that perpetual plan `update_months` further. Every existing plan and license has neither (null).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').addColumn('update_months', 'integer').execute();
  await db.schema.alterTable('plans').addColumn('renews_updates_of', 'text').execute();
  await db.schema.alterTable('licenses').addColumn('updates_until', 'text').execute();
  // The dashboard counts perpetual licenses by whether their window is open.
  await db.schema.createIndex('licenses_updates_until_idx').on('licenses').column('updates_until').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('licenses_updates_until_idx').execute();
  await db.schema.alterTable('licenses').dropColumn('updates_until').execute();
  await db.schema.alterTable('plans').dropColumn('renews_updates_of').execute();
  await db.schema.alterTable('plans').dropColumn('update_months').execute();
}
