import type { Kysely } from 'kysely';

// Updates through electron-updater: each release gets its channel, the SHA-512 the updater checks,
// a staged rollout (percentage, pause, yank), its notes and the counters the apps' checks feed; the
// machines that reported running a release are kept once each, so installs count machines.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  const columns: [name: string, type: 'text' | 'integer', value: string | number][] = [
    ['channel', 'text', 'stable'],
    ['rollout_percent', 'integer', 100],
    ['release_notes', 'text', ''],
    ['checks', 'integer', 0],
    ['downloads', 'integer', 0],
  ];
  for (const [name, type, value] of columns) {
    await db.schema
      .alterTable('releases')
      .addColumn(name, type, (column) => column.notNull().defaultTo(value))
      .execute();
  }
  // Null for installers published before updates existed: the feed cannot offer them, since the
  // updater refuses a file it has no checksum for.
  await db.schema.alterTable('releases').addColumn('sha512', 'text').execute();
  await db.schema.alterTable('releases').addColumn('paused_at', 'text').execute();
  await db.schema.alterTable('releases').addColumn('yanked_at', 'text').execute();

  await db.schema
    .createTable('release_installs')
    .addColumn('release_id', 'text', (column) =>
      column.notNull().references('releases.id').onDelete('cascade'),
    )
    .addColumn('activation_id', 'text', (column) =>
      column.notNull().references('activations.id').onDelete('cascade'),
    )
    .addColumn('first_reported_at', 'text', (column) => column.notNull())
    .addColumn('last_reported_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('release_installs_pk', ['release_id', 'activation_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('release_installs').ifExists().execute();
  for (const column of [
    'yanked_at',
    'paused_at',
    'sha512',
    'downloads',
    'checks',
    'release_notes',
    'rollout_percent',
    'channel',
  ]) {
    await db.schema.alterTable('releases').dropColumn(column).execute();
  }
}
