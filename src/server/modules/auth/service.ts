import { randomUUID } from 'node:crypto';
import type { AccessTokenClaims, RegisterRequest, TokenResponse } from '../../../shared/api/auth.js';
import { defaultPreferences } from '../../../shared/api/users.js';
import {
  EMAIL_VERIFICATION_TTL_SECONDS,
  PASSWORD_RESET_TTL_SECONDS,
  type UserRole,
} from '../../../shared/constants.js';
import { authMessages } from '../../../shared/messages.js';
import { portalPaths } from '../../../shared/routes.js';
import { type Clock, isoNow } from '../../clock.js';
import type { Db, DbOrTransaction } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { UserRow } from '../../db/tables.js';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../http-error.js';
import type { Mailer } from '../../mail/mailer.js';
import {
  accountExistsMail,
  passwordChangedMail,
  passwordResetMail,
  verificationMail,
} from '../../mail/templates.js';
import type { RequestMeta } from '../../request-meta.js';
import {
  recordSecurityEvent,
  type SecurityEventType,
  securityEventTypes,
} from '../security/security-events.js';
import { toUserProfile } from '../users/profile.js';
import {
  bumpSessionVersion,
  findUserByEmail,
  findUserById,
  insertUser,
  updateUser,
} from '../users/repository.js';
import { type AccessTokens, invalidTokenError } from './access-tokens.js';
import { consumeEmailToken, findUsableEmailToken, issueEmailToken } from './email-tokens.js';
import {
  clearAllLoginFailures,
  clearLoginFailures,
  lockedUntil,
  type LockoutPolicy,
  recordLoginFailure,
} from './login-throttle.js';
import type { PasswordHasher } from './password-hasher.js';
import { assertAcceptableNewPassword } from './password-policy.js';
import {
  findFamilyOfToken,
  revokeAllFamiliesOfUser,
  revokeFamily,
  rotateRefreshToken,
  startRefreshFamily,
} from './refresh-tokens.js';

export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  accessTokens: AccessTokens;
  passwords: PasswordHasher;
  mailer: Mailer;
  publicUrl: string;
  lockout: LockoutPolicy;
}

export interface AuthenticatedUser {
  user: UserRow;
  claims: AccessTokenClaims;
}

export interface NewAccount {
  email: string;
  password: string;
  role: UserRole;
  fullName?: string | null;
  verified: boolean;
}

export const authAnswers = {
  registered: 'Check your inbox: we sent a link to confirm your email address.',
  verified: 'Your email address is confirmed. You can sign in now.',
  verificationResent: 'If that address has an account waiting for confirmation, we sent a new link.',
  resetRequested: 'If an account exists for that address, we sent a link to reset the password.',
  passwordReset: 'Your password was reset. Sign in with the new password.',
  passwordChanged: 'Your password was changed. Every device was signed out; sign in again.',
  loggedOut: 'Signed out',
} as const;

const invalidCredentials = () => unauthorized('invalid_credentials', 'Incorrect email or password');

