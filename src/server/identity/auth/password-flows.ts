import { PASSWORD_RESET_TTL_SECONDS } from '../../../shared/constants.js';
import { portalPaths } from '../../../shared/routes.js';
import { isoNow } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { badRequest, notFound } from '../../platform/http-error.js';
import type { MailMessage, MailRequest } from '../../platform/mail/message.js';
import {
  mailKinds,
  passwordChangedMail,
  passwordResetMail,
  passwordResetThroughSsoMail,
} from '../../platform/mail/templates.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { mailLanguage } from '../users/mail-preferences.js';
import { findUserByEmail, findUserById, updateUser } from '../users/repository.js';
import { type SecurityEventType, securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { passSsoGate } from './password-gate.js';
import { invalidTokenError } from './access-tokens.js';
import { authAnswers, portalLink } from './answers.js';
import { endEverySession } from './end-sessions.js';
import { consumeEmailToken, findUsableEmailToken, issueEmailToken } from './email-tokens.js';
import { clearAllLoginFailures } from './login-throttle.js';
import { assertAcceptableNewPassword } from './password-policy.js';
import type { AuthServiceDeps } from './auth-types.js';

/** Forgotten, reset and changed passwords; every one of them ends all sessions of the account. */
export function createPasswordFlows(deps: AuthServiceDeps) {
  const { db, clock, passwords, mailer } = deps;
  const forgotPasswordLink = () => portalLink(deps.publicUrl, portalPaths.forgotPassword);

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
    await endEverySession(trx, clock, user.id, event.type);
    await clearAllLoginFailures(trx, user.email);
    await recordSecurityEvent(trx, clock, { severity: 'warning', userId: user.id, ...event });
    return updated;
  }

  return {
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
     * Answers alike for every address, once the request alone is queued: whether the address has
     * an account is looked up, and the link made, when the mail is sent (see {@link prepareReset}).
     */
    async forgotPassword(email: string, meta: RequestMeta): Promise<string> {
      await mailer.queueRequest(db, {
        kind: mailKinds.passwordReset,
        to: email,
        details: { ip: meta.ip, ...(meta.userAgent === null ? {} : { user_agent: meta.userAgent }) },
      });
      return authAnswers.resetRequested;
    },

    /**
     * The content of a requested reset link: none for an address without an active account, and
     * where to sign in instead for one whose organisation requires single sign-on (the link would
     * be refused; a platform administrator's break-glass reset still gets one).
     */
    async prepareReset(trx: DbOrTransaction, request: MailRequest): Promise<MailMessage | null> {
      const user = await findUserByEmail(trx, request.to);
      if (!user || user.status !== 'active') return null;
      const requirement =
        user.role === 'admin' ? null : await deps.passwordGate?.requirementFor(user.email, trx);
      if (requirement)
        return passwordResetThroughSsoMail(
          user.email,
          requirement.organisationName,
          portalLink(deps.publicUrl, portalPaths.login),
          mailLanguage(user),
        );
      const token = await issueEmailToken(trx, clock, user.id, 'reset_password', PASSWORD_RESET_TTL_SECONDS);
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.passwordResetRequested,
        severity: 'info',
        userId: user.id,
        meta: {
          ip: request.details?.['ip'] ?? 'unknown',
          userAgent: request.details?.['user_agent'] ?? null,
        },
      });
      return passwordResetMail(
        user.email,
        portalLink(deps.publicUrl, portalPaths.resetPassword, token),
        mailLanguage(user),
      );
    },

    /** Sets a new password from an e-mailed link: single use, and every session of the user ends. */
    async resetPassword(token: string, newPassword: string, meta: RequestMeta): Promise<string> {
      const invalidLink = () =>
        badRequest('invalid_reset_token', 'This reset link is invalid or has expired. Ask for a new one.');
      // A dead link is refused before paying for a hash; the transaction checks it again.
      const tokenOwner = await findUsableEmailToken(db, clock, token, 'reset_password');
      if (!tokenOwner) throw invalidLink();
      // People whose organisation requires single sign-on have no password to reset (the link
      // stays usable: taking the requirement off lets it work); administrators' resets are logged.
      const holder = await findUserById(db, tokenOwner);
      const requirement = holder ? await passSsoGate(deps.passwordGate, holder) : null;
      const passwordHash = await passwords.hash(newPassword);
      await db.transaction().execute(async (trx) => {
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
        const updated = await applyNewPassword(trx, account, passwordHash, {
          type: securityEventTypes.passwordReset,
          meta,
        });
        if (requirement)
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.ssoBreakGlass,
            severity: 'critical',
            userId: account.id,
            actorId: account.id,
            meta,
            details: {
              organisation_id: requirement.organisationId,
              email: account.email,
              via: 'password_reset',
            },
          });
        await mailer.queue(
          trx,
          passwordChangedMail(updated.email, forgotPasswordLink(), mailLanguage(updated)),
        );
      });
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
      await db.transaction().execute(async (trx) => {
        await applyNewPassword(trx, user, passwordHash, { type: securityEventTypes.passwordChanged, meta });
        await mailer.queue(trx, passwordChangedMail(user.email, forgotPasswordLink(), mailLanguage(user)));
      });
      return authAnswers.passwordChanged;
    },
  };
}
