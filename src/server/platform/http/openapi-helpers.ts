import { apiErrorSchema } from '../../../shared/api/errors.js';

/** Documents the error statuses a route can answer, all with the one error body. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as Record<
    number,
    typeof apiErrorSchema
  >;

export const bearerSecurity = [{ bearerAuth: [], apiKey: [] }];
export const apiKeySecurity = [{ apiKey: [] }];

/** The areas of the API, in the order the reference lists them. Every operation's tags are declared here. */
export const OPENAPI_TAGS: { name: string; description: string }[] = [
  { name: 'health', description: 'Whether the server and its database answer, for monitoring.' },
  {
    name: 'auth',
    description:
      'Registration, e-mail confirmation, sign-in, sessions (access and refresh tokens) and passwords.',
  },
  { name: 'users', description: 'The signed-in user’s profile and preferences.' },
  {
    name: 'account-data',
    description:
      'The signed-in user’s own data: an archive of it mailed as a link, and the account’s deletion after a grace period. Never with an API token.',
  },
  {
    name: 'two-factor',
    description: 'Second factors of the signed-in user: an authenticator app (TOTP) and recovery codes.',
  },
  {
    name: 'passkeys',
    description: 'Passkeys (WebAuthn): signing in with one, and the signed-in user’s own passkeys.',
  },
  {
    name: 'api-tokens',
    description:
      'Personal API tokens (`aap_…`) for scripts and integrations, each limited to the scopes it was given.',
  },
  {
    name: 'notifications',
    description:
      'The unsubscribe link of the portal’s e-mails; the signed token in the link is the credential.',
  },
  {
    name: 'licenses',
    description: 'The user’s licenses, their machines (seats), feature use and installers.',
  },
  {
    name: 'licensing',
    description:
      'License checks of a machine by key and hardware id, the keys that verify offline leases, and their settings.',
  },
  {
    name: 'organisations',
    description:
      'Organizations with named seats: members and roles, invitations, seats bought and assigned, and a member activating a machine on their seat.',
  },
  {
    name: 'scim',
    description:
      'SCIM 2.0 (RFC 7644) under `/scim/v2` for identity providers (Entra ID, Okta): an organization’s users and groups, ' +
      'authenticated by its provisioning token (`Authorization: Bearer scim_…`, no API key). Answers are ' +
      '`application/scim+json`; errors carry the SCIM error schema with `detail`, `message` and `code`.',
  },
  {
    name: 'invitations',
    description:
      'An organization invitation’s link: what it offers, accepting it, and creating an account from it; the token in the body is the credential.',
  },
  { name: 'plans', description: 'The plans on offer; every plan, for administrators.' },
  { name: 'features', description: 'The features plans include and meter (administrators).' },
  {
    name: 'payments',
    description: 'Checkout orders for paid plans, their verification and history, and the Razorpay webhook.',
  },
  {
    name: 'subscriptions',
    description: 'Monthly and yearly subscriptions: checkout, renewal, cancellation, plan and card changes.',
  },
  {
    name: 'coupons',
    description: 'Discount coupons: what one takes off a plan; their management (administrators).',
  },
  { name: 'billing', description: 'Billing details printed on invoices, invoices and credit notes.' },
  { name: 'support', description: 'Support requests from customers, and their handling by administrators.' },
  {
    name: 'webhooks',
    description:
      'Webhook endpoints that receive signed notifications of events (Standard Webhooks), and their deliveries (administrators).',
  },
  {
    name: 'usage',
    description:
      'Metered AI use reported by the vendor’s AI backend for any license, and read back (platform tokens with usage:write or usage:read).',
  },
  {
    name: 'admin',
    description:
      'The admin console: figures, users, licenses and their machines, security events (administrators).',
  },
];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const ERROR_REF = '#/components/schemas/ApiError';
const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** What a status means on this API, for responses the route schemas leave undescribed. */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '400': 'Bad request: the input is refused (`errors` names each field)',
  '401': 'Not authenticated: a missing or unknown `X-API-Key`, or a missing, expired or revoked token',
  '402': 'Payment required',
  '403':
    'Forbidden: the caller may not do this (an API token without the scope it needs: `insufficient_scope`)',
  '404': 'Not found',
  '409': 'Conflict with the current state',
  '410': 'Gone',
  '413': 'Request body too large',
  '415': 'Unsupported content type',
  '422': 'Unprocessable request',
  '429': 'Too many requests (see `Retry-After`)',
  '503': 'Service unavailable',
};

