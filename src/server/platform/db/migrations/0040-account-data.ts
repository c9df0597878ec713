import { type Kysely, sql } from 'kysely';

// The customers' own data (issue 34): archives of it they ask for, and the deletion of their
// account after a grace period. An export is a row the scheduler builds and that survives a
// restart; the archive (base64 of a tar.gz) stays with the row until its link expires, so any
// instance serves it. One export at a time per account: a unique index over the open ones.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    /** The administrator who asked for it; null when the customer did. */
    .addColumn('requested_by', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('progress', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('claimed_until', 'text')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('token_hash', 'text', (col) => col.unique())
    .addColumn('archive', 'text')
    .addColumn('archive_bytes', 'integer')
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('data_exports_one_open')
    .on('data_exports')
    .column('user_id')
    .unique()
    .where(sql.ref('status'), 'in', ['queued', 'building'])
    .execute();
  await db.schema
    .createIndex('data_exports_user')
    .on('data_exports')
    .columns(['user_id', 'created_at'])
    .execute();

  // When the account is to be erased (null: not asked), and when it was.
  await db.schema.alterTable('users').addColumn('deletion_due_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('erased_at', 'text').execute();
  await db.schema.createIndex('users_deletion_due').on('users').column('deletion_due_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_deletion_due').execute();
  await db.schema.alterTable('users').dropColumn('erased_at').execute();
  await db.schema.alterTable('users').dropColumn('deletion_due_at').execute();
  await db.schema.dropTable('data_exports').execute();
}