function lockedError(until: Date, now: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    'account_locked',
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or reset your password.`,
    { 'retry-after': String(seconds) },
  );
}

/** Sign-up, sign-in, sessions and passwords (DESIGN §3). */
export function createAuthService(deps: AuthServiceDeps) {
  const { db, clock, accessTokens, passwords, mailer } = deps;
  const link = (path: string, token?: string) =>
    `${deps.publicUrl}${path}${token ? `?token=${encodeURIComponent(token)}` : ''}`;

  async function sendVerification(user: UserRow): Promise<void> {
    const token = await issueEmailToken(db, clock, user.id, 'verify_email', EMAIL_VERIFICATION_TTL_SECONDS);
    mailer.send(verificationMail(user.email, link(portalPaths.verifyRegistration, token)));
  }

  function newUserRow(account: Omit<NewAccount, 'password'>, passwordHash: string): UserRow {
    const now = isoNow(clock);
    return {
      id: randomUUID(),
      email: account.email.toLowerCase(),
      password_hash: passwordHash,
      role: account.role,
      status: 'active',
      full_name: account.fullName ?? null,
      company: null,
      preferences: JSON.stringify(defaultPreferences),
      email_verified_at: account.verified ? now : null,
      password_changed_at: null,
      session_version: 0,
      created_at: now,
      updated_at: now,
    };
  }

  /** Replaces the password and ends every session of the user, in the caller's transaction. */
  async function applyNewPassword(
    trx: DbOrTransaction,
    user: UserRow,
    passwordHash: string,
    event: { type: SecurityEventType; meta: RequestMeta | null; details?: Record<string, unknown> },
  ): Promise<UserRow> {
    const now = isoNow(clock);
    const updated = await updateUser(trx, user.id, {
      password_hash: passwordHash,
      password_changed_at: now,
      updated_at: now,
    });
    if (!updated) throw invalidTokenError();
    await bumpSessionVersion(trx, user.id);
    await revokeAllFamiliesOfUser(trx, clock, user.id, event.type);
    await clearAllLoginFailures(trx, user.email);
    await recordSecurityEvent(trx, clock, { severity: 'warning', userId: user.id, ...event });
    return updated;
  }

  async function issueSession(user: UserRow, meta: RequestMeta): Promise<TokenResponse> {
    const refresh = await db.transaction().execute(async (trx) => {
      const issued = await startRefreshFamily(trx, clock, user.id, meta);
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.loginSucceeded,
        severity: 'info',
        userId: user.id,
        meta,
      });
      return issued;
    });
    return tokenResponse(user, refresh.token, refresh.expiresAt);
  }

  async function tokenResponse(
    user: UserRow,
    refreshToken: string,
    refreshExpiresAt: string,
  ): Promise<TokenResponse> {
    const access = await accessTokens.issue({
      id: user.id,
      role: user.role,
      sessionVersion: user.session_version,
    });
    return {
      access_token: access.token,
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: access.expiresIn,
      refresh_expires_in: Math.max(
        0,
        Math.floor((Date.parse(refreshExpiresAt) - clock.now().getTime()) / 1000),
      ),
      user: toUserProfile(user),
    };
  }

  return {
    /** Creates an account directly (first admin, CLI); the caller has checked nobody holds the e-mail. */
    async createAccount(account: NewAccount): Promise<UserRow> {
      const user = newUserRow(account, await passwords.hash(account.password));
      await insertUser(db, user);
      return user;
    },

    /** Sets a password by an operator (CLI): same effect as a reset, without a link. */
    async setPasswordByOperator(email: string, password: string): Promise<void> {
      const user = await findUserByEmail(db, email);
      if (!user) throw notFound('user_not_found', `No account with the e-mail ${email}`);
      const passwordHash = await passwords.hash(password);
      await db.transaction().execute((trx) =>
        applyNewPassword(trx, user, passwordHash, {
          type: securityEventTypes.passwordReset,
          meta: null,
          details: { via: 'cli' },
        }),
      );
    },

    /**
     * Answers alike whether or not the address has an account (no enumeration): the owner of an
     * existing account is told by mail instead, and both paths spend one password hash.
     */
    async register(input: RegisterRequest, meta: RequestMeta): Promise<string> {
      assertAcceptableNewPassword(input.password, input.email);
      const passwordHash = await passwords.hash(input.password);
      const existing = await findUserByEmail(db, input.email);
      if (existing) {
        if (existing.email_verified_at === null) await sendVerification(existing);
        else
          mailer.send(
            accountExistsMail(existing.email, link(portalPaths.login), link(portalPaths.forgotPassword)),
          );
        return authAnswers.registered;
      }
      const user = newUserRow(
        { email: input.email, role: 'user', fullName: input.full_name ?? null, verified: false },
        passwordHash,
      );
      try {
        await db.transaction().execute(async (trx) => {
          await insertUser(trx, user);
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.userRegistered,
            severity: 'info',
            userId: user.id,
            meta,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) return authAnswers.registered;
        throw error;
      }
      await sendVerification(user);
      return authAnswers.registered;
    },

    async verifyRegistration(token: string, meta: RequestMeta): Promise<string> {
      await db.transaction().execute(async (trx) => {
        const userId = await consumeEmailToken(trx, clock, token, 'verify_email');
        if (!userId)
          throw badRequest(
            'invalid_verification_token',
            'This confirmation link is invalid or has expired. Ask for a new one from the sign-in page.',
          );
        const now = isoNow(clock);
        await updateUser(trx, userId, { email_verified_at: now, updated_at: now });
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.emailVerified,
          severity: 'info',
          userId,
          meta,
        });
      });
      return authAnswers.verified;
    },

    async resendVerification(email: string): Promise<string> {
      const user = await findUserByEmail(db, email);
      if (user && user.email_verified_at === null && user.status === 'active') await sendVerification(user);
      return authAnswers.verificationResent;
    },

    async login(emailInput: string, password: string, meta: RequestMeta): Promise<TokenResponse> {
      const email = emailInput.trim().toLowerCase();
      const locked = await lockedUntil(db, clock, email, meta.ip);
      if (locked) throw lockedError(locked, clock.now());

      const user = await findUserByEmail(db, email);
      const passwordMatches = user ? await passwords.verify(user.password_hash, password) : false;
      if (!user) await passwords.burnVerificationTime(password);
      if (!user || !passwordMatches) {
        const lockEnd = await recordLoginFailure(db, clock, deps.lockout, email, meta.ip);
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.loginFailed,
          severity: 'warning',
          userId: user?.id ?? null,
          meta,
          details: { email, reason: user ? 'wrong_password' : 'unknown_account' },
        });
        if (lockEnd) {
          await recordSecurityEvent(db, clock, {
            type: securityEventTypes.accountLocked,
            severity: 'warning',
            userId: user?.id ?? null,
            meta,
            details: { email, locked_until: lockEnd.toISOString() },
          });
          throw lockedError(lockEnd, clock.now());
        }
        throw invalidCredentials();
      }
      if (user.status !== 'active')
        throw forbidden('account_disabled', 'This account is disabled. Contact support.');
      if (user.email_verified_at === null)
        throw forbidden(
          'email_not_verified',
          'Confirm your email address before signing in: follow the link we sent when you registered.',
        );
      await clearLoginFailures(db, email, meta.ip);
      return issueSession(user, meta);
    },

    async refresh(refreshToken: string, meta: RequestMeta): Promise<TokenResponse> {
      const result = await rotateRefreshToken(db, clock, refreshToken);
      if (result.outcome === 'reused') {
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.refreshTokenReuse,
          severity: 'critical',
          userId: result.userId,
          meta,
          details: { family_id: result.familyId },
        });
        throw unauthorized('refresh_token_reused', authMessages.sessionExpired);
      }
      if (result.outcome === 'invalid')
        throw unauthorized('invalid_refresh_token', authMessages.sessionExpired);
      const user = await findUserById(db, result.userId);
      if (!user || user.status !== 'active') {
        await revokeFamily(db, clock, result.refresh.familyId, 'account_unavailable');
        throw unauthorized('invalid_refresh_token', authMessages.sessionExpired);
      }
      return tokenResponse(user, result.refresh.token, result.refresh.expiresAt);
    },

    /** Ends the session the refresh token belongs to; unknown tokens are answered alike. */
    async logout(refreshToken: string, callerId: string | undefined): Promise<string> {
      const family = await findFamilyOfToken(db, refreshToken);
      if (family && (callerId === undefined || family.userId === callerId)) {
        await revokeFamily(db, clock, family.familyId, 'logout');
      }
      return authAnswers.loggedOut;
    },

    /** The user behind a bearer token, refusing tokens of disabled accounts or older than a password change. */
    async authenticate(token: string): Promise<AuthenticatedUser> {
      const claims = await accessTokens.verify(token);
      const user = await findUserById(db, claims.sub);
      if (!user || user.status !== 'active' || claims.sv !== user.session_version) throw invalidTokenError();
      return { user, claims };
    },

    async forgotPassword(email: string, meta: RequestMeta): Promise<string> {
      const user = await findUserByEmail(db, email);
      if (user && user.status === 'active') {
        const token = await issueEmailToken(db, clock, user.id, 'reset_password', PASSWORD_RESET_TTL_SECONDS);
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.passwordResetRequested,
          severity: 'info',
          userId: user.id,
          meta,
        });
        mailer.send(passwordResetMail(user.email, link(portalPaths.resetPassword, token)));
      }
      return authAnswers.resetRequested;
    },

    /** Sets a new password from an e-mailed link: single use, and every session of the user ends. */
    async resetPassword(token: string, newPassword: string, meta: RequestMeta): Promise<string> {
      const invalidLink = () =>
        badRequest('invalid_reset_token', 'This reset link is invalid or has expired. Ask for a new one.');
      // A dead link is refused before paying for a hash; the transaction checks it again.
      if (!(await findUsableEmailToken(db, clock, token, 'reset_password'))) throw invalidLink();
      const passwordHash = await passwords.hash(newPassword);
      const user = await db.transaction().execute(async (trx) => {
        const owner = await findUsableEmailToken(trx, clock, token, 'reset_password');
        const account = owner ? await findUserById(trx, owner) : undefined;
        if (!account) throw invalidLink();
        // Checked before the token is spent, so a refused password leaves the link usable.
        assertAcceptableNewPassword(newPassword, account.email);
        if (!(await consumeEmailToken(trx, clock, token, 'reset_password'))) throw invalidLink();
        // Following the link proved control of the mailbox, which is what verification asks.
        if (account.email_verified_at === null) {
          await updateUser(trx, account.id, { email_verified_at: isoNow(clock) });
        }
        return applyNewPassword(trx, account, passwordHash, { type: securityEventTypes.passwordReset, meta });
      });
      mailer.send(passwordChangedMail(user.email, link(portalPaths.forgotPassword)));
      return authAnswers.passwordReset;
    },

    async changePassword(
      userId: string,
      currentPassword: string,
      newPassword: string,
      meta: RequestMeta,
    ): Promise<string> {
      const user = await findUserById(db, userId);
      if (!user) throw invalidTokenError();
      if (!(await passwords.verify(user.password_hash, currentPassword))) {
        throw badRequest('invalid_current_password', 'The current password is incorrect');
      }
      assertAcceptableNewPassword(newPassword, user.email);
      const passwordHash = await passwords.hash(newPassword);
      await db
        .transaction()
        .execute((trx) =>
          applyNewPassword(trx, user, passwordHash, { type: securityEventTypes.passwordChanged, meta }),
        );
      mailer.send(passwordChangedMail(user.email, link(portalPaths.forgotPassword)));
      return authAnswers.passwordChanged;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