interface Operation {
  security?: Record<string, string[]>[];
  responses?: Record<string, { description?: string; content?: unknown }>;
}
type Document = {
  paths?: Record<string, Record<string, unknown> | undefined>;
  components?: { schemas?: Record<string, unknown> };
};

/** Every operation of a document, with its path and method (typed as the caller reads them). */
export function operationsOf<Op extends object = Operation>(
  document: Pick<Document, 'paths'>,
): { path: string; method: string; operation: Op }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {})
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Op })),
  );
}

/** Every `$ref` anywhere in a value. */
const refsIn = (value: unknown, into: string[] = []): string[] => {
  if (Array.isArray(value)) for (const inner of value) refsIn(inner, into);
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value))
      if (key === '$ref' && typeof inner === 'string') into.push(inner);
      else refsIn(inner, into);
  return into;
};

const errorResponse = () => ({
  description: '',
  content: { 'application/json': { schema: { $ref: ERROR_REF } } },
});

/**
 * Finishes the generated document for clients and linters:
 * - an operation behind the API key can always answer 401 (the key check runs before any route),
 *   and one taking a bearer token 403 (an API token without the operation's scope), so these are
 *   documented where the route left them out;
 * - responses get a description of their status instead of the generator's "Default Response";
 * - component schemas no operation reaches are dropped: zod registers an input and an output
 *   form of every schema, and a request body uses only the one, a response only the other; the
 *   rest are sorted by name;
 * - paths are sorted too.
 */
export function finishOpenApiDocument<T extends Document>(document: T): T {
  for (const { operation } of operationsOf(document)) {
    const responses = (operation.responses ??= {});
    const requires = (scheme: string) => operation.security?.some((requirement) => scheme in requirement);
    if (requires('apiKey') && !responses['401']) responses['401'] = errorResponse();
    // Any operation taking a bearer token refuses an API token without its scope: 403 insufficient_scope.
    if (requires('bearerAuth') && !responses['403']) responses['403'] = errorResponse();
    for (const [status, response] of Object.entries(responses))
      if (!response.description || response.description === 'Default Response')
        response.description = STATUS_DESCRIPTIONS[status] ?? `HTTP ${status}`;
  }

  // Sorted by path: the contexts register their routes in the order of their direction, which
  // says nothing to a reader of the document, and a new context must not reorder generated clients.
  const paths = document.paths;
  if (paths) {
    const sorted = Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const path of Object.keys(paths)) delete paths[path];
    Object.assign(paths, Object.fromEntries(sorted));
  }

  const schemas = document.components?.schemas;
  if (schemas) {
    const reached = new Set<string>();
    const pending = refsIn(document.paths);
    for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
      if (!ref.startsWith(SCHEMA_REF_PREFIX)) continue;
      const name = ref.slice(SCHEMA_REF_PREFIX.length);
      if (reached.has(name)) continue;
      reached.add(name);
      refsIn(schemas[name], pending);
    }
    // Sorted by name: the order zod registered them in follows module loading, which differs
    // between entry points (the server, a script, a test), and generated clients must not.
    const kept = Object.entries(schemas)
      .filter(([name]) => reached.has(name))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of Object.keys(schemas)) delete schemas[name];
    Object.assign(schemas, Object.fromEntries(kept));
  }
  return document;
}
