import type { Kysely } from 'kysely';

// What the outbox remembers of the request that queued a row: its request id (the X-Request-Id the
// request's log line has) and, with tracing on, its W3C traceparent. A mail or webhook event sent
// later carries the same id and its delivery's span continues the request's trace. Null on rows
// queued before, and on those queued off a request (the scheduler's reminders).

const tables = ['mail_outbox', 'webhook_events'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) {
    await db.schema.alterTable(table).addColumn('request_id', 'text').execute();
    await db.schema.alterTable(table).addColumn('traceparent', 'text').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) {
    await db.schema.alterTable(table).dropColumn('traceparent').execute();
    await db.schema.alterTable(table).dropColumn('request_id').execute();
  }
}
