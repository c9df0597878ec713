import { randomUUID } from 'node:crypto';
import type { RegisterRequest } from '../../../shared/api/auth.js';
import { defaultPreferences } from '../../../shared/api/users.js';
import { EMAIL_VERIFICATION_TTL_SECONDS } from '../../../shared/constants.js';
import { portalPaths } from '../../../shared/routes.js';
import { isoNow } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { badRequest } from '../../platform/http-error.js';
import type { MailMessage, MailRequest } from '../../platform/mail/message.js';
import { accountExistsMail, mailKinds, verificationMail } from '../../platform/mail/templates.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { mailLanguage } from '../users/mail-preferences.js';
import { findUserByEmail, findUserById, insertUser, updateUser, upsertSignUp } from '../users/repository.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { authAnswers, portalLink } from './answers.js';
import { consumeEmailToken, findEmailTokenOwner, issueEmailToken } from './email-tokens.js';
import { assertAcceptableNewPassword } from './password-policy.js';
import type { AuthServiceDeps, NewAccount } from './auth-types.js';

/** Creating accounts and confirming their e-mail addresses. */
export function createAccounts(deps: AuthServiceDeps) {
  const { db, clock, passwords, mailer } = deps;

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
      preferences: JSON.stringify({
        ...defaultPreferences,
        language: account.language ?? defaultPreferences.language,
      }),
      email_verified_at: account.verified ? now : null,
      password_changed_at: null,
      session_version: 0,
      created_at: now,
      updated_at: now,
      deletion_due_at: null,
      erased_at: null,
    };
  }

  /**
   * Everything a sign-up changes, with its mail, in one transaction: the answer is sent only once
   * it is committed. Whatever holds the address, it is the same three statements (the account's
   * upsert, a security event, a queued mail request), so the time to answer does not tell which
   * case it was. The mail's content, a confirmation link or a note to the owner of a confirmed
   * account, is decided when it is sent.
   */
  async function completeRegistration(input: RegisterRequest, passwordHash: string, meta: RequestMeta) {
    const candidate = newUserRow(
      {
        email: input.email,
        role: 'user',
        fullName: input.full_name ?? null,
        verified: false,
        language: input.language,
      },
      passwordHash,
    );
    await db.transaction().execute(async (trx) => {
      const account = await upsertSignUp(trx, candidate);
      const confirmed = account.email_verified_at !== null;
      await recordSecurityEvent(trx, clock, {
        type: confirmed ? securityEventTypes.signUpForExistingAccount : securityEventTypes.userRegistered,
        severity: 'info',
        userId: account.id,
        meta,
        // Unconfirmed: the newest sign-up decides the password and only its link works, so whoever
        // registers an address first cannot keep the account once its owner signs up.
        ...(!confirmed && account.id !== candidate.id
          ? { details: { again_before_confirmation: true } }
          : {}),
      });
      await mailer.queueRequest(trx, {
        kind: confirmed ? mailKinds.accountExists : mailKinds.verification,
        to: candidate.email,
      });
    });
  }

  return {
    /** A new account's row, for a caller that inserts it in its own transaction (an invitation's sign-up). */
    newAccountRow: newUserRow,

    /** Creates an account directly (first admin, CLI); the caller has checked nobody holds the e-mail. */
    async createAccount(account: NewAccount): Promise<UserRow> {
      const user = newUserRow(account, await passwords.hash(account.password));
      await insertUser(db, user);
      return user;
    },

    /**
     * Answers alike, and after the same work (one password hash and one transaction), whether or
     * not the address has an account. The owner of an existing account is told by mail instead.
     */
    async register(input: RegisterRequest, meta: RequestMeta): Promise<string> {
      assertAcceptableNewPassword(input.password, input.email);
      await completeRegistration(input, await passwords.hash(input.password), meta);
      return authAnswers.registered;
    },

    /**
     * Confirms the address. A link opened again (a mail scanner got there first, a double click)
     * whose account is already confirmed is answered as done, not as a dead link.
     */
    async verifyRegistration(token: string, meta: RequestMeta): Promise<string> {
      return db.transaction().execute(async (trx) => {
        const userId = await consumeEmailToken(trx, clock, token, 'verify_email');
        if (!userId) {
          const owner = await findEmailTokenOwner(trx, token, 'verify_email');
          const account = owner ? await findUserById(trx, owner) : undefined;
          if (account && account.email_verified_at !== null) return authAnswers.alreadyVerified;
          throw badRequest(
            'invalid_verification_token',
            'This confirmation link is invalid or has expired. Ask for a new one.',
          );
        }
        const now = isoNow(clock);
        await updateUser(trx, userId, { email_verified_at: now, updated_at: now });
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.emailVerified,
          severity: 'info',
          userId,
          meta,
        });
        return authAnswers.verified;
      });
    },

    /** Queues the request alone: whether the address has an account is looked up when it is sent. */
    async resendVerification(email: string): Promise<string> {
      await mailer.queueRequest(db, { kind: mailKinds.verification, to: email });
      return authAnswers.verificationResent;
    },

    /** The note to the owner of a confirmed account that somebody signed up with its address. */
    async prepareAccountExists(trx: DbOrTransaction, request: MailRequest): Promise<MailMessage | null> {
      const user = await findUserByEmail(trx, request.to);
      if (!user || user.email_verified_at === null) return null;
      return accountExistsMail(
        user.email,
        portalLink(deps.publicUrl, portalPaths.login),
        portalLink(deps.publicUrl, portalPaths.forgotPassword),
        mailLanguage(user),
      );
    },

    /** The content of a requested confirmation link: none unless the account still awaits one. */
    async prepareVerification(trx: DbOrTransaction, request: MailRequest): Promise<MailMessage | null> {
      const user = await findUserByEmail(trx, request.to);
      if (!user || user.email_verified_at !== null || user.status !== 'active') return null;
      const token = await issueEmailToken(
        trx,
        clock,
        user.id,
        'verify_email',
        EMAIL_VERIFICATION_TTL_SECONDS,
      );
      return verificationMail(
        user.email,
        portalLink(deps.publicUrl, portalPaths.verifyRegistration, token),
        mailLanguage(user),
      );
    },
  };
}
