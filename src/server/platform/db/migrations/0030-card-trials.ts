import type { Kysely } from 'kysely';

// Card trials: a subscription checked out with a trial of its plan is authorised at checkout and
// charged first at `trial_ends_at`; until then it is active with no paid cycle, and its trial
// license (source 'card' in `license_trials`) is converted by that first charge. Null for every
// subscription without a trial. `trial_hardware_id` keeps the machine the checkout was opened on
// (the desktop's), so the one-trial-per-machine rule holds when the card is authorised later.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('trial_ends_at', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('trial_hardware_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('trial_hardware_id').execute();
  await db.schema.alterTable('subscriptions').dropColumn('trial_ends_at').execute();
}
