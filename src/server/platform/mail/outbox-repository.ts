import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import { timeOrderedId } from '../ids.js';
import type { Db, DbOrTransaction, DialectName } from '../db/database.js';
import type { MailOutboxRow } from '../db/tables.js';
import type { OutboxBacklog } from '../outbox-consumer.js';
import { requestOrigin } from '../tracing/request-scope.js';
import { utc } from '../../../shared/dates.js';
import { storeAttachments } from './attachments.js';
import type { MailMessage, MailRequest } from './message.js';

function newRow(clock: Clock, messageIdDomain: string, kind: string, to: string) {
  const id = timeOrderedId();
  const now = clock.now().toISOString();
  return {
    id,
    message_id: `<${id}@${messageIdDomain}>`,
    kind,
    recipient: to,
    status: 'pending' as const,
    next_attempt_at: now,
    created_at: now,
    // The request queuing it: the mail's X-Request-Id, and its sending continues the request's trace.
    ...requestOrigin(),
  };
}

/** A worker's hold on a queued mail: every write of its outcome checks the hold is still its own. */
export type MailClaim = Pick<MailOutboxRow, 'id' | 'claimed_until'>;

/** The columns that hold a mail's decided content. */
const messageColumns = (message: MailMessage) => ({
  subject: message.subject,
  text_body: message.text,
  html_body: message.html ?? null,
  link: message.link ?? null,
  unsubscribe_url: message.unsubscribeUrl ?? null,
  reply_to: message.replyTo ?? null,
  attachments: storeAttachments(message.attachments),
});

/** Queues a mail in the caller's transaction: it is sent if and only if that transaction commits. */
export async function insertMail(
  db: DbOrTransaction,
  clock: Clock,
  messageIdDomain: string,
  message: MailMessage,
): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({
      ...newRow(clock, messageIdDomain, message.kind, message.to),
      ...messageColumns(message),
    })
    .execute();
}

/** Queues a mail whose content the worker decides when it first takes it (see {@link MailRequest}). */
export async function insertMailRequest(
  db: DbOrTransaction,
  clock: Clock,
  messageIdDomain: string,
  request: MailRequest,
): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({
      ...newRow(clock, messageIdDomain, request.kind, request.to),
      request: JSON.stringify(request.details ?? {}),
    })
    .execute();
}

/**
 * Takes up to `limit` due mails for one worker until `claimedUntil`, counting the attempt. On
 * PostgreSQL rows another instance is taking are skipped rather than waited for; SQLite runs one
 * write at a time, so the statement alone is enough there. A worker that dies holding rows
 * leaves them to be taken again once the claim runs out.
 */
export async function claimDueMails(
  db: Db,
  dialect: DialectName,
  now: Date,
  claimedUntil: Date,
  limit: number,
): Promise<MailOutboxRow[]> {
  const nowIso = now.toISOString();
  const due = db
    .selectFrom('mail_outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', nowIso)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked());
  const claimed = await db
    .updateTable('mail_outbox')
    .set((eb) => ({ claimed_until: claimedUntil.toISOString(), attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return claimed.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The mail not sent yet (pending, retries included) and when the oldest of it was queued. */
export async function mailBacklog(db: Db): Promise<OutboxBacklog> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => [eb.fn.countAll<number | string>().as('depth'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { depth: Number(row.depth), oldestQueuedAt: row.oldest };
}

/** Fills in a deferred mail's content; false when another worker already did (the caller rolls back). */
export async function fillMailContent(
  db: DbOrTransaction,
  claim: MailClaim,
  message: MailMessage,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({
      recipient: message.to,
      ...messageColumns(message),
    })
    .where('id', '=', claim.id)
    .where('claimed_until', '=', claim.claimed_until)
    .where('subject', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends a mail without sending it: a deferred request that turned out to need no mail. */
export async function markMailDropped(db: DbOrTransaction, claim: MailClaim): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ status: 'dropped', claimed_until: null })
    .where('id', '=', claim.id)
    .where('claimed_until', '=', claim.claimed_until)
    .where('subject', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a sent mail, forgetting its body and files: a link in it opens an account for a while, and the
 * database keeps only hashes of such tokens. False when the claim ran out and another worker
 * took the mail meanwhile.
 */
export async function markMailSent(db: DbOrTransaction, claim: MailClaim, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({
      status: 'sent',
      sent_at: now.toISOString(),
      claimed_until: null,
      last_error: null,
      text_body: null,
      html_body: null,
      link: null,
      // Files given as bytes (a diagnostics block) are the customer's: not kept once sent.
      attachments: null,
    })
    .where('id', '=', claim.id)
    .where('claimed_until', '=', claim.claimed_until)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a failed attempt: tried again at `retryAt`, or given up (`failed`) when that is null.
 * A deferred mail forgets what it was to say, so its next attempt (or the operator's retry,
 * hours later) makes a fresh link instead of sending one that may have expired.
 */
export async function markMailAttemptFailed(
  db: DbOrTransaction,
  claim: MailClaim & { request: string | null },
  error: string,
  retryAt: Date | null,
): Promise<void> {
  const forget =
    claim.request === null
      ? {}
      : {
          subject: null,
          text_body: null,
          html_body: null,
          link: null,
          unsubscribe_url: null,
          attachments: null,
        };
  await db
    .updateTable('mail_outbox')
    .set({
      ...forget,
      status: retryAt ? 'pending' : 'failed',
      ...(retryAt ? { next_attempt_at: retryAt.toISOString() } : {}),
      claimed_until: null,
      last_error: error.slice(0, 1000),
    })
    .where('id', '=', claim.id)
    .where('claimed_until', '=', claim.claimed_until)
    .execute();
}

/** Gives back mail this worker took but did not get to (it is closing). */
export async function releaseMailClaims(db: DbOrTransaction, claims: MailClaim[]): Promise<void> {
  for (const claim of claims) {
    await db
      .updateTable('mail_outbox')
      .set({ claimed_until: null })
      .where('id', '=', claim.id)
      .where('claimed_until', '=', claim.claimed_until)
      .execute();
  }
}

/**
 * Deletes sent and dropped mail older than `days` (RETENTION_MAIL_DAYS, a week: long enough to
 * answer "did my mail go out?"); failed mail stays for the operator.
 */
export async function pruneMailOutbox(db: DbOrTransaction, clock: Clock, days: number): Promise<number> {
  const result = await db
    .deleteFrom('mail_outbox')
    .where('status', 'in', ['sent', 'dropped'])
    .where('created_at', '<', utc(clock.now()).subtract(days, 'day').toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Puts mails that ran out of attempts back in the queue (the operator fixed the mail server). */
export async function requeueFailedMails(db: DbOrTransaction, now: Date): Promise<number> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now.toISOString(), claimed_until: null })
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** PostgreSQL's NOTIFY on `channel`, sent when (and only if) the caller's transaction commits. */
export async function notifyChannel(trx: DbOrTransaction, channel: string): Promise<void> {
  await sql`select pg_notify(${channel}, '')`.execute(trx);
}
