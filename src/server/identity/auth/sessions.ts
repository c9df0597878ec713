import type { LoginResponse, SessionEndReason, TokenResponse } from '../../../shared/api/auth.js';
import { isoNow } from '../../platform/clock.js';
import { sha256 } from '../../platform/crypto.js';
import { authMessages } from '../../../shared/messages.js';
import type { UserRow } from '../../platform/db/tables.js';
import { forbidden, HttpError, unauthorized } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { toUserProfile } from '../users/profile.js';
import { findUserByEmail, findUserById } from '../users/repository.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { invalidTokenError } from './access-tokens.js';
import { alertOnNewSignIn } from './new-sign-in-alert.js';
import { authAnswers } from './answers.js';
import { secondFactorChallengeFor } from './second-factor-sign-in.js';
import { hasSecondFactor, mustEnrolSecondFactor } from './two-factor-service.js';
import {
  admitLoginAttempt,
  cancelLoginAttempt,
  lockedOutError,
  recordLoginFailure,
  recordLoginSuccess,
} from './login-throttle.js';
import {
  type IssuedRefreshToken,
  rotateRefreshToken,
  type SignInMethod,
  startRefreshFamily,
} from './refresh-tokens.js';
import { findFamilyOfToken, findUserOfLiveSession, revokeFamily } from './refresh-tokens-repository.js';
import type { AuthenticatedUser, AuthServiceDeps } from './auth-types.js';
import { endEverySession } from './end-sessions.js';
import { attachBinding, newSessionBinding } from './session-binding.js';
import { unobservedSignIns } from './sign-in-observer.js';
import { ssoRequiredError } from './password-gate.js';

/**
 * A refresh token that gets nothing: the code stays `invalid_refresh_token` (as for an unknown
 * token), and `reason` tells a device whose session was ended elsewhere why.
 */
const sessionEndedError = (reason: SessionEndReason | undefined) =>
  new HttpError(401, 'invalid_refresh_token', authMessages.sessionExpired, {}, reason ? { reason } : {});

const invalidCredentials = () => unauthorized('invalid_credentials', 'Incorrect e-mail or password');

