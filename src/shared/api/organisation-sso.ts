import { z } from 'zod';
import { tokenResponseSchema } from './auth.js';
import { emailSchema, isoDateTimeSchema, opaqueTokenSchema } from './common.js';
import { ASSIGNABLE_ORGANISATION_ROLES, organisationIdSchema } from './organisations.js';

// Single sign-on through OpenID Connect, per organisation: its settings (owners and admins) and
// the sign-in's calls (anyone, the provider proving who they are).

/** The most group → role rules one organisation keeps. */
export const MAX_SSO_ROLE_RULES = 50;
/** How long a started sign-in waits for its callback, and a hand-over code for the portal. */
export const SSO_SIGN_IN_TTL_SECONDS = 600;
export const SSO_HANDOFF_TTL_SECONDS = 120;

const issuerSchema = z
  .string()
  .trim()
  .max(500, 'issuer must be at most 500 characters')
  .pipe(
    z.url({ protocol: /^https?$/, error: 'issuer must be an https:// URL, e.g. https://login.example.com' }),
  )
  .transform((value) => value.replace(/\/$/, ''));

const scopesSchema = z
  .string()
  .trim()
  .max(500)
  .refine(
    (value) => /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(value),
    'scopes are words separated by one space',
  )
  .refine((value) => value.split(' ').includes('openid'), 'scopes must include openid');

export const ssoRoleRuleSchema = z.strictObject({
  group: z.string().trim().min(1, 'group is required').max(200),
  role: z.enum(ASSIGNABLE_ORGANISATION_ROLES),
});

export const organisationSsoBodySchema = z
  .strictObject({
    issuer: issuerSchema.describe('The provider’s issuer; its discovery document is read when saved'),
    client_id: z.string().trim().min(1, 'client_id is required').max(500),
    client_secret: z
      .string()
      .min(1, 'client_secret is required')
      .max(2000)
      .optional()
      .describe('Required the first time; left out, the stored secret is kept. Never answered.'),
    scopes: scopesSchema.default('openid email profile'),
    group_claim: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullable()
      .default(null)
      .describe('The ID token claim listing the person’s groups (e.g. `groups`)'),
    role_mapping: z
      .array(ssoRoleRuleSchema)
      .max(MAX_SSO_ROLE_RULES)
      .default([])
      .describe('First matching group gives the role of a person joining; none matches: member'),
    require_sso: z
      .boolean()
      .default(false)
      .describe('People of the verified domains may no longer sign in with a password'),
  })
  .meta({ id: 'OrganisationSsoSettings' });
export type OrganisationSsoBody = z.input<typeof organisationSsoBodySchema>;

export const ssoTestResultSchema = z
  .object({
    ok: z.boolean(),
    at: isoDateTimeSchema,
    message: z.string(),
    email: z.string().nullable(),
    groups: z.array(z.string()),
    role: z.enum(ASSIGNABLE_ORGANISATION_ROLES).nullable().describe('The role the groups would give'),
  })
  .meta({ id: 'SsoTestResult' });
export type SsoTestResult = z.infer<typeof ssoTestResultSchema>;

export const organisationSsoSchema = z
  .object({
    protocol: z.literal('oidc'),
    issuer: z.string(),
    client_id: z.string(),
    client_secret_set: z.literal(true).describe('The secret is kept encrypted and never shown'),
    scopes: z.string(),
    group_claim: z.string().nullable(),
    role_mapping: z.array(ssoRoleRuleSchema),
    require_sso: z.boolean(),
    redirect_uri: z.string().describe('The callback to register with the provider'),
    updated_at: isoDateTimeSchema,
    last_test: ssoTestResultSchema.nullable(),
  })
  .meta({ id: 'OrganisationSso' });
export type OrganisationSso = z.infer<typeof organisationSsoSchema>;

export const organisationSsoAnswerSchema = z
  .object({ sso: organisationSsoSchema.nullable(), redirect_uri: z.string() })
  .meta({ id: 'OrganisationSsoAnswer' });
export type OrganisationSsoAnswer = z.infer<typeof organisationSsoAnswerSchema>;

export const ssoDiscoverBodySchema = z.strictObject({ email: emailSchema });
export const ssoDiscoverySchema = z
  .object({
    sso: z.boolean().describe('Whether this address signs in through an organization’s provider'),
    organisation_id: z.string().nullable(),
    organisation_name: z.string().nullable(),
    required: z.boolean().describe('Whether a password sign-in is refused for this address'),
  })
  .meta({ id: 'SsoDiscovery' });
export type SsoDiscovery = z.infer<typeof ssoDiscoverySchema>;

export const ssoStartBodySchema = z
  .strictObject({
    email: emailSchema.optional(),
    organisation_id: organisationIdSchema.optional(),
  })
  .refine((body) => (body.email === undefined) !== (body.organisation_id === undefined), {
    message: 'Give either email or organisation_id',
  });
export type SsoStartBody = z.input<typeof ssoStartBodySchema>;

export const ssoRedirectSchema = z
  .object({ authorization_url: z.string().describe('Send the browser here: the provider’s sign-in') })
  .meta({ id: 'SsoRedirect' });
export type SsoRedirect = z.infer<typeof ssoRedirectSchema>;

export const ssoCallbackQuerySchema = z.looseObject({
  state: z.string().max(512).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
  iss: z.string().max(500).optional(),
});

export const ssoCompleteBodySchema = z.strictObject({ code: opaqueTokenSchema });

export const ssoSignInSchema = tokenResponseSchema
  .extend({
    sso: z.object({
      organisation_id: z.string(),
      organisation_name: z.string(),
      joined: z.boolean().describe('This sign-in made the person a member'),
      has_seat: z.boolean(),
      message: z.string(),
    }),
  })
  .meta({ id: 'SsoSignIn' });
export type SsoSignIn = z.infer<typeof ssoSignInSchema>;

/** Where the callback sends the browser, in the fragment (never logged, never sent on). */
export const SSO_HANDOFF_FRAGMENT = 'sso_code';
export const SSO_ERROR_FRAGMENT = 'sso_error';

/** The body of the provider's return (a redirect): where the browser is sent, as the Location says. */
export const ssoReturnSchema = z
  .strictObject({ location: z.string().describe('The portal page the browser is sent to') })
  .meta({ id: 'SsoReturn' });
