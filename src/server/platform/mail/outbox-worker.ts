import { trace } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db, DbOrTransaction, DialectName } from '../db/database.js';
import type { MailOutboxRow } from '../db/tables.js';
import { createOutboxConsumer, type WatchedOutbox } from '../outbox-consumer.js';
import { failSpan, inSpan, TRACING_OFF, type Tracing } from '../tracing/tracing.js';
import { type AttachmentResolvers, readStoredAttachments } from './attachments.js';
import type { MailTransport } from './mail-transport.js';
import type { MailMessage, MailRequest } from './message.js';
import {
  claimDueMails,
  fillMailContent,
  markMailAttemptFailed,
  markMailDropped,
  mailBacklog,
  markMailSent,
  releaseMailClaims,
} from './outbox-repository.js';

/** Decides a deferred mail's content in the worker's transaction; null sends nothing. */
export type MailPreparer = (trx: DbOrTransaction, request: MailRequest) => Promise<MailMessage | null>;

export interface MailOutboxSettings {
  /** How often the queue is looked at for mail queued by other instances or due for a retry. */
  pollIntervalMs: number;
  /** Attempts before a mail is given up as `failed` (it stays in the table, see the CLI). */
  maxAttempts: number;
}

export interface MailOutboxWorker extends WatchedOutbox {
  /**
   * Starts polling and looks at the queue at once, for mail left queued when the server last
   * stopped. Separate from creation because the calls that queue mail need the worker's `wake`,
   * and the preparers of deferred mail come from those same calls.
   */
  start(preparers: Record<string, MailPreparer>): void;
  /** Looks at the queue now instead of at the next poll. */
  wake(): void;
  /** Sends everything that is due and waits until the queue has nothing due (tests, shutdown). */
  drain(): Promise<void>;
  /** Stops polling and waits for the mail being sent; what is left stays queued for the next start. */
  close(): Promise<void>;
}

// A send that has not finished by its deadline counts as failed; the claim outlasts it, so a
// slow send is never taken over by another worker while it is still going.
const SEND_DEADLINE_MS = 2 * 60_000;
const CLAIM_MS = 5 * 60_000;
const BATCH_SIZE = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;

/** 30 s, 1 min, 2 min … up to an hour between attempts, spread by ±20 % so retries do not bunch. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}

class StaleClaim extends Error {}

/**
 * Sends the mail queued in `mail_outbox`, at least once each: a mail is marked sent only after
 * the transport took it, so a crash in between sends it again on restart (with the same
 * Message-ID, which mail clients fold into one). Failures are retried with backoff.
 */
