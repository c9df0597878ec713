import type { Kysely } from 'kysely';

// Support requests sent from the portal's contact form: stored for administrators, and mailed
// through the outbox to SUPPORT_EMAIL with Reply-To the customer's address.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_requests')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // What the customer quotes, e.g. SR-7KQ2M4PX.
    .addColumn('reference', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    // The address replies go to, as it was when the request was sent.
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('topic', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('message', 'text', (column) => column.notNull())
    // The app and account information, only when the customer agreed to send it.
    .addColumn('diagnostics', 'text')
    .addColumn('handled_at', 'text')
    .addColumn('handled_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('support_requests_created_idx')
    .on('support_requests')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('support_requests_user_idx')
    .on('support_requests')
    .columns(['user_id', 'created_at'])
    .execute();

  // Mail a customer may answer by replying (a support request) says where replies go.
  await db.schema.alterTable('mail_outbox').addColumn('reply_to', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('reply_to').execute();
  await db.schema.dropTable('support_requests').execute();
}
