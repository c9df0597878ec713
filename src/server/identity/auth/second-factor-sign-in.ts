import type { SecondFactorMethod, SecondFactorRequired, TokenResponse } from '../../../shared/api/auth.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { sha256 } from '../../platform/crypto.js';
import { authMessages } from '../../../shared/messages.js';
import type { AuthChallengeRow, UserRow } from '../../platform/db/tables.js';
import { unauthorized } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { findUserById } from '../users/repository.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { findChallenge, issueChallenge, recordWrongAnswer, useChallenge } from './challenges.js';
import { findChallengeKind } from './challenges-repository.js';
import {
  admitLoginAttempt,
  lockedOutError,
  type LockoutPolicy,
  recordLoginFailure,
  recordLoginSuccess,
} from './login-throttle.js';
import { countUnusedRecoveryCodes } from './recovery-codes-repository.js';
import type { SignInMethod } from './refresh-tokens.js';
import type { SecondFactorAnswer, TwoFactorService } from './two-factor-service.js';
import { secondFactorsOf } from './two-factor-service.js';
import type { SignInObserver } from './sign-in-observer.js';

/**
 * The second step of a sign-in: the first step (the password) answered a short-lived challenge
 * instead of tokens; this one takes the challenge and a code. Wrong codes count in the same
 * throttle and lockout as wrong passwords, and a challenge dies after a few of them.
 */

/** How long the first step's challenge waits for the second factor. */
export const SECOND_FACTOR_CHALLENGE_TTL_SECONDS = 5 * 60;
/** Wrong answers one challenge takes before it dies (the sign-in starts again with the password). */
export const SECOND_FACTOR_MAX_WRONG_ANSWERS = 5;

/**
 * The refusal of a second step whose challenge is spent, expired or unknown, worded for how that
 * sign-in began: again with the password, or again through the organisation's provider.
 */
export async function secondFactorGone(db: DbOrTransaction, token: string) {
  const kind = await findChallengeKind(db, SECOND_FACTOR_KINDS, sha256(token));
  return unauthorized(
    'challenge_expired',
    kind === 'federated_second_factor' ? authMessages.signInExpiredSso : authMessages.signInExpiredPassword,
  );
}
const wrongCode = () => unauthorized('invalid_code', 'That code is not right. Try again.');

export interface SecondFactorSignInDeps {
  db: Db;
  clock: Clock;
  lockout: LockoutPolicy;
  twoFactor: TwoFactorService;
  startSession(user: UserRow, meta: RequestMeta, methods: readonly SignInMethod[]): Promise<TokenResponse>;
  /** Told of wrong second-factor codes (the metrics). */
  signIns?: SignInObserver;
}

/**
 * The challenges waiting for a second factor, by how the first step was proved: a password, or the
 * organisation's identity provider (single sign-on does not stand in for the account's own factor).
 */
export const SECOND_FACTOR_KINDS = ['second_factor', 'federated_second_factor'] as const;

/** How the first step of the sign-in the challenge waits on was proved (the session's first method). */
export const firstStepOf = (challenge: Pick<AuthChallengeRow, 'kind'>): SignInMethod =>
  challenge.kind === 'federated_second_factor' ? 'fed' : 'pwd';

/**
 * The first step's answer for an account with a second factor, or undefined when it has none;
 * `first` is how that step was proved (a password unless said).
 */
export async function secondFactorChallengeFor(
  db: Db,
  clock: Clock,
  user: UserRow,
  first: 'pwd' | 'fed' = 'pwd',
): Promise<SecondFactorRequired | undefined> {
  const factors = await secondFactorsOf(db, user.id);
  if (!factors.totp && factors.passkeys === 0) return undefined;
  const methods: SecondFactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if ((await countUnusedRecoveryCodes(db, user.id)) > 0) methods.push('recovery_code');
  if (factors.passkeys > 0) methods.push('passkey');
  const challenge = await issueChallenge(db, clock, {
    kind: first === 'fed' ? 'federated_second_factor' : 'second_factor',
    userId: user.id,
    ttlSeconds: SECOND_FACTOR_CHALLENGE_TTL_SECONDS,
  });
  return {
    second_factor_required: true,
    challenge: challenge.token,
    methods,
    expires_in: SECOND_FACTOR_CHALLENGE_TTL_SECONDS,
  };
}

export function createSecondFactorSignIn(deps: SecondFactorSignInDeps) {
  const { db, clock, lockout, twoFactor } = deps;

  return {
    async complete(
      challengeToken: string,
      answer: SecondFactorAnswer,
      meta: RequestMeta,
    ): Promise<TokenResponse> {
      const challenge = await findChallenge(db, clock, SECOND_FACTOR_KINDS, challengeToken);
      const user = challenge?.user_id ? await findUserById(db, challenge.user_id) : undefined;
      if (!challenge || !user || user.status !== 'active') throw await secondFactorGone(db, challengeToken);

      const admission = await admitLoginAttempt(db, clock, lockout, {
        email: user.email,
        ip: meta.ip,
        userId: user.id,
      });
      if (!admission.admitted) throw lockedOutError(admission.retryAt, clock.now());

      // The factor is spent and the challenge used together: a code is never spent on a
      // challenge a concurrent request used first.
      const outcome = await db.transaction().execute(async (trx) => {
        const method = await twoFactor.verifySecondFactor(trx, user.id, answer, meta);
        if (!method) return 'wrong' as const;
        if (!(await useChallenge(trx, clock, SECOND_FACTOR_KINDS, challengeToken)))
          throw await secondFactorGone(db, challengeToken);
        return method;
      });

      if (outcome === 'wrong') {
        const locks = await recordLoginFailure(db, clock, lockout, admission.attempt);
        deps.signIns?.failed({ method: 'otp', reason: 'wrong_code' });
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.secondFactorFailed,
          severity: 'warning',
          userId: user.id,
          meta,
          details: { method: 'recovery_code' in answer ? 'recovery_code' : 'totp', step: 'sign_in' },
        });
        for (const lock of locks)
          await recordSecurityEvent(db, clock, {
            type: securityEventTypes.accountLocked,
            severity: 'warning',
            userId: user.id,
            meta,
            details: { email: user.email, scope: lock.scope, locked_until: lock.until.toISOString() },
          });
        // A challenge takes a few wrong answers, then the sign-in starts again from the password.
        if ((await recordWrongAnswer(db, challenge.id)) >= SECOND_FACTOR_MAX_WRONG_ANSWERS)
          await useChallenge(db, clock, SECOND_FACTOR_KINDS, challengeToken);
        if (locks[0]) throw lockedOutError(locks[0].until, clock.now());
        throw wrongCode();
      }

      await recordLoginSuccess(db, admission.attempt);
      return deps.startSession(user, meta, [firstStepOf(challenge), 'otp']);
    },
  };
}

export type SecondFactorSignIn = ReturnType<typeof createSecondFactorSignIn>;