export function createMailOutboxWorker(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  transport: MailTransport;
  settings: MailOutboxSettings;
  log: FastifyBaseLogger;
  /** Turn attachment references into bytes at send time (see attachments.ts). */
  attachments: AttachmentResolvers;
  /** Each sending is a span continuing the trace of the request that queued the mail. */
  tracing?: Tracing;
}): MailOutboxWorker {
  const { db, clock, transport, settings, log } = deps;
  const { tracer } = deps.tracing ?? TRACING_OFF;
  let preparers: Record<string, MailPreparer> | undefined;

  /** Decides a deferred mail's content, or drops it; null when there is nothing to send. */
  async function prepare(row: MailOutboxRow): Promise<MailMessage | null> {
    const preparer = preparers?.[row.kind];
    if (!preparer) throw new Error(`no preparer for deferred mail of kind ${row.kind}`);
    const details = JSON.parse(row.request ?? '{}') as Record<string, string>;
    return db.transaction().execute(async (trx) => {
      const prepared = await preparer(trx, { kind: row.kind, to: row.recipient, details });
      const stored = prepared ? await fillMailContent(trx, row, prepared) : await markMailDropped(trx, row);
      // Another worker took the row over and decided it first: undo what this one wrote.
      if (!stored) throw new StaleClaim();
      return prepared;
    });
  }

  const deliver = (row: MailOutboxRow) =>
    inSpan(
      tracer,
      `mail ${row.kind}`,
      {
        traceparent: row.traceparent,
        attributes: {
          'mail.kind': row.kind,
          ...(row.request_id ? { 'http.request.id': row.request_id } : {}),
        },
      },
      () => attemptToSend(row),
    );

  async function attemptToSend(row: MailOutboxRow): Promise<void> {
    try {
      const message = row.subject === null ? await prepare(row) : storedMessage(row);
      if (!message) return;
      // Inside the deadline too: a resolver that hangs (a PDF that never renders) fails the attempt.
      await within(SEND_DEADLINE_MS, async () => {
        const attachments = await deps.attachments.resolve(db, message.attachments ?? []);
        await transport.send({
          ...message,
          id: row.id,
          messageId: row.message_id,
          attachments,
          requestId: row.request_id,
        });
      });
    } catch (error) {
      if (error instanceof StaleClaim) return;
      await recordFailure(row, error);
      return;
    }
    // Apart from the send: a mail that went out is never counted as a failed attempt.
    const recorded = await markMailSent(db, row, clock.now()).catch((error: unknown) => {
      log.warn({ mail: row.id, err: error }, 'mail sent but not recorded; it may be sent again');
      return true;
    });
    if (!recorded)
      log.warn({ mail: row.id }, 'mail sent after its claim ran out; another worker may send it too');
  }

  async function recordFailure(row: MailOutboxRow, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    const retryAt =
      row.attempts < settings.maxAttempts
        ? new Date(clock.now().getTime() + retryDelayMs(row.attempts))
        : null;
    const failure = { mail: row.id, kind: row.kind, attempt: row.attempts, err: error };
    failSpan(trace.getActiveSpan(), error);
    if (retryAt) log.warn({ ...failure, retry_at: retryAt.toISOString() }, 'mail not sent; will retry');
    else log.error(failure, 'mail not sent; attempts used up, left in the outbox as failed');
    await markMailAttemptFailed(db, row, reason, retryAt).catch((markError: unknown) =>
      // The claim runs out and the mail is tried again: nothing is lost.
      log.warn({ mail: row.id, err: markError }, 'could not record a failed mail attempt'),
    );
  }

  /** A send that takes longer than the deadline counts as failed, well before the claim runs out. */
  async function within(deadlineMs: number, send: () => Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer from the mail server within ${deadlineMs} ms`)),
        deadlineMs,
      );
    });
    try {
      await Promise.race([send(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  const consumer = createOutboxConsumer({
    queue: {
      claim: (now, claimedUntil) => claimDueMails(db, deps.dialect, now, claimedUntil, BATCH_SIZE),
      // A failed mail is recorded and retried on its own; the next one is sent all the same.
      process: (row) => deliver(row).then(() => true),
      release: (rows) => releaseMailClaims(db, rows),
      backlog: () => mailBacklog(db),
    },
    clock,
    claimMs: CLAIM_MS,
    pollIntervalMs: settings.pollIntervalMs,
    // Closing: what this worker took but did not start goes back to the queue at once.
    releaseUntriedOnClose: true,
    log,
    name: 'mail outbox',
    kind: 'mail',
  });

  return {
    kind: consumer.kind,
    alive: consumer.alive,
    backlog: consumer.backlog,
    start(given) {
      preparers = given;
      consumer.start();
    },
    wake: consumer.wake,
    drain: consumer.drain,
    async close() {
      await consumer.close();
      transport.close();
    },
  };
}

/** The content a queued mail was given when it was queued or prepared. */
function storedMessage(row: MailOutboxRow): MailMessage {
  return {
    kind: row.kind,
    to: row.recipient,
    subject: row.subject ?? '',
    text: row.text_body ?? '',
    ...(row.html_body === null ? {} : { html: row.html_body }),
    ...(row.link === null ? {} : { link: row.link }),
    ...(row.unsubscribe_url === null ? {} : { unsubscribeUrl: row.unsubscribe_url }),
    ...(row.reply_to === null ? {} : { replyTo: row.reply_to }),
    attachments: readStoredAttachments(row.attachments),
  };
}
