import type { Prune } from '../../platform/maintenance.js';
import { deleteExpiredChallenges } from './challenges-repository.js';
import { deleteSessionsEndedBefore } from './refresh-tokens-repository.js';
import { pruneEmailTokens } from './email-tokens.js';
import { type LockoutPolicy, pruneLoginThrottles } from './login-throttle.js';

/**
 * Identity's rows that maintenance deletes, by name: sign-in counts whose window and lock are
 * over (random names typed at the sign-in form would otherwise grow the table without bound),
 * e-mail link tokens used or expired over a week ago, and second-factor, passkey and step-up
 * challenges once expired (nothing reads one then, and a ceremony started but never finished
 * leaves its row behind), and sessions ended over `sessionsDays` ago (RETENTION_SESSIONS_DAYS), with
 * their refresh tokens: an ended session is kept a while to tell a client why it ended.
 */
export function identityPrunes(lockout: LockoutPolicy, sessionsDays: number) {
  return {
    loginThrottles: (db, clock) => pruneLoginThrottles(db, clock, lockout),
    emailTokens: pruneEmailTokens,
    authChallenges: (db, clock) => deleteExpiredChallenges(db, clock.now().toISOString()),
    endedSessions: (db, clock) =>
      deleteSessionsEndedBefore(
        db,
        new Date(clock.now().getTime() - sessionsDays * 86_400_000).toISOString(),
      ),
  } satisfies Record<string, Prune>;
}
