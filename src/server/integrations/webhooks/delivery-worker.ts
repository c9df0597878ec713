import type { Span } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import { portalPaths } from '../../../shared/routes.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction, DialectName } from '../../platform/db/database.js';
import type {
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEventRow,
} from '../../platform/db/tables-webhooks.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { createOutboxConsumer, type WatchedOutbox } from '../../platform/outbox-consumer.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import {
  currentTraceparent,
  failSpan,
  inSpan,
  TRACING_OFF,
  type Tracing,
} from '../../platform/tracing/tracing.js';
import { type AddressPolicy, DeliveryTargetRefused, resolveDeliveryTarget } from './address-guard.js';
import { type SendOutcome, sendWebhookRequest } from './http-sender.js';
import { webhookDisabledMail } from './mail.js';
import {
  claimDueDeliveries,
  clearEndpointFailures,
  deliveryBacklog,
  disableFailingEndpoint,
  findEndpoint,
  findEvent,
  finishAttempt,
  insertAttempt,
  listActiveAdminEmails,
  recordEndpointFailure,
  releaseDeliveryClaims,
} from './repository.js';
import { signatureHeaders } from './signing.js';

/**
 * The waits after each failed attempt: a blip is retried at once, an outage over about a day
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts in about 28 hours).
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The wait after failed attempt `attempt` (1-based), spread by ±10 % so retries do not bunch. */
export function webhookRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1] ?? 5_000;
  return Math.round(base * (0.9 + 0.2 * random()));
}

export interface WebhookDeliverySettings extends AddressPolicy {
  pollIntervalMs: number;
  /** The whole exchange of one attempt, connection to last byte read. */
  timeoutMs: number;
  /** Failed deliveries in a row after which an endpoint is disabled. */
  disableAfterFailures: number;
  /** Or failures with no success in between for this long. */
  disableAfterMs: number;
  /** Where administrators manage endpoints, for the mail that says one was disabled. */
  publicUrl: string;
}

