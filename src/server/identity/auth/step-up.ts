import { STEP_UP_WINDOW_SECONDS } from '../../../shared/constants.js';
import type { StepUpResponse } from '../../../shared/api/two-factor.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest, forbidden } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import {
  admitLoginAttempt,
  cancelLoginAttempt,
  lockedOutError,
  type LockoutPolicy,
  recordLoginFailure,
  recordLoginSuccess,
} from './login-throttle.js';
import type { PasswordHasher } from './password-hasher.js';
import type { AuthenticatedUser } from './service.js';
import { recordStepUp } from './step-up-repository.js';
import type { SecondFactorAnswer, TwoFactorService } from './two-factor-service.js';

/**
 * Step-up: a signed-in session proves itself again (the password, a code from the app or a
 * recovery code) before sensitive changes; the `requireStepUp` guard then lets them through for
 * {@link STEP_UP_WINDOW_SECONDS}. Wrong answers count in the sign-in throttle like wrong passwords.
 */
export type StepUpProof = { password: string } | SecondFactorAnswer;

export interface StepUpDeps {
  db: Db;
  clock: Clock;
  lockout: LockoutPolicy;
  passwords: PasswordHasher;
  twoFactor: TwoFactorService;
}

export function createStepUp({ db, clock, lockout, passwords, twoFactor }: StepUpDeps) {
  return {
    async stepUp(caller: AuthenticatedUser, proof: StepUpProof, meta: RequestMeta): Promise<StepUpResponse> {
      if (caller.apiToken)
        throw forbidden('session_required', 'Sign in to confirm it is you; an API token cannot.');
      const { user } = caller;
      const admission = await admitLoginAttempt(db, clock, lockout, {
        email: user.email,
        ip: meta.ip,
        userId: user.id,
      });
      if (!admission.admitted) throw lockedOutError(admission.retryAt, clock.now());

      let proved: boolean;
      try {
        proved =
          'password' in proof
            ? await passwords.verify(user.password_hash, proof.password)
            : (await db
                .transaction()
                .execute((trx) => twoFactor.verifySecondFactor(trx, user.id, proof, meta))) !== null;
      } catch (error) {
        await cancelLoginAttempt(db, admission.attempt);
        throw error;
      }
      const method = 'password' in proof ? 'password' : 'code' in proof ? 'totp' : 'recovery_code';

      if (!proved) {
        const locks = await recordLoginFailure(db, clock, lockout, admission.attempt);
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.stepUpFailed,
          severity: 'warning',
          userId: user.id,
          meta,
          details: { method },
        });
        if (locks[0]) throw lockedOutError(locks[0].until, clock.now());
        throw 'password' in proof
          ? badRequest('invalid_password', 'That password is not right.')
          : badRequest('invalid_code', 'That code is not right. Try again.');
      }

      await recordLoginSuccess(db, admission.attempt);
      const at = isoNow(clock);
      await db.transaction().execute(async (trx) => {
        await recordStepUp(trx, caller.claims.sid, at);
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.steppedUp,
          severity: 'info',
          userId: user.id,
          meta,
          details: { method },
        });
      });
      return { stepped_up_at: at, expires_in: STEP_UP_WINDOW_SECONDS };
    },
  };
}

export type StepUp = ReturnType<typeof createStepUp>;
