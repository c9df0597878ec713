import type { Kysely } from 'kysely';

// Machine trials: the desktop app tries a plan before any account exists, named by its hardware id
// alone. Kept forever like `license_trials` (no foreign keys): one per machine and plan, a unique
// index, so a reinstall or two starts at once, on any number of servers, find the same trial.
// When the machine's person starts the account trial from it, or a paid license is activated on
// it, the trial is claimed by that license (`claimed_license_id`); it is never started again.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('machine_trials')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('hardware_id', 'text', (column) => column.notNull())
    .addColumn('plan_id', 'text', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('ends_at', 'text', (column) => column.notNull())
    .addColumn('claimed_license_id', 'text')
    .addColumn('claimed_at', 'text')
    .execute();
  await db.schema
    .createIndex('machine_trials_machine_plan')
    .on('machine_trials')
    .columns(['hardware_id', 'plan_id'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('machine_trials').execute();
}
