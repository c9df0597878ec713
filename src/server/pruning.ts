import type { Clock } from './platform/clock.js';
import type { DbOrTransaction } from './platform/db/database.js';
import { pruneMailOutbox } from './platform/mail/outbox-upkeep.js';
import { type Prune, runPrunes } from './platform/maintenance.js';
import { identityPrunes, type LockoutPolicy } from './identity/index.js';
import { webhookPrunes } from './integrations/index.js';

/**
 * The rows nothing reads any more, that maintenance deletes hourly, each context's as it says:
 * identity's spent sign-in counts, e-mail link tokens and expired challenges, mail sent or dropped
 * over a week ago (addresses typed into the reset form would otherwise grow the outbox without
 * bound), and the webhooks' deliveries held too long and history older than 30 days. Listed here
 * by name, in the order they run.
 */
export function expiredRowPrunes(lockout: LockoutPolicy) {
  const identity = identityPrunes(lockout);
  return {
    loginThrottles: identity.loginThrottles,
    emailTokens: identity.emailTokens,
    mails: pruneMailOutbox,
    authChallenges: identity.authChallenges,
    heldWebhookDeliveries: webhookPrunes.heldDeliveries,
    webhookEvents: webhookPrunes.history,
  } satisfies Record<string, Prune>;
}

/** Prunes once, now: how many rows of each kind were deleted. */
export const pruneExpiredRows = (db: DbOrTransaction, clock: Clock, lockout: LockoutPolicy) =>
  runPrunes(db, clock, expiredRowPrunes(lockout));
