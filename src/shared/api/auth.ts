import { z } from 'zod';
import { USER_ROLES } from '../constants.js';
import {
  currentPasswordSchema,
  displayText,
  emailSchema,
  isoDateTimeSchema,
  newPasswordSchema,
  opaqueTokenSchema,
  signInNameSchema,
} from './common.js';
import { apiErrorSchema } from './errors.js';
import { languageTagSchema, userProfileSchema } from './users.js';

export const registerRequestSchema = z
  .strictObject({
    email: emailSchema,
    password: newPasswordSchema,
    full_name: displayText(100).optional(),
    /** The language the portal was shown in: the new account's, so its mail speaks it from the first. */
    language: languageTagSchema.optional(),
  })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** OAuth2 password-flow form (`application/x-www-form-urlencoded`); `username` carries the e-mail. */
export const loginFormSchema = z
  .strictObject({
    username: signInNameSchema,
    password: currentPasswordSchema,
    grant_type: z.literal('password').optional(),
    scope: z.string().max(200).optional(),
    client_id: z.string().max(200).optional(),
    client_secret: z.string().max(200).optional(),
  })
  .meta({ id: 'LoginForm' });

/** The JSON login accepts the e-mail as `email` or, like the form, as `username`. */
export const loginJsonRequestSchema = z
  .strictObject({
    email: signInNameSchema.optional(),
    username: signInNameSchema.optional(),
    password: currentPasswordSchema,
  })
  .refine((body) => body.email !== undefined || body.username !== undefined, {
    message: 'Enter your e-mail address',
    path: ['email'],
  })
  .meta({ id: 'LoginJsonRequest' });

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int().describe('Seconds until the access token expires'),
    refresh_expires_in: z.number().int().describe('Seconds until the refresh token can no longer be used'),
    user: userProfileSchema,
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The ways a pending sign-in can prove its second factor. */
export const SECOND_FACTOR_METHODS = ['totp', 'recovery_code', 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/**
 * The first step of a sign-in to an account with a second factor: the password was right, no
 * tokens yet; `challenge` goes to /auth/login/second-factor with a code within `expires_in`.
 */
export const secondFactorRequiredSchema = z
  .object({
    second_factor_required: z.literal(true),
    challenge: z.string().describe('Short-lived and single-use: send it back with the second factor'),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
    expires_in: z.number().int().describe('Seconds the challenge stays valid'),
  })
  .meta({ id: 'SecondFactorRequired' });
export type SecondFactorRequired = z.infer<typeof secondFactorRequiredSchema>;

/** What a password sign-in answers: tokens, or the challenge of a second step. */
export const loginResponseSchema = z
  .union([tokenResponseSchema, secondFactorRequiredSchema])
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const isSecondFactorRequired = (answer: LoginResponse): answer is SecondFactorRequired =>
  'second_factor_required' in answer;

/** Why a session ended, as the refresh call tells a device whose session was ended elsewhere. */
export const SESSION_END_REASONS = [
  'signed_out',
  'signed_out_everywhere',
  'signed_out_elsewhere',
  'password_changed',
  'password_reset',
  'role_changed',
  'account_disabled',
  'session_reused',
  'session_expired',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** A refused refresh: the error body, with the reason when the token belonged to a session that ended. */
export const refreshRefusalSchema = apiErrorSchema
  .extend({ reason: z.enum(SESSION_END_REASONS).optional().describe('Why the session ended') })
  .meta({ id: 'RefreshRefusal' });

export const refreshRequestSchema = z
  .strictObject({ refresh_token: opaqueTokenSchema })
  .meta({ id: 'RefreshRequest' });

export const logoutRequestSchema = z
  .strictObject({ refreshToken: opaqueTokenSchema })
  .meta({ id: 'LogoutRequest' });

export const validateTokenRequestSchema = z
  .strictObject({ token: z.string().min(1).max(4096).optional() })
  .meta({ id: 'ValidateTokenRequest' });

export const validateTokenResponseSchema = z
  .object({
    valid: z.literal(true),
    user_id: z.string(),
    role: z.enum(USER_ROLES),
    exp: z.number().int(),
  })
  .meta({ id: 'ValidateTokenResponse' });

export const emailOnlyRequestSchema = z.strictObject({ email: emailSchema }).meta({ id: 'EmailRequest' });

export const verifyRegistrationRequestSchema = z
  .strictObject({ token: opaqueTokenSchema })
  .meta({ id: 'VerifyRegistrationRequest' });

export const resetPasswordRequestSchema = z
  .strictObject({ token: opaqueTokenSchema, new_password: newPasswordSchema })
  .meta({ id: 'ResetPasswordRequest' });

/** Claims of the access token; clients read only `role` and `exp`. */
export interface AccessTokenClaims {
  sub: string;
  role: (typeof USER_ROLES)[number];
  exp: number;
  iat: number;
  iss: string;
  aud: string;
  jti: string;
  /** Session version of the account: a password change raises it, so older tokens stop working. */
  sv: number;
  /** The session (refresh family) the token was issued from: once it ends, so does the token. */
  sid: string;
}

/** A live session of the caller's account: one sign-in on one device, until it ends. */
export const accountSessionSchema = z
  .object({
    id: z.string(),
    device: z.string().describe('The browser and system it signed in with, e.g. "Chrome on Linux"'),
    ip: z.string().nullable().describe('The address it signed in from'),
    signed_in_at: isoDateTimeSchema,
    last_active_at: isoDateTimeSchema.describe('When it last renewed its access (or signed in)'),
    expires_at: isoDateTimeSchema.describe('When it ends without activity at the latest'),
    current: z.boolean().describe('The session making this request'),
  })
  .meta({ id: 'AccountSession' });
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionListSchema = z
  .object({ data: z.array(accountSessionSchema) })
  .meta({ id: 'AccountSessionList' });

export const signedOutOthersSchema = z
  .object({ message: z.string(), ended: z.number().int().describe('Sessions that ended') })
  .meta({ id: 'SignedOutOthers' });

export const sessionParamsSchema = z.object({ id: z.uuid('Not a session id') });
