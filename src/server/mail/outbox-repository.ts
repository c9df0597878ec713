import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db, DbOrTransaction, DialectName } from '../db/database.js';
import type { MailOutboxRow } from '../db/tables.js';
import type { MailMessage, MailRequest } from './message.js';

let lastIdMs = 0;
let idSequence = 0;

/**
 * Ids that sort in the order this process queued them (milliseconds, then a counter within
 * one), so the file outbox lists mails in order even when a test clock stands still.
 */
function timeOrderedId(): string {
  const ms = Math.max(Date.now(), lastIdMs);
  idSequence = ms === lastIdMs ? idSequence + 1 : 0;
  lastIdMs = ms;
  return `${ms.toString(16).padStart(12, '0')}-${idSequence.toString(16).padStart(4, '0')}-${randomBytes(6).toString('hex')}`;
}

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
  };
}

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
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      link: message.link ?? null,
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

/** Fills in a deferred mail's content; false when another worker already did (the caller rolls back). */
export async function fillMailContent(
  db: DbOrTransaction,
  id: string,
  message: MailMessage,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({
      recipient: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      link: message.link ?? null,
    })
    .where('id', '=', id)
    .where('subject', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends a mail without sending it: a deferred request that turned out to need no mail. */
export async function markMailDropped(db: DbOrTransaction, id: string): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ status: 'dropped', claimed_until: null })
    .where('id', '=', id)
    .where('subject', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markMailSent(db: DbOrTransaction, id: string, now: Date): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: 'sent', sent_at: now.toISOString(), claimed_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt: tried again at `retryAt`, or given up (`failed`) when that is null. */
export async function markMailAttemptFailed(
  db: DbOrTransaction,
  id: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: retryAt ? 'pending' : 'failed',
      ...(retryAt ? { next_attempt_at: retryAt.toISOString() } : {}),
      claimed_until: null,
      last_error: error.slice(0, 1000),
    })
    .where('id', '=', id)
    .execute();
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
