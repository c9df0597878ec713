import type { Kysely } from 'kysely';

// Migrations take Kysely<unknown>: they describe the schema as it was then, not today's types.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull().defaultTo('user'))
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
    .addColumn('full_name', 'text')
    .addColumn('company', 'text')
    .addColumn('preferences', 'text', (column) => column.notNull())
    .addColumn('email_verified_at', 'text')
    .addColumn('password_changed_at', 'text')
    .addColumn('session_version', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('users_role_idx').on('users').column('role').execute();
  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();

  await db.schema
    .createTable('refresh_token_families')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();
  // By user (revoking every session) and by user and address (is this a known sign-in address?).
  await db.schema
    .createIndex('refresh_token_families_user_ip_idx')
    .on('refresh_token_families')
    .columns(['user_id', 'ip'])
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('family_id', 'text', (column) =>
      column.notNull().references('refresh_token_families.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('email_tokens_user_purpose_idx')
    .on('email_tokens')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('security_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('severity', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('details', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('security_events_created_idx')
    .on('security_events')
    .column('created_at')
    .execute();
  await db.schema
    .createIndex('security_events_type_created_idx')
    .on('security_events')
    .columns(['type', 'created_at'])
    .execute();
  await db.schema.createIndex('security_events_user_idx').on('security_events').column('user_id').execute();

  await db.schema
    .createTable('login_throttles')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('failures', 'integer', (column) => column.notNull())
    .addColumn('first_failure_at', 'text', (column) => column.notNull())
    .addColumn('locked_until', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'login_throttles',
    'security_events',
    'email_tokens',
    'refresh_tokens',
    'refresh_token_families',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
