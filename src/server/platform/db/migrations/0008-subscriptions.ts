import type { Kysely } from 'kysely';

// Plans billed every month or year are bought as subscriptions: the provider charges each period and
// the license follows (extended on a charge, kept through a grace period after a failed one, then
// suspended). Each charge is a payment row, so history, revenue and invoices see every charge.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // The record outlives a deleted account, as payments do.
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('plan_id', 'text', (column) => column.notNull().references('plans.id'))
    .addColumn('license_id', 'text', (column) => column.references('licenses.id').onDelete('set null'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('provider_subscription_id', 'text', (column) => column.notNull().unique())
    .addColumn('status', 'text', (column) => column.notNull())
    // Every paid period is a cycle, numbered from 1. Periods are counted from the anchor (cycle
    // anchor_cycle + n ends at anchor + n intervals), so a subscription started on 31 January renews
    // on the last day of February and on 31 March again; a plan change sets a new anchor.
    .addColumn('anchor_at', 'text')
    .addColumn('anchor_cycle', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cycles', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('current_period_start', 'text')
    .addColumn('current_period_end', 'text')
    .addColumn('cancel_at_period_end', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cancel_requested_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('grace_ends_at', 'text')
    .addColumn('next_retry_at', 'text')
    .addColumn('failed_attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('payment_method', 'text')
    // The sandbox's stand-in for the customer's card: whether its next charge succeeds.
    .addColumn('sandbox_card', 'text')
    // What a move to a cheaper plan left over, taken off the next charges.
    .addColumn('credit_minor', 'integer', (column) => column.notNull().defaultTo(0))
    // Raised by every change, so a plan change confirmed against a stale quote is refused.
    .addColumn('version', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_user_idx')
    .on('subscriptions')
    .columns(['user_id', 'created_at'])
    .execute();
  // What the scheduler looks for: periods that end, grace periods that end, retries that are due.
  await db.schema
    .createIndex('subscriptions_period_end_idx')
    .on('subscriptions')
    .columns(['status', 'current_period_end'])
    .execute();
  await db.schema
    .createIndex('subscriptions_grace_idx')
    .on('subscriptions')
    .columns(['status', 'grace_ends_at'])
    .execute();

  await db.schema
    .alterTable('payments')
    .addColumn('subscription_id', 'text', (column) =>
      column.references('subscriptions.id').onDelete('set null'),
    )
    .execute();
  // purchase (one payment for one period or a lifetime), subscription (a subscription's charge).
  await db.schema
    .alterTable('payments')
    .addColumn('kind', 'text', (column) => column.notNull().defaultTo('purchase'))
    .execute();
  await db.schema.alterTable('payments').addColumn('period_start', 'text').execute();
  await db.schema.alterTable('payments').addColumn('period_end', 'text').execute();
  await db.schema
    .createIndex('payments_subscription_idx')
    .on('payments')
    .columns(['subscription_id', 'created_at'])
    .execute();

  // Why a license is suspended, told to its desktop app and its owner (an unpaid subscription, say).
  await db.schema.alterTable('licenses').addColumn('suspended_reason', 'text').execute();

  // One row per notice the scheduler has given (a reminder, a grace-ending mail): inserted in the
  // transaction that queues the mail, so a notice is given once however often, and by however many
  // instances, the scheduler runs.
  await db.schema
    .createTable('scheduled_notices')
    .addColumn('subject_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('occasion', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('scheduled_notices_pk', ['subject_id', 'kind', 'occasion'])
    .execute();

  // Our plans as the provider knows them (Razorpay bills a subscription against a plan of its own):
  // one per price, so a price change makes a new provider plan and running subscriptions keep theirs.
  await db.schema
    .createTable('provider_plans')
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('plan_id', 'text', (column) => column.notNull().references('plans.id'))
    .addColumn('price_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('billing_interval', 'text', (column) => column.notNull())
    .addColumn('provider_plan_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('provider_plans_pk', [
      'provider',
      'plan_id',
      'price_minor',
      'currency',
      'billing_interval',
    ])
    .execute();

  // Which server runs the scheduled work (renewal charges, grace periods, reminders): one at a time
  // across instances, taken over when the holder stops renewing its lease.
  await db.schema
    .createTable('scheduler_leases')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('holder', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scheduler_leases').execute();
  await db.schema.dropTable('provider_plans').execute();
  await db.schema.dropTable('scheduled_notices').execute();
  await db.schema.alterTable('licenses').dropColumn('suspended_reason').execute();
  await db.schema.dropIndex('payments_subscription_idx').execute();
  for (const column of ['period_end', 'period_start', 'kind', 'subscription_id'])
    await db.schema.alterTable('payments').dropColumn(column).execute();
  await db.schema.dropTable('subscriptions').execute();
}
