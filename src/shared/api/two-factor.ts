import { z } from 'zod';
import { currentPasswordSchema, opaqueTokenSchema } from './common.js';

/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238), its recovery codes, the platform
 * setting that requires it of administrators, and step-up: the fresh proof sensitive changes need.
 */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

/** Six digits; spaces people type in the middle ("123 456") are dropped. */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

/** A recovery code as shown ("abcde-fghij"); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string()
  .max(64, 'Enter one of your recovery codes')
  .transform((value) => value.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10,32}$/, 'Enter one of your recovery codes'));

export const twoFactorStatusSchema = z
  .object({
    totp_enabled: z.boolean().describe('An authenticator app is confirmed'),
    totp_pending: z.boolean().describe('Enrollment started and waits for its confirmation code'),
    recovery_codes_left: z.number().int(),
    passkeys: z.number().int().describe('How many passkeys the account has'),
    required: z.boolean().describe('The platform requires a second factor of this account'),
  })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const totpEnrolmentSchema = z
  .object({
    secret: z.string().describe('The base32 secret, for typing into an app that cannot scan'),
    otpauth_uri: z.string().describe('otpauth://totp/… (the QR code holds it)'),
    qr_svg: z.string().describe('The otpauth URI as an SVG QR code'),
  })
  .meta({ id: 'TotpEnrolment' });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const totpCodeRequestSchema = z.strictObject({ code: totpCodeSchema }).meta({ id: 'TotpCodeRequest' });
export type TotpCodeRequest = z.input<typeof totpCodeRequestSchema>;

export const recoveryCodesSchema = z
  .object({
    recovery_codes: z
      .array(z.string())
      .describe('Shown this once: each signs in once when the authenticator app is lost'),
  })
  .meta({ id: 'RecoveryCodes' });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** The second step of a sign-in: the challenge of the first step and a code or a recovery code. */
export const secondFactorLoginRequestSchema = z
  .union([
    z.strictObject({ challenge: opaqueTokenSchema, code: totpCodeSchema }),
    z.strictObject({ challenge: opaqueTokenSchema, recovery_code: recoveryCodeSchema }),
  ])
  .meta({ id: 'SecondFactorLoginRequest' });
export type SecondFactorLoginRequest = z.input<typeof secondFactorLoginRequestSchema>;

/** A fresh proof for sensitive changes: the password, a code from the app, or a recovery code. */
export const stepUpRequestSchema = z
  .union([
    z.strictObject({ password: currentPasswordSchema }),
    z.strictObject({ code: totpCodeSchema }),
    z.strictObject({ recovery_code: recoveryCodeSchema }),
  ])
  .meta({ id: 'StepUpRequest' });
export type StepUpRequest = z.input<typeof stepUpRequestSchema>;

export const stepUpResponseSchema = z
  .object({
    stepped_up_at: z.string().describe('ISO 8601 date and time, UTC'),
    expires_in: z.number().int().describe('Seconds the session may make sensitive changes'),
  })
  .meta({ id: 'StepUpResponse' });
export type StepUpResponse = z.infer<typeof stepUpResponseSchema>;

export const securitySettingsSchema = z
  .object({
    require_admin_two_factor: z
      .boolean()
      .describe('Every administrator must have a second factor before using the admin API'),
  })
  .meta({ id: 'SecuritySettings' });
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;
