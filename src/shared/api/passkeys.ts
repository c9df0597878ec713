import { z } from 'zod';
import { displayText, isoDateTimeSchema, opaqueTokenSchema } from './common.js';

/**
 * Passkeys (WebAuthn credentials): the account's list, the ceremonies that register one and sign
 * in with one. A ceremony's options come with a `ceremony` token that the client sends back with
 * the authenticator's answer; the server keeps the WebAuthn challenge behind it, used once.
 */

export const PASSKEY_NAME_MAX_LENGTH = 60;

export const passkeyNameSchema = displayText(PASSKEY_NAME_MAX_LENGTH).min(1, 'Name the passkey');

export const passkeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: isoDateTimeSchema,
    last_used_at: isoDateTimeSchema.nullable().describe('When it last signed in or confirmed a change'),
    device_type: z
      .enum(['singleDevice', 'multiDevice'])
      .describe('multiDevice: synced between devices (a password manager or a platform account)'),
    backed_up: z.boolean(),
  })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ data: z.array(passkeySchema) }).meta({ id: 'PasskeyList' });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

const ceremonySchema = opaqueTokenSchema.describe('The ceremony token the options came with');

/** Options for the browser's `navigator.credentials.create()` / `.get()`, as JSON (base64url buffers). */
const webAuthnOptionsSchema = z
  .looseObject({ challenge: z.string() })
  .describe(
    'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON (WebAuthn Level 3)',
  );

export const passkeyCeremonySchema = z
  .object({ ceremony: ceremonySchema, options: webAuthnOptionsSchema })
  .meta({ id: 'PasskeyCeremony' });
export type PasskeyCeremony = z.infer<typeof passkeyCeremonySchema>;

const base64UrlSchema = z
  .string()
  .max(16_384, 'Too long')
  .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

/** The authenticator's answer to `create()` (RegistrationResponseJSON). */
export const registrationResponseSchema = z
  .looseObject({
    id: base64UrlSchema.min(1),
    rawId: base64UrlSchema.min(1),
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: base64UrlSchema,
      attestationObject: base64UrlSchema,
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
    clientExtensionResults: z.looseObject({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .meta({ id: 'RegistrationResponse' });

/** The authenticator's answer to `get()` (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z
  .looseObject({
    id: base64UrlSchema.min(1),
    rawId: base64UrlSchema.min(1),
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: base64UrlSchema,
      authenticatorData: base64UrlSchema,
      signature: base64UrlSchema,
      userHandle: base64UrlSchema.optional(),
    }),
    clientExtensionResults: z.looseObject({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .meta({ id: 'AuthenticationResponse' });

export const finishPasskeyRegistrationRequestSchema = z
  .strictObject({ ceremony: ceremonySchema, name: passkeyNameSchema, response: registrationResponseSchema })
  .meta({ id: 'FinishPasskeyRegistrationRequest' });

export const renamePasskeyRequestSchema = z
  .strictObject({ name: passkeyNameSchema })
  .meta({ id: 'RenamePasskeyRequest' });

export const passkeyParamsSchema = z.object({ passkeyId: z.string().min(1).max(64) });

export const passkeySignInOptionsRequestSchema = z
  .strictObject({
    challenge: opaqueTokenSchema
      .optional()
      .describe('The second-factor challenge of a password sign-in; without it, a passwordless sign-in'),
  })
  .nullish()
  .meta({ id: 'PasskeySignInOptionsRequest' });

export const passkeySignInRequestSchema = z
  .strictObject({
    challenge: opaqueTokenSchema.optional().describe('The second-factor challenge, as given to the options'),
    ceremony: ceremonySchema,
    response: authenticationResponseSchema,
  })
  .meta({ id: 'PasskeySignInRequest' });

export const passkeyStepUpRequestSchema = z
  .strictObject({ ceremony: ceremonySchema, response: authenticationResponseSchema })
  .meta({ id: 'PasskeyStepUpRequest' });

export const stepUpDoneSchema = z
  .object({ stepped_up_at: isoDateTimeSchema })
  .meta({ id: 'PasskeyStepUpDone' });
