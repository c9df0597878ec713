import type { Kysely } from 'kysely';

// SCIM 2.0 provisioning of organisations: one bearer token per organisation (hashed), the users and
// groups its identity provider pushes, and the groups' members. userName and externalId are unique
// within an organisation, which settles two pushes of the same person at once.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_tokens')
    .addColumn('organisation_id', 'text', (column) =>
      column.primaryKey().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('id', 'text', (column) => column.notNull().unique())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('last_four', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema
    .createTable('scim_users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('user_name', 'text', (column) => column.notNull())
    .addColumn('user_name_key', 'text', (column) => column.notNull())
    .addColumn('external_id', 'text')
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('display_name', 'text')
    .addColumn('given_name', 'text')
    .addColumn('family_name', 'text')
    .addColumn('active', 'integer', (column) => column.notNull())
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('scim_users_user_name_unique', ['organisation_id', 'user_name_key'])
    .addUniqueConstraint('scim_users_external_id_unique', ['organisation_id', 'external_id'])
    .execute();
  await db.schema
    .createIndex('scim_users_organisation_created')
    .on('scim_users')
    .columns(['organisation_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('scim_users_organisation_email')
    .on('scim_users')
    .columns(['organisation_id', 'email'])
    .execute();
  await db.schema
    .createTable('scim_groups')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('external_id', 'text')
    .addColumn('role', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('scim_groups_display_name_unique', ['organisation_id', 'display_name'])
    .execute();
  await db.schema
    .createTable('scim_group_members')
    .addColumn('group_id', 'text', (column) =>
      column.notNull().references('scim_groups.id').onDelete('cascade'),
    )
    .addColumn('scim_user_id', 'text', (column) =>
      column.notNull().references('scim_users.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'scim_user_id'])
    .execute();
  await db.schema
    .createIndex('scim_group_members_user')
    .on('scim_group_members')
    .column('scim_user_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scim_group_members').execute();
  await db.schema.dropTable('scim_groups').execute();
  await db.schema.dropTable('scim_users').execute();
  await db.schema.dropTable('scim_tokens').execute();
}
