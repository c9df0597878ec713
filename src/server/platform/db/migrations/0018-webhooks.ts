import type { Kysely } from 'kysely';

// Outgoing webhooks: the endpoints administrators register, the events the changes queued (in
// their own transaction), one delivery per endpoint and event, and every attempt of a delivery.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    // JSON array of event types, e.g. ["license.created","payment.paid"].
    .addColumn('event_types', 'text', (column) => column.notNull())
    // whsec_ + base64: the receiver needs the very same secret to verify, so it is kept, not hashed.
    .addColumn('secret', 'text', (column) => column.notNull())
    // After a rotation the old secret signs too until it expires, so receivers can switch over.
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    // Null while enabled; set by an administrator or after repeated failures (disabled_reason).
    .addColumn('disabled_at', 'text')
    .addColumn('disabled_reason', 'text')
    // Deliveries failed in a row since the last success, and when the first of them failed.
    .addColumn('consecutive_failures', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('failing_since', 'text')
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('webhook_events')
    // msg_…: the webhook-id every delivery and redelivery of the event carries.
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('type', 'text', (column) => column.notNull())
    // The exact JSON that is signed and sent: { type, timestamp, data }.
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_events_created_idx')
    .on('webhook_events')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('endpoint_id', 'text', (column) =>
      column.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (column) =>
      column.notNull().references('webhook_events.id').onDelete('cascade'),
    )
    // The delivery an administrator asked to send again (same event, so the same webhook-id).
    .addColumn('redelivery_of', 'text')
    // pending, succeeded or failed (attempts used up).
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  // What the worker looks for, and an endpoint's log newest first.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event_idx')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('delivery_id', 'text', (column) =>
      column.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('url', 'text', (column) => column.notNull())
    // JSON object of the headers sent and received.
    .addColumn('request_headers', 'text', (column) => column.notNull())
    .addColumn('request_body', 'text', (column) => column.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    // The first few kilobytes of what the endpoint answered.
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    // When the next attempt is due after this failed one; null after a success or the last one.
    .addColumn('next_attempt_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery_idx')
    .on('webhook_attempts')
    .columns(['delivery_id', 'attempt'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
