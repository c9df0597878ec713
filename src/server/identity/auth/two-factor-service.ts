import type { TotpEnrolment, TwoFactorStatus } from '../../../shared/api/two-factor.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { badRequest, conflict } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { countUnusedRecoveryCodes, deleteRecoveryCodes } from './recovery-codes-repository.js';
import { replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.js';
import { readSecuritySettings } from './security-settings-repository.js';
import { matchTotpStep, newTotpSecret, type SecretCipher, totpEnrolmentOf } from './totp.js';
import {
  claimTotpStep,
  countPasskeys,
  deleteTotpAuthenticator,
  findTotpAuthenticator,
  savePendingTotp,
} from './totp-repository.js';

export interface TwoFactorDeps {
  db: Db;
  clock: Clock;
  cipher: SecretCipher;
}

/** A second factor as typed: a code from the app, or one of the recovery codes (normalised). */
export type SecondFactorAnswer = { code: string } | { recovery_code: string };

/** What second factors an account has. */
export async function secondFactorsOf(
  db: DbOrTransaction,
  userId: string,
): Promise<{ totp: boolean; passkeys: number }> {
  const totp = await findTotpAuthenticator(db, userId);
  return { totp: (totp?.confirmed_at ?? null) !== null, passkeys: await countPasskeys(db, userId) };
}

export const hasSecondFactor = async (db: DbOrTransaction, userId: string): Promise<boolean> => {
  const factors = await secondFactorsOf(db, userId);
  return factors.totp || factors.passkeys > 0;
};

/** Whether the platform requires this account to enrol a second factor it does not have yet. */
export async function mustEnrolSecondFactor(db: DbOrTransaction, user: Pick<UserRow, 'id' | 'role'>) {
  if (user.role !== 'admin') return false;
  if (!(await readSecuritySettings(db)).require_admin_two_factor) return false;
  return !(await hasSecondFactor(db, user.id));
}

const wrongCode = () =>
  badRequest('invalid_code', 'That code is not right. Enter the current code from your app.');

/** Enrolling, using and removing the authenticator app and the recovery codes. */
export function createTwoFactorService({ db, clock, cipher }: TwoFactorDeps) {
  /**
   * Checks an answer against the account's confirmed factors and spends it: a TOTP code's step
   * (so the same code, or an older one, never works again) or a recovery code.
   */
  async function verifySecondFactor(
    trx: DbOrTransaction,
    userId: string,
    answer: SecondFactorAnswer,
    meta: RequestMeta,
  ): Promise<'otp' | 'recovery_code' | null> {
    if ('recovery_code' in answer) {
      if (!(await useRecoveryCode(trx, userId, answer.recovery_code, isoNow(clock)))) return null;
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.recoveryCodeUsed,
        severity: 'warning',
        userId,
        meta,
        details: { left: await countUnusedRecoveryCodes(trx, userId) },
      });
      return 'recovery_code';
    }
    const authenticator = await findTotpAuthenticator(trx, userId);
    if (!authenticator?.confirmed_at) return null;
    const step = matchTotpStep(cipher.decrypt(authenticator.secret_ciphertext), answer.code, clock);
    if (step === null || !(await claimTotpStep(trx, userId, step, {}))) return null;
    return 'otp';
  }

  return {
    verifySecondFactor,

    async status(user: UserRow): Promise<TwoFactorStatus> {
      const authenticator = await findTotpAuthenticator(db, user.id);
      const settings = await readSecuritySettings(db);
      return {
        totp_enabled: (authenticator?.confirmed_at ?? null) !== null,
        totp_pending: authenticator !== undefined && authenticator.confirmed_at === null,
        recovery_codes_left: await countUnusedRecoveryCodes(db, user.id),
        passkeys: await countPasskeys(db, user.id),
        required: user.role === 'admin' && settings.require_admin_two_factor,
      };
    },

    /** A new secret waiting for its first code; starting again replaces an unconfirmed one. */
    async startTotpEnrolment(user: UserRow): Promise<TotpEnrolment> {
      const existing = await findTotpAuthenticator(db, user.id);
      if (existing?.confirmed_at)
        throw conflict('totp_already_enabled', 'An authenticator app is already set up. Remove it first.');
      const secret = newTotpSecret();
      await savePendingTotp(db, {
        userId: user.id,
        secretCiphertext: cipher.encrypt(secret),
        now: isoNow(clock),
      });
      const { otpauthUri, qrSvg } = await totpEnrolmentOf(secret, user.email);
      return { secret, otpauth_uri: otpauthUri, qr_svg: qrSvg };
    },

    /** The first code confirms the app; answers the ten recovery codes, shown this once. */
    async confirmTotp(user: UserRow, code: string, meta: RequestMeta): Promise<string[]> {
      const pending = await findTotpAuthenticator(db, user.id);
      if (!pending) throw conflict('totp_not_started', 'Start setting up an authenticator app first.');
      if (pending.confirmed_at)
        throw conflict('totp_already_enabled', 'The authenticator app is already set up.');
      const step = matchTotpStep(cipher.decrypt(pending.secret_ciphertext), code, clock);
      if (step === null) throw wrongCode();
      return db.transaction().execute(async (trx) => {
        // Confirms only a pending enrolment: of two concurrent confirmations one wins.
        if (!(await claimTotpStep(trx, user.id, step, { confirmAt: isoNow(clock) }))) throw wrongCode();
        const codes = await replaceRecoveryCodes(trx, user.id, isoNow(clock));
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.twoFactorEnabled,
          severity: 'info',
          userId: user.id,
          meta,
          details: { method: 'totp' },
        });
        return codes;
      });
    },

    /** Removes the app, with a fresh code (or a recovery code when the phone is lost). */
    async disableTotp(user: UserRow, answer: SecondFactorAnswer, meta: RequestMeta): Promise<void> {
      const authenticator = await findTotpAuthenticator(db, user.id);
      if (!authenticator) throw conflict('totp_not_enabled', 'No authenticator app is set up.');
      await db.transaction().execute(async (trx) => {
        if (authenticator.confirmed_at && !(await verifySecondFactor(trx, user.id, answer, meta)))
          throw wrongCode();
        await deleteTotpAuthenticator(trx, user.id);
        // Recovery codes stand in for a second factor: without any left they mean nothing.
        if ((await countPasskeys(trx, user.id)) === 0) await deleteRecoveryCodes(trx, user.id);
        if (authenticator.confirmed_at)
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.twoFactorDisabled,
            severity: 'warning',
            userId: user.id,
            meta,
            details: { method: 'totp' },
          });
      });
    },

    /** A new set of ten codes replaces the old one (used or not). */
    async regenerateRecoveryCodes(user: UserRow, meta: RequestMeta): Promise<string[]> {
      if (!(await hasSecondFactor(db, user.id)))
        throw conflict(
          'two_factor_not_enabled',
          'Set up a second factor first: recovery codes stand in for it.',
        );
      return db.transaction().execute(async (trx) => {
        const codes = await replaceRecoveryCodes(trx, user.id, isoNow(clock));
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.recoveryCodesRegenerated,
          severity: 'info',
          userId: user.id,
          meta,
        });
        return codes;
      });
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
