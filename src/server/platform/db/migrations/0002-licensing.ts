import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('features')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('key', 'text', (column) => column.notNull().unique())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('period', 'text')
    .addColumn('unit', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('code', 'text', (column) => column.notNull().unique())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('price_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('billing_interval', 'text', (column) => column.notNull())
    .addColumn('max_activations', 'integer', (column) => column.notNull())
    .addColumn('is_public', 'integer', (column) => column.notNull())
    .addColumn('is_active', 'integer', (column) => column.notNull())
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    .addColumn('archived_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('plan_features')
    .addColumn('plan_id', 'text', (column) => column.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('feature_id', 'text', (column) => column.notNull().references('features.id'))
    .addColumn('limit_value', 'integer')
    .addPrimaryKeyConstraint('plan_features_pk', ['plan_id', 'feature_id'])
    .execute();
  await db.schema.createIndex('plan_features_feature_idx').on('plan_features').column('feature_id').execute();

  await db.schema
    .createTable('licenses')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_key', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (column) => column.notNull().references('plans.id'))
    .addColumn('subscription_id', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('max_activations', 'integer', (column) => column.notNull())
    .addColumn('base_owner_id', 'text', (column) => column.unique())
    .addColumn('metadata', 'text')
    .addColumn('revoked_reason', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('licenses_user_idx')
    .on('licenses')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('licenses_plan_idx').on('licenses').columns(['plan_id', 'status']).execute();

  await db.schema
    .createTable('activations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('hardware_id', 'text', (column) => column.notNull())
    .addColumn('device_name', 'text')
    .addColumn('platform', 'text')
    .addColumn('app_version', 'text')
    .addColumn('activated_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addColumn('deactivated_at', 'text')
    .addColumn('deactivated_reason', 'text')
    .addUniqueConstraint('activations_license_hardware_key', ['license_id', 'hardware_id'])
    .execute();

  await db.schema
    .createTable('usage_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('amount', 'integer', (column) => column.notNull())
    .addColumn('data', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('usage_events_license_created_idx')
    .on('usage_events')
    .columns(['license_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('usage_events_feature_created_idx')
    .on('usage_events')
    .columns(['feature_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('usage_counters')
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('period_start', 'text', (column) => column.notNull())
    .addColumn('total', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_counters_pk', ['license_id', 'feature_id', 'period_start'])
    .execute();

  await db.schema
    .createTable('releases')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('platform', 'text', (column) => column.notNull())
    .addColumn('version', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'integer', (column) => column.notNull())
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('published_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('releases_platform_version_key', ['platform', 'version'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'settings',
    'releases',
    'usage_counters',
    'usage_events',
    'activations',
    'licenses',
    'plan_features',
    'plans',
    'features',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
