import type { Clock } from './platform/clock.js';
import type { DbOrTransaction } from './platform/db/database.js';
import { pruneMailOutbox } from './platform/mail/outbox-repository.js';
import { type Prune, runPrunes } from './platform/maintenance.js';
import { deleteExpiredChallenges } from './identity/auth/challenges-repository.js';
import { pruneEmailTokens } from './identity/auth/email-tokens.js';
import { type LockoutPolicy, pruneLoginThrottles } from './identity/auth/login-throttle.js';
import { expireHeldDeliveries } from './integrations/webhooks/held-deliveries.js';
import { pruneWebhookHistory, WEBHOOK_HISTORY_DAYS } from './integrations/webhooks/repository.js';

/**
 * The rows nothing reads any more, that maintenance deletes hourly: sign-in counts whose window
 * and lock are over (random names typed at the sign-in form would otherwise grow the table without
 * bound), e-mail link tokens used or expired over a week ago, mail sent or dropped over a week ago
 * (addresses typed into the reset form would grow the outbox the same way), second-factor, passkey
 * and step-up challenges once expired (nothing reads one then, and a ceremony started but never
 * finished leaves its row behind), deliveries held too long for a disabled endpoint, and webhook
 * events (with their deliveries and attempts) older than 30 days.
 */
export function expiredRowPrunes(lockout: LockoutPolicy) {
  return {
    loginThrottles: (db, clock) => pruneLoginThrottles(db, clock, lockout),
    emailTokens: pruneEmailTokens,
    mails: pruneMailOutbox,
    authChallenges: (db, clock) => deleteExpiredChallenges(db, clock.now().toISOString()),
    heldWebhookDeliveries: (db, clock) => expireHeldDeliveries(db, clock.now()),
    webhookEvents: (db, clock) =>
      pruneWebhookHistory(
        db,
        new Date(clock.now().getTime() - WEBHOOK_HISTORY_DAYS * 86_400_000).toISOString(),
      ),
  } satisfies Record<string, Prune>;
}

/** Prunes once, now: how many rows of each kind were deleted. */
export const pruneExpiredRows = (db: DbOrTransaction, clock: Clock, lockout: LockoutPolicy) =>
  runPrunes(db, clock, expiredRowPrunes(lockout));
