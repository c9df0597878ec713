import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { DbOrTransaction } from './db/database.js';
import { pruneMailOutbox } from './mail/outbox-repository.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { deleteExpiredChallenges } from '../identity/auth/challenges-repository.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { pruneEmailTokens } from '../identity/auth/email-tokens.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { type LockoutPolicy, pruneLoginThrottles } from '../identity/auth/login-throttle.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { expireHeldDeliveries } from '../integrations/webhooks/held-deliveries.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { pruneWebhookHistory, WEBHOOK_HISTORY_DAYS } from '../integrations/webhooks/repository.js';

const HOUR_MS = 60 * 60_000;
// Shortly after start, not during it: the first run should not compete with migrations or the
// first requests, yet a server restarted often still gets pruned.
const FIRST_RUN_DELAY_MS = 30_000;

export interface PrunedRows {
  loginThrottles: number;
  emailTokens: number;
  mails: number;
  /** Second-factor, passkey and step-up challenges past their expiry. */
  authChallenges: number;
  /** Webhook events (with their deliveries and attempts) older than 30 days. */
  webhookEvents: number;
  /** Deliveries given up after waiting too long for a disabled endpoint. */
  heldWebhookDeliveries: number;
}

/**
 * Deletes rows nothing reads any more: sign-in counts whose window and lock are over (random
 * names typed at the sign-in form would otherwise grow the table without bound), e-mail link
 * tokens used or expired over a week ago, mail sent or dropped over a week ago (addresses
 * typed into the reset form would grow the outbox the same way), and second-factor, passkey and
 * step-up challenges once expired (nothing reads one then, and a ceremony started but never
 * finished leaves its row behind).
 */
export async function pruneExpiredRows(
  db: DbOrTransaction,
  clock: Clock,
  lockout: LockoutPolicy,
): Promise<PrunedRows> {
  return {
    loginThrottles: await pruneLoginThrottles(db, clock, lockout),
    emailTokens: await pruneEmailTokens(db, clock),
    mails: await pruneMailOutbox(db, clock),
    authChallenges: await deleteExpiredChallenges(db, clock.now().toISOString()),
    heldWebhookDeliveries: await expireHeldDeliveries(db, clock.now()),
    webhookEvents: await pruneWebhookHistory(
      db,
      new Date(clock.now().getTime() - WEBHOOK_HISTORY_DAYS * 86_400_000).toISOString(),
    ),
  };
}

export interface MaintenanceOptions {
  /** The sign-in lockout policy, whose window tells which counts are over. */
  lockout: LockoutPolicy;
  intervalMs?: number;
  firstRunDelayMs?: number;
}

/**
 * Prunes once shortly after start and then every interval until the server closes. The timers
 * never keep the process alive, and closing waits for a run in progress so it never meets a
 * closed database.
 */
export function startMaintenance(
  app: FastifyInstance,
  db: DbOrTransaction,
  clock: Clock,
  { lockout, intervalMs = HOUR_MS, firstRunDelayMs = FIRST_RUN_DELAY_MS }: MaintenanceOptions,
): void {
  let running: Promise<void> | undefined;
  const run = () => {
    // A slow run is not stacked upon: the next tick finds what this one left.
    running ??= pruneExpiredRows(db, clock, lockout)
      .then((pruned) => app.log.debug({ pruned }, 'maintenance: pruned expired rows'))
      .catch((error: unknown) => app.log.warn({ err: error }, 'maintenance: pruning failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, firstRunDelayMs).unref();
  const every = setInterval(run, intervalMs).unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
    await running;
  });
}
