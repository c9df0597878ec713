import type { Kysely } from 'kysely';

// Free trials without a card. A plan offers `trial_days` (0: none). A trial license is an ordinary
// license whose `trial_ends_at` is set (its expiry is the trial's end) until it is bought, when the
// column is cleared. `license_trials` remembers every trial ever started, with no foreign keys, so
// deleting the license or the account does not make room for another trial: one per account and
// plan, per person (the SHA-256 of the normalised e-mail address) and plan, and per machine and
// plan, each a unique index, so two starts at once, on any number of servers, make one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('trial_days', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('licenses').addColumn('trial_ends_at', 'text').execute();
  await db.schema
    .createTable('license_trials')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('plan_id', 'text', (column) => column.notNull())
    .addColumn('person_hash', 'text', (column) => column.notNull())
    .addColumn('hardware_id', 'text')
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('ends_at', 'text', (column) => column.notNull())
    .addColumn('converted_at', 'text')
    .execute();
  await db.schema
    .createIndex('license_trials_account_plan')
    .on('license_trials')
    .columns(['user_id', 'plan_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('license_trials_person_plan')
    .on('license_trials')
    .columns(['person_hash', 'plan_id'])
    .unique()
    .execute();
  // Null hardware ids (a trial started on the web) are distinct in a unique index on both engines.
  await db.schema
    .createIndex('license_trials_machine_plan')
    .on('license_trials')
    .columns(['hardware_id', 'plan_id'])
    .unique()
    .execute();
  // The reminders' and the expiry's pass over the trials still running.
  await db.schema.createIndex('licenses_trial_ends_at').on('licenses').column('trial_ends_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('licenses_trial_ends_at').execute();
  await db.schema.dropTable('license_trials').execute();
  await db.schema.alterTable('licenses').dropColumn('trial_ends_at').execute();
  await db.schema.alterTable('plans').dropColumn('trial_days').execute();
}
