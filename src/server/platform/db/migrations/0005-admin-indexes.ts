import type { Kysely } from 'kysely';

// Indexes for the filters and default orders of the admin lists (`/admin/users`, `/admin/licenses`,
// `/admin/security-events`) that the earlier migrations do not already cover.

const indexes = [
  { name: 'users_status_created_idx', table: 'users', columns: ['status', 'created_at'] },
  { name: 'licenses_created_idx', table: 'licenses', columns: ['created_at', 'id'] },
  { name: 'licenses_status_created_idx', table: 'licenses', columns: ['status', 'created_at'] },
  // "Events of a user" matches the account concerned or the actor.
  { name: 'security_events_actor_idx', table: 'security_events', columns: ['actor_id'] },
  {
    name: 'security_events_severity_created_idx',
    table: 'security_events',
    columns: ['severity', 'created_at'],
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of indexes) {
    await db.schema.createIndex(index.name).on(index.table).columns(index.columns).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of indexes.toReversed()) await db.schema.dropIndex(index.name).ifExists().execute();
}
