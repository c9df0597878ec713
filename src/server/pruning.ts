import type { Clock } from './platform/clock.js';
import type { Config } from './platform/config.js';
import type { DbOrTransaction } from './platform/db/database.js';
import { pruneMailOutbox } from './platform/mail/outbox-upkeep.js';
import { type Prune, runPrunes } from './platform/maintenance.js';
import { pruneSecurityEvents } from './platform/security-log/service.js';
import { identityPrunes } from './identity/index.js';
import { webhookPrunes } from './integrations/index.js';
import { pruneSamlAssertions, pruneSsoSignIns } from './licensing/index.js';

/** What pruning is told: the sign-in lock's window, and how long each record is kept. */
export type PruningPolicy = Pick<Config, 'lockout' | 'retention'>;

/**
 * The rows nothing reads any more or that are kept only so long, that maintenance deletes hourly,
 * each context's as it says: identity's spent sign-in counts, e-mail link tokens, expired
 * challenges and sessions ended long ago, mail sent or dropped (addresses typed into the reset form
 * would otherwise grow the outbox without bound), the webhooks' deliveries held too long and their
 * history, the security log, and single sign-ons past their life. The periods are the `RETENTION_*` settings. Listed here by name,
 * in the order they run.
 */
export function expiredRowPrunes({ lockout, retention }: PruningPolicy) {
  const identity = identityPrunes(lockout, retention.sessionsDays);
  const webhooks = webhookPrunes(retention.webhookDays);
  return {
    loginThrottles: identity.loginThrottles,
    emailTokens: identity.emailTokens,
    mails: (db, clock) => pruneMailOutbox(db, clock, retention.mailDays),
    authChallenges: identity.authChallenges,
    endedSessions: identity.endedSessions,
    heldWebhookDeliveries: webhooks.heldDeliveries,
    webhookEvents: webhooks.history,
    securityEvents: (db, clock) => pruneSecurityEvents(db, clock, retention.securityEventsDays),
    ssoSignIns: (db, clock) => pruneSsoSignIns(db, clock.now().toISOString()),
    samlAssertions: (db, clock) => pruneSamlAssertions(db, clock.now().toISOString()),
  } satisfies Record<string, Prune>;
}

/** Prunes once, now: how many rows of each kind were deleted. */
export const pruneExpiredRows = (db: DbOrTransaction, clock: Clock, policy: PruningPolicy) =>
  runPrunes(db, clock, expiredRowPrunes(policy));