/** Signing in and out, refreshing, and recognising the bearer of an access token. */
export function createSessions(deps: AuthServiceDeps) {
  const { db, clock, accessTokens, passwords } = deps;
  const signIns = deps.signIns ?? unobservedSignIns;

  async function tokenResponse(user: UserRow, refresh: IssuedRefreshToken): Promise<TokenResponse> {
    const access = await accessTokens.issue({
      id: user.id,
      role: user.role,
      sessionVersion: user.session_version,
      sessionId: refresh.familyId,
    });
    return {
      access_token: access.token,
      refresh_token: refresh.token,
      token_type: 'bearer',
      expires_in: access.expiresIn,
      refresh_expires_in: Math.max(
        0,
        Math.floor((Date.parse(refresh.expiresAt) - clock.now().getTime()) / 1000),
      ),
      user: toUserProfile(user),
    };
  }

  /** Signs in an account that has proved who it is with `methods`: a new session and its tokens. */
  async function startSession(
    user: UserRow,
    meta: RequestMeta,
    methods: readonly SignInMethod[],
  ): Promise<TokenResponse> {
    const binding = newSessionBinding(meta.client);
    const refresh = await db.transaction().execute(async (trx) => {
      const issued = await startRefreshFamily(trx, clock, user.id, meta, methods, binding);
      await alertOnNewSignIn(trx, deps, user, meta);
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.loginSucceeded,
        severity: 'info',
        userId: user.id,
        meta,
        details: { methods },
      });
      return issued;
    });
    signIns.succeeded(methods);
    // The binding's secret goes beside the answer, to its cookie (session-binding-cookie.ts).
    return attachBinding(await tokenResponse(user, refresh), binding);
  }

  return {
    startSession,

    /**
     * An account the organisation's identity provider has vouched for: tokens, or for an account
     * with a second factor of its own (an authenticator app, a passkey) the challenge of a second
     * step, as after a password. The provider proves the address; the account's own factor still
     * guards the account (docs/security.md, "Single sign-on and the second factor").
     */
    async federatedSignIn(user: UserRow, meta: RequestMeta): Promise<LoginResponse> {
      if (await hasSecondFactor(db, user.id)) {
        const challenge = await secondFactorChallengeFor(db, clock, user, 'fed');
        if (challenge) return challenge;
      }
      return startSession(user, meta, ['fed']);
    },

    /** Whether the platform requires a second factor of this account and it has none yet. */
    mustEnrolSecondFactor: (user: UserRow): Promise<boolean> => mustEnrolSecondFactor(db, user),

    /**
     * The password step of a sign-in: tokens, or for an account with a second factor a
     * short-lived challenge for /auth/login/second-factor (and no tokens).
     */
    async login(emailInput: string, password: string, meta: RequestMeta): Promise<LoginResponse> {
      const email = emailInput.trim().toLowerCase();
      const user = await findUserByEmail(db, email);
      // Refused before any password is tried, so the refusal says nothing of the password.
      // Platform administrators keep their password (break-glass), and it is logged below.
      const ssoRequirement = (await deps.passwordGate?.requirementFor(email)) ?? null;
      if (ssoRequirement && user?.role !== 'admin') {
        signIns.failed({ method: 'pwd', reason: 'sso_required' });
        throw ssoRequiredError(ssoRequirement);
      }
      // Counted before the slow password check, so a burst cannot outrun the count.
      const admission = await admitLoginAttempt(db, clock, deps.lockout, {
        email,
        ip: meta.ip,
        userId: user?.id,
      });
      if (!admission.admitted) {
        signIns.failed({ method: 'pwd', reason: 'locked_out' });
        throw lockedOutError(admission.retryAt, clock.now());
      }
      const { attempt } = admission;

      let passwordMatches = false;
      try {
        if (user) passwordMatches = await passwords.verify(user.password_hash, password);
        else await passwords.burnVerificationTime(password);
      } catch (error) {
        await cancelLoginAttempt(db, attempt);
        throw error;
      }
      if (!user || !passwordMatches) {
        const locks = await recordLoginFailure(db, clock, deps.lockout, attempt);
        signIns.failed({ method: 'pwd', reason: user ? 'wrong_password' : 'unknown_account' });
        // What was typed as the name is kept only when it is an account's address: people
        // sometimes type their password into the name field.
        const attempted = user ? { email } : {};
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.loginFailed,
          severity: 'warning',
          userId: user?.id ?? null,
          meta,
          details: { ...attempted, reason: user ? 'wrong_password' : 'unknown_account' },
        });
        for (const lock of locks) {
          await recordSecurityEvent(db, clock, {
            type: securityEventTypes.accountLocked,
            severity: 'warning',
            userId: user?.id ?? null,
            meta,
            details: { ...attempted, scope: lock.scope, locked_until: lock.until.toISOString() },
          });
        }
        // Locks engaged by one failure all end together.
        if (locks[0]) throw lockedOutError(locks[0].until, clock.now());
        throw invalidCredentials();
      }
      // The right password is no guess, whatever the account's state says next. With a second
      // factor to come, the attempt is only given back: the count of wrong codes from this
      // address stands until the second step succeeds.
      const secondStep = await hasSecondFactor(db, user.id);
      if (secondStep) await cancelLoginAttempt(db, attempt);
      else await recordLoginSuccess(db, attempt);
      if (user.status !== 'active')
        throw forbidden('account_disabled', 'This account is disabled. Contact support.');
      if (user.email_verified_at === null)
        throw forbidden(
          'email_not_verified',
          'Confirm your e-mail address before signing in: follow the link we sent when you registered.',
        );
      if (ssoRequirement)
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.ssoBreakGlass,
          severity: 'critical',
          userId: user.id,
          actorId: user.id,
          meta,
          details: { organisation_id: ssoRequirement.organisationId, email },
        });
      if (secondStep) {
        const challenge = await secondFactorChallengeFor(db, clock, user);
        if (challenge) return challenge;
      }
      return startSession(user, meta, ['pwd']);
    },

    /** `bindingSecret`: the web session's binding cookie, when the request carried one. */
    async refresh(
      refreshToken: string,
      meta: RequestMeta,
      bindingSecret: string | undefined,
    ): Promise<TokenResponse> {
      const result = await rotateRefreshToken(db, clock, refreshToken, {
        client: meta.client,
        secret: bindingSecret,
      });
      if (result.outcome === 'reused') {
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.refreshTokenReuse,
          severity: 'critical',
          userId: result.userId,
          meta,
          details: { family_id: result.familyId },
        });
        throw new HttpError(
          401,
          'refresh_token_reused',
          authMessages.sessionExpired,
          {},
          {
            reason: 'session_reused' satisfies SessionEndReason,
          },
        );
      }
      if (result.outcome === 'invalid' || result.outcome === 'unbound') throw sessionEndedError(undefined);
      if (result.outcome === 'ended') throw sessionEndedError(result.reason);
      const user = await findUserById(db, result.userId);
      if (!user || user.status !== 'active') {
        await revokeFamily(db, result.refresh.familyId, isoNow(clock), 'account_unavailable');
        throw sessionEndedError('account_disabled');
      }
      return tokenResponse(user, result.refresh);
    },

    /** Ends the session the refresh token belongs to, its access tokens with it; unknown tokens are answered alike. */
    async logout(refreshToken: string, callerId: string | undefined): Promise<string> {
      const family = await findFamilyOfToken(db, sha256(refreshToken));
      if (family && (callerId === undefined || family.userId === callerId)) {
        await revokeFamily(db, family.familyId, isoNow(clock), 'logout');
      }
      return authAnswers.loggedOut;
    },

    /**
     * Ends every session of the user, this one included: every refresh family is revoked and the
     * session version moves on, so access tokens already handed out stop working at once too.
     */
    async logoutEverywhere(userId: string, meta: RequestMeta): Promise<string> {
      await db.transaction().execute(async (trx) => {
        await endEverySession(trx, clock, userId, 'logout_everywhere');
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.signedOutEverywhere,
          severity: 'info',
          userId,
          meta,
        });
      });
      return authAnswers.loggedOutEverywhere;
    },

    /**
     * The user behind a bearer token, refusing tokens of disabled accounts, from before a password
     * change, or of a session that has ended (logout, refresh-token reuse, expiry).
     */
    async authenticate(token: string): Promise<AuthenticatedUser> {
      const claims = await accessTokens.verify(token);
      const user = await findUserOfLiveSession(
        db,
        { userId: claims.sub, sessionId: claims.sid },
        isoNow(clock),
      );
      if (!user || user.status !== 'active' || claims.sv !== user.session_version) throw invalidTokenError();
      return { user, claims };
    },
  };
}
