import type { Kysely } from 'kysely';

// The customer's mail: files sent with a queued mail and the one-click unsubscribe link of
// optional mail; and, per account, the devices and networks it signed in from, so a sign-in
// from a new one can be told to its owner.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mail_outbox')
    // JSON list: a reference resolved when sent (an invoice PDF), or the bytes as base64.
    .addColumn('attachments', 'text')
    .execute();
  await db.schema.alterTable('mail_outbox').addColumn('unsubscribe_url', 'text').execute();

  await db.schema
    .createTable('sign_in_sources')
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    // 'device' (browser and system, e.g. "Chrome on Linux") or 'network' (the address's /24 or /64).
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('first_seen_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('sign_in_sources_pk', ['user_id', 'kind', 'value'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_sources').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('unsubscribe_url').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('attachments').execute();
}