export interface WebhookDeliveryWorker extends WatchedOutbox {
  start(): void;
  /** Looks at the queue now instead of at the next poll. */
  wake(): void;
  /** Sends everything due now and waits until nothing more is due (tests drive time with the clock). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

const BATCH_SIZE = 10;
const USER_AGENT = 'DesktopAIAssistantPortal-Webhooks/1.0';

const isSuccess = (outcome: SendOutcome) =>
  outcome.error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

function failureReason(outcome: SendOutcome): string {
  if (outcome.error) return outcome.error;
  const status = outcome.status ?? 0;
  if (status >= 300 && status < 400)
    return `HTTP ${status}: redirect not followed${outcome.headers?.location ? ` (to ${outcome.headers.location})` : ''}`;
  return `HTTP ${status}`;
}

/** The secrets that sign now: the current one and, for a while after a rotation, the previous one. */
export function signingSecrets(endpoint: WebhookEndpointRow, now: Date): string[] {
  const previousValid =
    endpoint.previous_secret !== null &&
    endpoint.previous_secret_expires_at !== null &&
    endpoint.previous_secret_expires_at > now.toISOString();
  return previousValid && endpoint.previous_secret
    ? [endpoint.secret, endpoint.previous_secret]
    : [endpoint.secret];
}

class StaleClaim extends Error {}

/**
 * Sends queued deliveries, at least once each: a delivery is marked done only after the endpoint
 * answered 2xx, so a crash in between sends it again (with the same `webhook-id`, which receivers
 * use to drop repeats). Every attempt is logged; failures are retried with backoff, and an
 * endpoint that keeps failing is disabled and the administrators are mailed.
 */
export function createWebhookDeliveryWorker(deps: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  mailer: Mailer;
  settings: WebhookDeliverySettings;
  log: FastifyBaseLogger;
  /** Told of each failed attempt; `final` when it was the delivery's last (the metrics count them). */
  onAttemptFailed?: (final: boolean) => void;
  /** Each attempt is a span continuing the trace of the request that caused the event. */
  tracing?: Tracing;
  /** The language an administrator's mail is written in (identity's, given by the composition); English without. */
  mailLanguage?: (account: { preferences: string }) => string;
}): WebhookDeliveryWorker {
  const { db, clock, settings, log } = deps;
  const { tracer } = deps.tracing ?? TRACING_OFF;
  const claimMs = settings.timeoutMs + 60_000;

  /** Makes one attempt; true when the endpoint took it (2xx). */
  async function deliver(row: WebhookDeliveryRow): Promise<boolean> {
    const [endpoint, event] = await Promise.all([
      findEndpoint(db, row.endpoint_id),
      findEvent(db, row.event_id),
    ]);
    if (!endpoint || !event) return false; // Deleted meanwhile: its deliveries went with it.
    if (endpoint.disabled_at !== null) {
      await releaseDeliveryClaims(db, [row]);
      return false;
    }
    return inSpan(
      tracer,
      `webhook ${event.type}`,
      {
        traceparent: event.traceparent,
        attributes: {
          'webhook.event.id': event.id,
          'webhook.delivery.id': row.id,
          ...(event.request_id ? { 'http.request.id': event.request_id } : {}),
        },
      },
      (span) => attempt(row, endpoint, event, span),
    );
  }

  async function attempt(
    row: WebhookDeliveryRow,
    endpoint: WebhookEndpointRow,
    event: WebhookEventRow,
    span: Span,
  ): Promise<boolean> {
    const startedAt = clock.now();
    const url = new URL(endpoint.url);
    const traceparent = currentTraceparent();
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(event.id, startedAt, event.payload, signingSecrets(endpoint, startedAt)),
      // The request that caused the event, so the receiver's log and ours can be matched up.
      ...(event.request_id ? { 'x-request-id': event.request_id } : {}),
      ...(traceparent ? { traceparent } : {}),
    };
    let outcome: SendOutcome;
    try {
      const target = await resolveDeliveryTarget(url, settings);
      outcome = await sendWebhookRequest({
        url,
        headers,
        body: event.payload,
        timeoutMs: settings.timeoutMs,
        target,
      });
    } catch (error) {
      if (!(error instanceof DeliveryTargetRefused))
        log.warn({ delivery: row.id, err: error }, 'webhook endpoint could not be resolved');
      outcome = {
        status: null,
        headers: null,
        body: null,
        error: error instanceof Error ? error.message : String(error),
        durationMs: 0,
      };
    }
    const succeeded = isSuccess(outcome);
    const reason = succeeded ? null : failureReason(outcome);
    if (outcome.status !== null) span.setAttribute('http.response.status_code', outcome.status);
    if (reason !== null) failSpan(span, reason);
    const retryAt =
      !succeeded && row.attempts < MAX_ATTEMPTS
        ? new Date(clock.now().getTime() + webhookRetryDelayMs(row.attempts)).toISOString()
        : null;
    const finishedAt = clock.now().toISOString();
    try {
      await db.transaction().execute(async (trx) => {
        await insertAttempt(trx, {
          delivery_id: row.id,
          attempt: row.attempts,
          url: endpoint.url,
          request_headers: JSON.stringify(headers),
          request_body: event.payload,
          response_status: outcome.status,
          response_headers: outcome.headers ? JSON.stringify(outcome.headers) : null,
          response_body: outcome.body,
          error: reason,
          duration_ms: outcome.durationMs,
          started_at: startedAt.toISOString(),
          next_attempt_at: retryAt,
        });
        const recorded = await finishAttempt(trx, row, {
          status: succeeded ? 'succeeded' : retryAt ? 'pending' : 'failed',
          nextAttemptAt: retryAt,
          statusCode: outcome.status,
          error: reason,
          completedAt: succeeded || !retryAt ? finishedAt : null,
        });
        if (!recorded) throw new StaleClaim();
        await recordEndpointHealth(trx, endpoint.id, succeeded, !succeeded && !retryAt, reason, startedAt);
      });
    } catch (error) {
      if (error instanceof StaleClaim) {
        log.warn(
          { delivery: row.id },
          'webhook attempt finished after its claim ran out; another worker took it',
        );
        return false;
      }
      throw error;
    }
    if (!succeeded) deps.onAttemptFailed?.(retryAt === null);
    if (!succeeded)
      log.info(
        { delivery: row.id, endpoint: endpoint.id, attempt: row.attempts, retry_at: retryAt, reason },
        retryAt ? 'webhook delivery failed; will retry' : 'webhook delivery failed; attempts used up',
      );
    return succeeded;
  }

  /**
   * A success clears the endpoint's failures; a failed attempt starts the failing period; a
   * delivery that used up its attempts counts, and disables the endpoint when it is the Nth in a
   * row or the failures have lasted too long. The counter is raised in SQL, so two workers
   * finishing at once both count, and only the one that disables it sends the mail.
   */
  async function recordEndpointHealth(
    trx: DbOrTransaction,
    endpointId: string,
    succeeded: boolean,
    deliveryFailed: boolean,
    reason: string | null,
    at: Date,
  ): Promise<void> {
    const now = at.toISOString();
    if (succeeded) {
      await clearEndpointFailures(trx, endpointId);
      return;
    }
    const updated = await recordEndpointFailure(trx, endpointId, now, deliveryFailed);
    if (!updated || !deliveryFailed || updated.disabled_at !== null) return;
    const failingFor = at.getTime() - new Date(updated.failing_since ?? now).getTime();
    if (updated.consecutive_failures < settings.disableAfterFailures && failingFor < settings.disableAfterMs)
      return;
    const disabled = await disableFailingEndpoint(
      trx,
      endpointId,
      `Disabled automatically after ${updated.consecutive_failures} failed deliveries in a row`,
      now,
    );
    if (!disabled) return;
    log.warn({ endpoint: endpointId, failures: updated.consecutive_failures }, 'webhook endpoint disabled');
    await recordSecurityEvent(trx, clock, {
      type: securityEventTypes.webhookEndpointDisabled,
      severity: 'warning',
      details: {
        endpoint_id: endpointId,
        url: updated.url,
        failures: updated.consecutive_failures,
        failing_since: updated.failing_since,
        last_error: reason,
      },
    });
    const admins = await listActiveAdminEmails(trx);
    for (const admin of admins)
      await deps.mailer.queue(
        trx,
        webhookDisabledMail({
          to: admin.email,
          language: deps.mailLanguage?.(admin),
          url: updated.url,
          description: updated.description,
          failures: updated.consecutive_failures,
          failingSince: updated.failing_since,
          lastError: reason,
          disabledAt: at,
          manageUrl: `${settings.publicUrl}${portalPaths.adminWebhooks}`,
        }),
      );
  }

  return createOutboxConsumer({
    queue: {
      claim: (now, claimedUntil) => claimDueDeliveries(db, deps.dialect, now, claimedUntil, BATCH_SIZE),
      process: (row) =>
        deliver(row).catch((error: unknown) => {
          // The claim runs out and the delivery is tried again: nothing is lost.
          log.warn({ delivery: row.id, err: error }, 'could not record a webhook attempt');
          return false;
        }),
      release: (rows) => releaseDeliveryClaims(db, rows),
      backlog: () => deliveryBacklog(db),
      /**
       * Endpoints are independent: one slow endpoint does not hold up the others in the batch.
       * Each receives its share oldest first and one at a time, in the order they were raised.
       * After a failure the rest are given back untried: they are taken again at once, so a
       * failing endpoint costs one timeout per pass, not one per delivery.
       */
      laneOf: (row) => row.endpoint_id,
    },
    clock,
    claimMs,
    pollIntervalMs: settings.pollIntervalMs,
    // A closing worker finishes the batch it holds (each endpoint's share stops at its first failure).
    releaseUntriedOnClose: false,
    log,
    name: 'webhooks',
    kind: 'webhooks',
  });
}
