import { randomUUID } from 'node:crypto';
import type { RegisterRequest } from '../../../shared/api/auth.js';
import { defaultPreferences } from '../../../shared/api/users.js';
import { EMAIL_VERIFICATION_TTL_SECONDS } from '../../../shared/constants.js';
import { portalPaths } from '../../../shared/routes.js';
import { isoNow } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { UserRow } from '../../db/tables.js';
import { badRequest } from '../../http-error.js';
import { accountExistsMail, verificationMail } from '../../mail/templates.js';
import type { RequestMeta } from '../../request-meta.js';
import { recordSecurityEvent, securityEventTypes } from '../security/security-events.js';
import { bumpSessionVersion, findUserByEmail, insertUser, updateUser } from '../users/repository.js';
import { authAnswers, portalLink } from './answers.js';
import { consumeEmailToken, issueEmailToken } from './email-tokens.js';
import { assertAcceptableNewPassword } from './password-policy.js';
import type { AuthServiceDeps, NewAccount } from './service.js';

/** Creating accounts and confirming their e-mail addresses. */
export function createAccounts(deps: AuthServiceDeps) {
  const { db, clock, passwords, mailer, background } = deps;

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

  /** Mails a new confirmation link; earlier links of the account stop working. */
  async function sendVerification(user: UserRow): Promise<void> {
    const token = await issueEmailToken(db, clock, user.id, 'verify_email', EMAIL_VERIFICATION_TTL_SECONDS);
    mailer.send(
      verificationMail(user.email, portalLink(deps.publicUrl, portalPaths.verifyRegistration, token)),
    );
  }

  async function completeRegistration(input: RegisterRequest, passwordHash: string, meta: RequestMeta) {
    const existing = await findUserByEmail(db, input.email);
    if (existing?.email_verified_at) {
      mailer.send(
        accountExistsMail(
          existing.email,
          portalLink(deps.publicUrl, portalPaths.login),
          portalLink(deps.publicUrl, portalPaths.forgotPassword),
        ),
      );
      return;
    }
    if (existing) {
      // Unconfirmed: the newest sign-up decides the password and only its link works, so whoever
      // registers an address first cannot keep the account once its owner signs up.
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, existing.id, {
          password_hash: passwordHash,
          full_name: input.full_name ?? null,
          updated_at: isoNow(clock),
        });
        await bumpSessionVersion(trx, existing.id);
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.userRegistered,
          severity: 'info',
          userId: existing.id,
          meta,
          details: { again_before_confirmation: true },
        });
      });
      await sendVerification(existing);
      return;
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
      // A simultaneous sign-up of the same address won; its link is on the way.
      if (isUniqueViolation(error)) return;
      throw error;
    }
    await sendVerification(user);
  }

  return {
    /** Creates an account directly (first admin, CLI); the caller has checked nobody holds the e-mail. */
    async createAccount(account: NewAccount): Promise<UserRow> {
      const user = newUserRow(account, await passwords.hash(account.password));
      await insertUser(db, user);
      return user;
    },

    /**
     * Answers alike, and after the same work (one password hash), whether or not the address has
     * an account: everything that depends on that happens after the answer. The owner of an
     * existing account is told by mail instead.
     */
    async register(input: RegisterRequest, meta: RequestMeta): Promise<string> {
      assertAcceptableNewPassword(input.password, input.email);
      const passwordHash = await passwords.hash(input.password);
      background.run('registration', () => completeRegistration(input, passwordHash, meta));
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

    resendVerification(email: string): string {
      background.run('confirmation link', async () => {
        const user = await findUserByEmail(db, email);
        if (user && user.email_verified_at === null && user.status === 'active') await sendVerification(user);
      });
      return authAnswers.verificationResent;
    },
  };
}
