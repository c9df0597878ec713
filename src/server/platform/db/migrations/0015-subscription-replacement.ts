import { type Kysely, sql } from 'kysely';

// Razorpay cannot move a subscription to another plan mid-period for most Indian cards, so a plan
// change there opens a new subscription to the new plan, which takes over the old one's license
// when its first charge is paid; the old one is then cancelled at Razorpay and the unused part of
// its period refunded. These columns link the two and record when Razorpay was told to stop
// charging. And a first-charge-only coupon on Razorpay is an upfront amount paid at authorisation,
// with Razorpay's own charges starting a period later: its charge count is then one behind ours.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('subscriptions')
    .addColumn('replaces_subscription_id', 'text', (column) => column.references('subscriptions.id'))
    .execute();
  // The credit the customer was quoted for the replaced subscription's unused period.
  await db.schema
    .alterTable('subscriptions')
    .addColumn('replacement_credit_minor', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  // On a replaced subscription: what is still to be refunded, until the provider's side is closed.
  await db.schema.alterTable('subscriptions').addColumn('closeout_refund_minor', 'integer').execute();
  await db.schema.alterTable('subscriptions').addColumn('provider_closed_at', 'text').execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('provider_cycle_offset', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  // Before this, a cancellation was sent to Razorpay when the customer asked: those are stopped there.
  await sql`
    update subscriptions set provider_closed_at = coalesce(cancel_requested_at, ended_at, updated_at)
    where provider <> 'sandbox' and (cancel_at_period_end = 1 or status = 'cancelled')
  `.execute(db);
  await db.schema
    .createIndex('subscriptions_replaces_idx')
    .on('subscriptions')
    .column('replaces_subscription_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('subscriptions_replaces_idx').execute();
  for (const column of [
    'provider_cycle_offset',
    'provider_closed_at',
    'closeout_refund_minor',
    'replacement_credit_minor',
    'replaces_subscription_id',
  ])
    await db.schema.alterTable('subscriptions').dropColumn(column).execute();
}
