import { z } from 'zod';
import { secondFactorRequiredSchema, tokenResponseSchema } from './auth.js';
import { emailSchema, isoDateTimeSchema, opaqueTokenSchema } from './common.js';
import { ASSIGNABLE_ORGANISATION_ROLES, organisationIdSchema } from './organisations.js';

// Single sign-on per organisation, through OpenID Connect or SAML 2.0: its settings (owners and
// admins) and the sign-in's calls (anyone, the provider proving who they are).

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

export const organisationOidcSchema = z
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
  .meta({ id: 'OrganisationOidc' });
export type OrganisationOidc = z.infer<typeof organisationOidcSchema>;

/** The most a pasted or fetched identity provider's metadata may weigh. */
export const MAX_SAML_METADATA_CHARS = 200_000;

const metadataUrlSchema = z
  .string()
  .trim()
  .max(1000, 'metadata_url must be at most 1000 characters')
  .pipe(
    z.url({
      protocol: /^https?$/,
      error: 'metadata_url must be an https:// URL, e.g. https://idp.example.com/metadata',
    }),
  );

export const organisationSamlBodySchema = z
  .strictObject({
    metadata_xml: z
      .string()
      .trim()
      .min(1, 'metadata_xml is empty')
      .max(MAX_SAML_METADATA_CHARS, `metadata_xml must be at most ${MAX_SAML_METADATA_CHARS} characters`)
      .optional()
      .describe('The identity provider’s metadata (an EntityDescriptor), pasted'),
    metadata_url: metadataUrlSchema
      .optional()
      .describe('Where to read the metadata, once, when saved (https:// only)'),
    group_attribute: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullable()
      .default(null)
      .describe('The assertion’s attribute listing the person’s groups (e.g. `groups`)'),
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
  .refine((body) => body.metadata_xml === undefined || body.metadata_url === undefined, {
    message: 'Give metadata_xml or metadata_url, not both',
    path: ['metadata_url'],
  })
  .meta({
    id: 'OrganisationSamlSettings',
    description:
      'The identity provider comes from its metadata, pasted or read from a URL; with neither, the ' +
      'stored provider is kept (a SAML provider must already be set up).',
  });
export type OrganisationSamlBody = z.input<typeof organisationSamlBodySchema>;

export const samlCertificateSchema = z
  .object({
    subject: z.string(),
    not_after: isoDateTimeSchema.describe('When the certificate expires'),
    sha256_fingerprint: z.string().describe('SHA-256 of the certificate, hex pairs separated by colons'),
  })
  .meta({ id: 'SamlCertificate' });
export type SamlCertificate = z.infer<typeof samlCertificateSchema>;

export const organisationSamlSchema = z
  .object({
    protocol: z.literal('saml'),
    idp_entity_id: z.string().describe('The identity provider’s entity id: the Issuer of its assertions'),
    idp_sso_url: z.string().describe('Where the browser is sent with the AuthnRequest (HTTP-Redirect)'),
    idp_certificates: z.array(samlCertificateSchema).describe('Assertions must be signed by one of these'),
    metadata_url: z.string().nullable().describe('Where the metadata was read; null when it was pasted'),
    group_attribute: z.string().nullable(),
    role_mapping: z.array(ssoRoleRuleSchema),
    require_sso: z.boolean(),
    updated_at: isoDateTimeSchema,
    last_test: ssoTestResultSchema.nullable(),
  })
  .meta({ id: 'OrganisationSaml' });
export type OrganisationSaml = z.infer<typeof organisationSamlSchema>;

export const organisationSsoSchema = z
  .discriminatedUnion('protocol', [organisationOidcSchema, organisationSamlSchema])
  .meta({ id: 'OrganisationSso' });
export type OrganisationSso = z.infer<typeof organisationSsoSchema>;

export const samlServiceProviderSchema = z
  .object({
    entity_id: z.string().describe('Our entity id (the Audience the assertions must name)'),
    acs_url: z.string().describe('Our Assertion Consumer Service (HTTP-POST): the Recipient and Destination'),
    metadata_url: z.string().describe('Our metadata, for the identity provider to read'),
  })
  .meta({ id: 'SamlServiceProvider' });
export type SamlServiceProvider = z.infer<typeof samlServiceProviderSchema>;

export const organisationSsoAnswerSchema = z
  .object({
    sso: organisationSsoSchema.nullable(),
    redirect_uri: z.string().describe('The OpenID Connect callback to register with the provider'),
    saml: samlServiceProviderSchema.describe('What to enter at a SAML identity provider'),
  })
  .meta({ id: 'OrganisationSsoAnswer' });
export type OrganisationSsoAnswer = z.infer<typeof organisationSsoAnswerSchema>;

export const ssoDiscoverBodySchema = z.strictObject({ email: emailSchema });
/**
 * The e-mail-first sign-in's answer: whether to send the address to a provider (start with
 * /auth/sso/start and the same address), and whether its password is refused. Nothing of the
 * organisation, and an unknown domain is answered as a domain without single sign-on.
 */
export const ssoDiscoverySchema = z
  .object({
    sso: z.boolean().describe('Whether this address signs in through an organization’s provider'),
    required: z.boolean().describe('Whether a password sign-in is refused for this address'),
  })
  .meta({ id: 'SsoDiscovery' });
export type SsoDiscovery = z.infer<typeof ssoDiscoverySchema>;

/** A PKCE verifier (RFC 7636: 43 to 128 of its unreserved characters) and its S256 challenge. */
const pkceVerifierSchema = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'Not a PKCE code verifier');
const pkceChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not a base64url SHA-256 (S256)');

/**
 * A sign-in the desktop app starts for the system browser (docs/architecture.md): bound to the
 * app's main process by the S256 `code_challenge` of a verifier it keeps (instead of a browser
 * cookie), and sent back to its loopback listener at `http://127.0.0.1:<port>/sso`.
 */
export const ssoDesktopStartSchema = z
  .strictObject({
    code_challenge: pkceChallengeSchema,
    port: z.number().int().min(1024).max(65535),
  })
  .meta({ id: 'SsoDesktopStart' });
export type SsoDesktopStart = z.infer<typeof ssoDesktopStartSchema>;

export const ssoStartBodySchema = z
  .strictObject({
    email: emailSchema.optional(),
    organisation_id: organisationIdSchema.optional(),
    desktop: ssoDesktopStartSchema.optional(),
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

export const samlAcsBodySchema = z
  .looseObject({
    SAMLResponse: z.string().max(500_000).optional(),
    RelayState: z.string().max(512).optional(),
  })
  .meta({ id: 'SamlAcsForm' });

export const ssoCompleteBodySchema = z.strictObject({
  code: opaqueTokenSchema,
  /** A sign-in the desktop app started: the verifier of its `code_challenge` (refused without it). */
  code_verifier: pkceVerifierSchema.optional(),
});

export const ssoOutcomeSchema = z
  .object({
    organisation_id: z.string(),
    organisation_name: z.string(),
    joined: z.boolean().describe('This sign-in made the person a member'),
    has_seat: z
      .boolean()
      .describe(
        'The person can run the app on the organisation’s license: a named seat, or on a floating plan its shared pool',
      ),
    message: z.string().describe('What to tell the person: joined, signed in, or that no seat is free'),
  })
  .meta({ id: 'SsoOutcome' });
export type SsoOutcomeView = z.infer<typeof ssoOutcomeSchema>;

export const ssoSignInSchema = tokenResponseSchema
  .extend({ sso: ssoOutcomeSchema })
  .meta({ id: 'SsoSignIn' });
export type SsoSignIn = z.infer<typeof ssoSignInSchema>;

/**
 * The provider vouched for the person, whose account has a second factor of its own: no tokens
 * yet; `challenge` goes to /auth/login/second-factor (or a passkey's sign-in), as after a password.
 */
export const ssoSecondFactorSchema = secondFactorRequiredSchema
  .extend({ sso: ssoOutcomeSchema })
  .meta({ id: 'SsoSecondFactorRequired' });
export type SsoSecondFactor = z.infer<typeof ssoSecondFactorSchema>;

/** What trading the hand-over code answers: a session, or the second step of one. */
export const ssoCompleteAnswerSchema = z
  .union([ssoSignInSchema, ssoSecondFactorSchema])
  .meta({ id: 'SsoCompleteAnswer' });
export type SsoCompleteAnswer = z.infer<typeof ssoCompleteAnswerSchema>;

/** Where the callback sends the browser, in the fragment (never logged, never sent on). */
export const SSO_HANDOFF_FRAGMENT = 'sso_code';
export const SSO_ERROR_FRAGMENT = 'sso_error';

/** The body of the provider's return (a redirect): where the browser is sent, as the Location says. */
export const ssoReturnSchema = z
  .strictObject({ location: z.string().describe('The portal page the browser is sent to') })
  .meta({ id: 'SsoReturn' });
