import { z } from 'zod';
import { displayText, isoDateTimeSchema } from './common.js';
import { pageQuerySchema, pagedSchema } from './paging.js';

/**
 * Every OpenAPI tag of the API, classified for API tokens: a token's scopes are `<tag>:read` and
 * `<tag>:write`, and an operation needs the scope of every tag it carries. A test checks that
 * every tag a route uses is listed here, so a new area cannot be reached (or hidden) by accident.
 */
/** What a customer's personal token may carry: their own licences, machines, billing… */
export const CUSTOMER_SCOPE_TAGS = [
  'licenses',
  'licensing',
  'users',
  'billing',
  'subscriptions',
  'payments',
  'plans',
  'features',
  'support',
  'coupons',
  'organisations',
] as const;
/**
 * What only an administrator's platform token may also carry; `usage` is the vendor's AI backend
 * reporting and reading any license's metered use (`usage:write`, `usage:read`).
 */
export const PLATFORM_ONLY_SCOPE_TAGS = ['admin', 'webhooks', 'usage'] as const;
/** Never reachable with a token: signing in, factors, passwords, the tokens themselves, and the account's own data. */
export const NEVER_TOKEN_TAGS = ['auth', 'two-factor', 'passkeys', 'api-tokens', 'account-data'] as const;
/**
 * Tags of routes open without a bearer token, or behind a credential of their own (SCIM's
 * organisation token), where an API token grants nothing.
 */
export const PUBLIC_TAGS = ['health', 'notifications', 'invitations', 'scim'] as const;

export type ScopeTag = (typeof CUSTOMER_SCOPE_TAGS)[number] | (typeof PLATFORM_ONLY_SCOPE_TAGS)[number];
export const PLATFORM_SCOPE_TAGS: readonly ScopeTag[] = [...CUSTOMER_SCOPE_TAGS, ...PLATFORM_ONLY_SCOPE_TAGS];

export const API_TOKEN_KINDS = ['personal', 'platform'] as const;
export type ApiTokenKind = (typeof API_TOKEN_KINDS)[number];

/** `<tag>:read` or `<tag>:write`; write implies read. */
export type ApiTokenScope = `${ScopeTag}:${'read' | 'write'}`;

/** The scopes a token of this kind may be given, in display order (read before write per tag). */
export const grantableScopes = (kind: ApiTokenKind): ApiTokenScope[] =>
  (kind === 'platform' ? PLATFORM_SCOPE_TAGS : CUSTOMER_SCOPE_TAGS).flatMap((tag) => [
    `${tag}:read` as const,
    `${tag}:write` as const,
  ]);

/** The token's prefix: secret scanners (and people) recognise a leaked token by it. */
export const API_TOKEN_PREFIX = 'aap_';
/** `aap_`, 43 base64url characters of randomness, 6 base62 characters of CRC32 checksum. */
export const API_TOKEN_PATTERN = /^aap_[A-Za-z0-9_-]{43}[0-9A-Za-z]{6}$/;

/** The expiry choices offered; the server accepts any whole number of days up to the maximum. */
export const API_TOKEN_EXPIRY_CHOICES_DAYS = [30, 90, 365] as const;
export const API_TOKEN_MAX_DAYS = 365;
export const API_TOKEN_NAME_MAX = 80;

const scopeSchema = z
  .string()
  .regex(/^[a-z-]+:(read|write)$/, 'A scope is <area>:read or <area>:write')
  .describe('`<tag>:read` or `<tag>:write` for an OpenAPI tag; write implies read');

export const createApiTokenBodySchema = z
  .strictObject({
    name: displayText(API_TOKEN_NAME_MAX).min(1, 'Give the token a name'),
    scopes: z
      .array(scopeSchema)
      .min(1, 'Choose at least one scope')
      .max(64)
      .refine((scopes) => new Set(scopes).size === scopes.length, 'A scope is listed twice'),
    expires_in_days: z
      .number('Choose when the token expires')
      .int('Whole days')
      .min(1, 'At least one day')
      .max(API_TOKEN_MAX_DAYS, `At most ${API_TOKEN_MAX_DAYS} days`),
  })
  .meta({ id: 'CreateApiTokenBody' });
export type CreateApiTokenBody = z.infer<typeof createApiTokenBodySchema>;

export const apiTokenSchema = z
  .object({
    id: z.string(),
    kind: z.enum(API_TOKEN_KINDS),
    name: z.string(),
    /** The non-secret start and the last four characters, enough to recognise it: `aap_Ab3d…x9Qz`. */
    prefix: z.string().describe('The first characters of the token (not secret)'),
    last_four: z.string(),
    scopes: z.array(z.string()),
    created_at: isoDateTimeSchema,
    expires_at: isoDateTimeSchema,
    last_used_at: isoDateTimeSchema.nullable(),
    last_used_ip: z.string().nullable(),
    revoked_at: isoDateTimeSchema.nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ data: z.array(apiTokenSchema) }).meta({ id: 'ApiTokenList' });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** The answer to creating a token: the only time the token itself is shown. */
export const createdApiTokenSchema = z
  .object({
    token: z.string().describe('The secret token; shown this once and never again'),
    api_token: apiTokenSchema,
  })
  .meta({ id: 'CreatedApiToken' });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export const adminApiTokenSchema = apiTokenSchema
  .extend({ user_id: z.string(), owner_email: z.string() })
  .meta({ id: 'AdminApiToken' });
export type AdminApiToken = z.infer<typeof adminApiTokenSchema>;

export const adminApiTokenListQuerySchema = pageQuerySchema([
  'created_at',
  'last_used_at',
  'expires_at',
]).extend({
  kind: z.enum(API_TOKEN_KINDS).optional(),
  user_id: z.string().trim().min(1).max(64).optional().describe('Only this account’s tokens'),
  status: z.enum(['active', 'inactive', 'all']).default('active'),
});
export type AdminApiTokenListQuery = z.input<typeof adminApiTokenListQuerySchema>;

export const adminApiTokenListSchema = pagedSchema(adminApiTokenSchema).meta({ id: 'AdminApiTokenList' });
export type AdminApiTokenList = z.infer<typeof adminApiTokenListSchema>;

export const apiTokenIdParamsSchema = z.object({ tokenId: z.string().trim().min(1).max(64) });
