import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_INVITATION_TTL_HOURS } from '../../shared/api/organisations.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT,
  PRODUCT_NAME,
} from '../../shared/constants.js';
import { judgeNewPassword } from '../../shared/password-rule.js';

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Sign-ins that may wait for a hash (about 5–10 s of work on one core) before new ones get 503. */
const PASSWORD_HASH_QUEUE_LIMIT = 256;

/** MAIL_FROM: `address` or `Name <address>`, the address one local part, one @ and a host, no spaces. */
const MAIL_FROM_PATTERN = /^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/**
 * The sender when MAIL_FROM is unset: no-reply@ the host PUBLIC_URL names, so mail from a deployed
 * portal does not come from `localhost`; no-reply@localhost while PUBLIC_URL is unset or names an
 * IP address, which no mailbox is at.
 */
export function defaultMailFrom(publicUrl: string | undefined): string {
  const host = publicUrl ? new URL(publicUrl).hostname : '';
  const named = host !== '' && isIP(host.replace(/^\[|\]$/g, '')) === 0;
  return `${PRODUCT_NAME} <no-reply@${named ? host : 'localhost'}>`;
}

/** Client keys accepted in X-API-Key when API_KEYS is unset; the web and desktop builds send these. */
export const DEFAULT_API_KEYS = ['web:dap-web-public', 'desktop:dap-desktop-public'] as const;

function parseApiKeys(entries: string[]): { client: string; key: string }[] {
  const list = entries.length > 0 ? entries : [...DEFAULT_API_KEYS];
  return list.map((entry, index) => {
    const separator = entry.indexOf(':');
    return separator > 0
      ? { client: entry.slice(0, separator), key: entry.slice(separator + 1) }
      : { client: `client-${index + 1}`, key: entry };
  });
}

/** Fastify's `trustProxy`: trust no proxy, only these proxy addresses, or a number of hops. */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

const TRUST_PROXY_HINT =
  'give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)';

/** The named ranges that Fastify's proxy-addr understands besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

const trustProxySchema = z
  .string()
  .default('false')
  .transform((value, context): TrustProxy => {
    const setting = value.trim().toLowerCase();
    if (setting === 'false') return false;
    if (setting === 'true') {
      // Trusting every hop lets any client pick its own address in X-Forwarded-For and so
      // escape per-address rate limits and lockouts.
      context.addIssue({
        code: 'custom',
        message: `'true' would let any client choose its own address through X-Forwarded-For; ${TRUST_PROXY_HINT}`,
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(setting)) {
      const hops = Number(setting);
      // Fastify ignores a bare number (it cannot check who the peer is), so the count is a function:
      // the socket peer and the next hops-1 forwarders are proxies, the address before them the client.
      return hops === 0 ? false : (_address, hop) => hop < hops;
    }
    const entries = setting
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `not a proxy address or CIDR range: ${bad.map((entry) => `'${entry}'`).join(', ')}; ${TRUST_PROXY_HINT}`,
      });
      return z.NEVER;
    }
    return entries.length > 0 ? entries : false;
  });

const CORS_ORIGIN_SHAPE = /^(https?|app):\/\/[^/?#@\s]+\/?$/i;

/**
 * An origin as browsers send it in `Origin` (scheme://host[:port], host lower-case, no default
 * port), because @fastify/cors compares the two as plain text; `undefined` for anything else.
 */
function normalizeOrigin(entry: string): string | undefined {
  if (!CORS_ORIGIN_SHAPE.test(entry)) return undefined;
  try {
    const url = new URL(entry);
    return `${url.protocol}//${url.host.toLowerCase()}`;
  } catch {
    return undefined;
  }
}

const corsOriginsSchema = commaList.transform((entries, context) => {
  const origins = new Set<string>();
  for (const entry of entries) {
    const origin = normalizeOrigin(entry);
    if (origin) origins.add(origin);
    else
      context.addIssue({
        code: 'custom',
        message:
          entry === '*'
            ? "'*' is not accepted (the API answers with credentials): list each origin"
            : `'${entry}' is not an origin: give scheme://host[:port] with http, https or app, and no path`,
      });
  }
  return [...origins];
});

const PAYMENT_PROVIDERS = ['razorpay', 'sandbox'] as const;

/** The prefix of a series of invoice or credit note numbers (INV gives INV-000001). */
const invoiceSeriesSchema = z
  .string()
  .regex(/^[A-Z0-9][A-Z0-9/-]{0,15}$/, 'must be 1 to 16 capital letters, digits, / or -, e.g. INV');

/** A DNS server as Node's resolver takes it: an IP address, IPv6 in brackets when a port follows. */
function isDnsServerAddress(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  if (!match) return false;
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  return isIP(host) !== 0 && port >= 1 && port <= 65_535;
}

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite in DATA_DIR)')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_ISSUER: z.string().min(1).default('desktop-ai-assistant-portal'),
  JWT_AUDIENCE: z.string().min(1).default('desktop-ai-assistant'),
  // The key that encrypts authenticator-app secrets at rest; generated in DATA_DIR/keys when unset.
  TWO_FACTOR_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(ACCESS_TOKEN_TTL_SECONDS, `must be at most ${ACCESS_TOKEN_TTL_SECONDS} (15 minutes)`)
    .default(ACCESS_TOKEN_TTL_SECONDS),
  // Checked with the rest, so a short key is listed together with every other bad variable.
  API_KEYS: commaList.transform(parseApiKeys).superRefine((keys, context) => {
    const short = keys.filter(({ key }) => key.length < 8).map(({ client }) => client);
    if (short.length > 0)
      context.addIssue({
        code: 'custom',
        message: `keys must be at least 8 characters (${short.join(', ')})`,
      });
  }),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  // Unset: no-reply@ the host PUBLIC_URL names (see defaultMailFrom).
  MAIL_FROM: z
    .string()
    .trim()
    .regex(
      MAIL_FROM_PATTERN,
      'must be an address, alone or as Name <address>, e.g. Portal <no-reply@example.com>',
    )
    .optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  // Mail queued by another instance, or due for a retry, waits at most this long.
  MAIL_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    // Links are made by appending paths, which a query or fragment would swallow.
    .refine((value) => !/[?#]/.test(value), 'must not have a query or fragment')
    .optional(),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(128).optional(),
  CORS_ORIGINS: corsOriginsSchema,
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  // Begins every key the server writes to Redis, so deployments sharing one Redis keep apart.
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits, _, ., : or -, e.g. portal-eu:')
    .default('portal:'),
  TRUST_PROXY: trustProxySchema,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: positiveInt(64 * 1024),
  AUTH_RATE_LIMIT_PER_MINUTE: positiveInt(20),
  LOGIN_LOCKOUT_THRESHOLD: positiveInt(5),
  LOGIN_LOCKOUT_MINUTES: positiveInt(15),
  // One core stays free for the event loop while sign-ins hash passwords.
  ARGON2_MAX_CONCURRENCY: positiveInt(Math.max(1, availableParallelism() - 1)),
  WEB_DIR: z.string().min(1).optional(),
  LEASE_SIGNING_KEY: z.string().min(1).optional(),
  LEASE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300, 'must be at least 300 (5 minutes)')
    .max(90 * 86_400, 'must be at most 7776000 (90 days)')
    .default(7 * 86_400),
  LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: positiveInt(120),
  LEASE_REUSE_PERCENT: z.coerce
    .number()
    .min(0, 'must be between 0 and 50')
    .max(50, 'must be between 0 and 50')
    .default(10),
  // The share of a metered feature's allowance one lease reserves for a machine to use offline.
  USAGE_RESERVATION_PERCENT: z.coerce
    .number()
    .min(0, 'must be between 0 and 100')
    .max(100, 'must be between 0 and 100')
    .default(10),
  LICENSE_CHECK_CACHE_ENTRIES: z.coerce.number().int().min(0).default(50_000),
  // About 2.2 KB of memory a kept answer (bench/README.md, "Memory"): 32 MiB keeps about 15 000.
  LICENSE_CHECK_CACHE_MB: z.coerce
    .number()
    .int('must be a whole number of MiB')
    .min(0, 'must be between 0 and 4096')
    .max(4096, 'must be between 0 and 4096')
    .default(32),
  HEARTBEAT_FLUSH_MINUTES: z.coerce
    .number()
    .positive('must be more than 0')
    .max(60, 'must be at most 60')
    .default(5),
  API_TOKEN_USE_FLUSH_SECONDS: z.coerce
    .number()
    .positive('must be more than 0')
    .max(300, 'must be at most 300')
    .default(10),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  // After SIGTERM: readiness fails while requests are still served, until the balancer has noticed.
  SHUTDOWN_DRAIN_SECONDS: z.coerce
    .number()
    .min(0, 'must be between 0 and 300')
    .max(300, 'must be between 0 and 300')
    .default(5),
  SUBSCRIPTION_GRACE_DAYS: z.coerce.number().int().min(0).max(60, 'must be at most 60').default(7),
  SUBSCRIPTION_RETRY_DAYS: z
    .string()
    .regex(/^\s*\d{1,2}(\s*,\s*\d{1,2})*\s*$/, 'must be days after the first failure, e.g. 1,3,5')
    .default('1,3,5'),
  RENEWAL_REMINDER_DAYS: z.coerce.number().int().min(0).max(60, 'must be at most 60').default(7),
  LICENSE_EXPIRY_REMINDER_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60, 'must be at most 60')
    .default(LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT),
  SCHEDULER_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RELEASES_DIR: z.string().min(1).optional(),
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).optional(),
  PAYMENT_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code in capitals, e.g. INR')
    .default('INR'),
  PAYMENT_CURRENCIES: z
    .string()
    .regex(
      /^\s*[A-Z]{3}\s*(,\s*[A-Z]{3}\s*)*$/,
      'must list three-letter ISO 4217 codes in capitals, separated by commas, e.g. INR,USD,EUR',
    )
    .default('INR,USD,EUR')
    .transform((list) => list.split(',').map((code) => code.trim())),
  RAZORPAY_KEY_ID: z
    .string()
    .regex(/^rzp_\w+$/, 'must be a Razorpay key id (rzp_test_… or rzp_live_…)')
    .optional(),
  RAZORPAY_KEY_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  PAYMENT_SANDBOX_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CHECKOUT_EXPIRY_MINUTES: z.coerce
    .number()
    .int('must be a whole number of minutes')
    .min(1, 'must be between 1 and 10080 (a week)')
    .max(10_080, 'must be between 1 and 10080 (a week)')
    .default(60),
  SUPPORT_EMAIL: z.email('must be an e-mail address').optional(),
  USAGE_PACK_VALID_MONTHS: z.coerce
    .number()
    .int('must be a whole number of months')
    .min(1, 'must be between 1 and 120')
    .max(120, 'must be between 1 and 120')
    .default(12),
  ORGANISATION_INVITATION_TTL_HOURS: z.coerce
    .number()
    .int('must be a whole number of hours')
    .min(1, 'must be between 1 and 2160 (90 days)')
    .max(2160, 'must be between 1 and 2160 (90 days)')
    .default(DEFAULT_INVITATION_TTL_HOURS),
  SELLER_NAME: z.string().trim().min(1).max(200).default('Desktop AI Assistant'),
  // Printed lines of the seller's address, separated by '|' (environment values hold no newlines well).
  SELLER_ADDRESS: z.string().max(1000).default(''),
  SELLER_TAX_ID: z.string().trim().min(1).max(50).optional(),
  SELLER_EMAIL: z.email().optional(),
  TAX_NAME: z.string().trim().min(1).max(40).default('GST'),
  TAX_RATE_BASIS_POINTS: z.coerce
    .number()
    .int('must be a whole number of basis points (1800 is 18 %)')
    .min(0, 'must be between 0 and 10000')
    .max(10_000, 'must be between 0 and 10000')
    .default(1800),
  TAX_INCLUSIVE: z.enum(['true', 'false'], 'must be true or false').default('true'),
  // Printed on invoices to buyers outside India (export of services, no GST): the seller's LUT
  // statement, with its ARN once the Letter of Undertaking is filed.
  TAX_EXPORT_NOTE: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .default('Supply meant for export under LUT without payment of IGST'),
  // Outgoing webhooks. Private targets (loopback, private networks) are allowed by default only
  // outside production; in production they are refused at registration and at every delivery.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false'], 'must be true or false').optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000, 'must be at most 60000').default(10_000),
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(1000).default(10),
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().int().min(1).max(90, 'must be at most 90').default(5),
  // Scheduled backups: off unless BACKUP_DIR is set (`npm run cli -- backup` works either way).
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_INTERVAL_HOURS: z.coerce
    .number()
    .positive('must be more than 0')
    .max(24 * 31, 'must be at most 744 (a month)')
    .default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1, 'must be at least 1').max(1000).default(7),
  // Encrypts scheduled backups (scrypt, AES-256-GCM); without it they are written unencrypted.
  BACKUP_PASSPHRASE: z.string().min(12, 'must be at least 12 characters').optional(),
  INVOICE_SERIES: invoiceSeriesSchema.default('INV'),
  CREDIT_NOTE_SERIES: invoiceSeriesSchema.default('CN'),
  // /metrics is served only with one of these: on a port of its own (kept off the public network),
  // or on the main port behind a bearer token (and on the metrics port too when both are set).
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{24,256}$/, 'must be 24 to 256 printable characters without spaces')
    .optional(),
  // How long rows kept for the record are kept before maintenance deletes them (see pruning.ts).
  RETENTION_SECURITY_EVENTS_DAYS: z.coerce
    .number()
    .int()
    .min(30, 'must be at least 30')
    .max(3650)
    .default(365),
  RETENTION_SESSIONS_DAYS: z.coerce.number().int().min(1, 'must be at least 1').max(3650).default(90),
  RETENTION_MAIL_DAYS: z.coerce.number().int().min(1, 'must be at least 1').max(3650).default(7),
  RETENTION_WEBHOOK_DAYS: z.coerce.number().int().min(1, 'must be at least 1').max(3650).default(30),
  ACCOUNT_DELETION_GRACE_DAYS: z.coerce.number().int().min(0, 'must be at least 0').max(365).default(14),
  // Traces: sent over OTLP/HTTP to this collector (e.g. http://127.0.0.1:4318) when set, else off.
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(100).default('desktop-ai-portal'),
  // Single sign-on providers at http:// issuers (a provider on this machine while testing); else https only.
  SSO_ALLOW_HTTP_ISSUERS: z.enum(['true', 'false'], 'must be true or false').default('false'),
  // The DNS servers that check an organisation's domain proof (IP or IP:port, comma separated);
  // unset: the machine's own resolvers.
  DNS_RESOLVER: z
    .string()
    .trim()
    .transform((value) =>
      value
        .split(',')
        .map((server) => server.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .refine(
              isDnsServerAddress,
              'must be DNS servers by IP address, with a port if not 53, comma separated (e.g. 1.1.1.1,127.0.0.1:5353,[::1]:53)',
            ),
        )
        .min(1, 'must name at least one DNS server'),
    )
    .optional(),
});

/** Razorpay needs its key id and secret together; checked with the rest so every problem is listed at once. */
const checkedEnvironmentSchema = environmentSchema.superRefine(
  (env, context) => {
    const hasId = env.RAZORPAY_KEY_ID !== undefined;
    const hasSecret = env.RAZORPAY_KEY_SECRET !== undefined;
    if (hasId !== hasSecret) {
      context.addIssue({
        code: 'custom',
        path: [hasId ? 'RAZORPAY_KEY_SECRET' : 'RAZORPAY_KEY_ID'],
        message:
          'set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET together (Razorpay Dashboard, Account & Settings, API Keys)',
      });
    } else if (env.PAYMENT_PROVIDER === 'razorpay' && !hasId) {
      context.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROVIDER'],
        message:
          'razorpay needs RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET; leave PAYMENT_PROVIDER unset to use the sandbox',
      });
    }
    // The rule of every new password (length, not common, not the address): checked here, so a bad
    // one stops the start with the other bad settings, before the data folder or database exist.
    const adminPasswordProblem =
      env.ADMIN_PASSWORD === undefined
        ? undefined
        : judgeNewPassword(env.ADMIN_PASSWORD, env.ADMIN_EMAIL.toLowerCase()).problem;
    if (adminPasswordProblem)
      context.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: adminPasswordProblem });
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT && env.PORT !== 0) {
      context.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT (leave it unset and set METRICS_TOKEN to serve /metrics on PORT)',
      });
    }
    if (env.WORKERS > 1 && env.METRICS_TOKEN !== undefined && env.METRICS_PORT === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message:
          'must be set when WORKERS > 1: each process counts its own requests, and only the metrics port adds them up',
      });
    }
    if (env.INVOICE_SERIES === env.CREDIT_NOTE_SERIES) {
      context.addIssue({
        code: 'custom',
        path: ['CREDIT_NOTE_SERIES'],
        message: 'must differ from INVOICE_SERIES: credit notes are numbered in a series of their own',
      });
    }
  },
  { when: () => true },
);

/** Every environment variable the server reads. */
export const configVariableNames = Object.keys(environmentSchema.shape);

/** Typed, validated configuration of the API server. */
export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** `undefined` selects the SQLite file `portal.sqlite` in {@link dataDir}. */
  databaseUrl: string | undefined;
  jwt: { secret: string | undefined; issuer: string; audience: string; accessTtlSeconds: number };
  /** Encrypts authenticator-app secrets; `undefined` uses the generated DATA_DIR/keys/two-factor-key. */
  twoFactorKey: string | undefined;
  apiKeys: { client: string; key: string }[];
  mail: {
    smtpUrl: string | undefined;
    from: string;
    outboxDir: string;
    /** How often the worker looks for due mail besides being woken by this instance's writes. */
    pollIntervalMs: number;
    /** Attempts before a mail is left in the outbox as failed (30 s apart at first, an hour at most). */
    maxAttempts: number;
  };
  publicUrl: string;
  bootstrapAdmin: { email: string; password: string | undefined };
  corsOrigins: string[];
  redisUrl: string | undefined;
  /** Begins every Redis key (ioredis adds it), e.g. `portal:rate-limit:sign-in:203.0.113.7`. */
  redisKeyPrefix: string;
  /** Which peers may set the client address with X-Forwarded-For; see {@link TrustProxy}. */
  trustProxy: TrustProxy;
  logLevel: string;
  bodyLimitBytes: number;
  authRateLimitPerMinute: number;
  lockout: { threshold: number; minutes: number };
  /**
   * Days kept before maintenance deletes them: security events; sessions once ended (signed out,
   * revoked or past their life); mail once sent or dropped; webhook events with their deliveries.
   */
  retention: { securityEventsDays: number; sessionsDays: number; mailDays: number; webhookDays: number };
  /** Days between a customer's asking to delete their account and its erasure. */
  accountDeletionGraceDays: number;
  passwordHashing: { maxConcurrency: number; maxQueue: number };
  webDir: string;
  licensing: {
    /** Ed25519 private key (JWK or PKCS#8 PEM); unset means generated into DATA_DIR/keys. */
    signingKey: string | undefined;
    leaseTtlSeconds: number;
    checksPerMinute: number;
    /** Share of a lease's lifetime (0–0.5) during which repeated checks get the same signed answer. */
    leaseReuseShare: number;
    /** Percent of a metered feature's allowance a lease reserves for offline use. */
    usageReservationPercent: number;
    /** Answers kept for repeated checks, per process; 0 keeps none. */
    checkCacheEntries: number;
    /** About how many bytes those answers may hold, per process; 0 keeps none. */
    checkCacheBytes: number;
    /** How often machines' check-ins (`last_seen_at`) are written, in batches. */
    heartbeatFlushMs: number;
    releasesDir: string;
  };
  /** How often the calls made with API tokens in minutes that have ended are written, in batches. */
  apiTokenUseFlushMs: number;
  /** Server processes sharing the port (node:cluster); 1 runs the server in this process. */
  workers: number;
  /** How long a server told to stop (SIGTERM) keeps serving with failing readiness first. */
  shutdownDrainMs: number;
  /**
   * Where /metrics is served: on `port` (0: any free one) at `host`, else on the main port; with a
   * `token`, only to `Authorization: Bearer <token>`. Neither port nor token: not served at all.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** Where the traces go (an OTLP/HTTP collector's base URL); undefined: no traces are made. */
  tracing: { endpoint: string; serviceName: string } | undefined;
  /** The DNS servers domain proofs are looked up with (DNS_RESOLVER); undefined: the machine's own. */
  dnsResolvers: string[] | undefined;
  /** Whether an organisation's OpenID provider may be at an http:// issuer (SSO_ALLOW_HTTP_ISSUERS). */
  ssoAllowHttpIssuers: boolean;
  payments: {
    /** `razorpay` when its keys are set (or PAYMENT_PROVIDER says so), else the local `sandbox`. */
    provider: (typeof PAYMENT_PROVIDERS)[number];
    /** The payment account's home currency (PAYMENT_CURRENCY): a new plan's, and credit packs' of old. */
    currency: string;
    /**
     * Every currency the payment account takes (PAYMENT_CURRENCIES, the home one always among them):
     * plans are priced in these, and a customer pays in one of them.
     */
    currencies: string[];
    razorpay: { keyId: string; keySecret: string; webhookSecret: string | undefined } | undefined;
    /** Signs sandbox checkouts and webhooks; unset means generated into DATA_DIR/keys. */
    sandboxSecret: string | undefined;
    /** An order left unpaid this long reads as expired (a late payment still settles it). */
    checkoutExpiryMinutes: number;
  };
  /** Where support requests are mailed; unset keeps them for administrators only. */
  supportEmail: string | undefined;
  /** How long an organisation invitation's link works, in hours. */
  organisationInvitationTtlHours: number;
  /** Months a bought credit pack's units may be drawn (USAGE_PACK_VALID_MONTHS). */
  usagePackValidMonths: number;
  /** Seller details, tax and number series of invoices and credit notes (billing's `InvoiceSettings`). */
  invoices: {
    /** Who issues the invoices: printed on every invoice and credit note as it was at issue time. */
    seller: {
      name: string;
      /** Postal address, one entry per printed line (street, city and postal code, country). */
      address: string[];
      /** GSTIN, VAT number or other tax registration; printed when set. */
      taxId: string | undefined;
      email: string | undefined;
    };
    /** The one tax line of an invoice: its name, rate and whether plan prices already include it. */
    tax: {
      /** Printed on the tax line, e.g. `GST`, `IGST` or `VAT`. */
      name: string;
      /** In basis points: 1800 is 18 %; 0 prints no tax line. */
      rateBasisPoints: number;
      /**
       * True: plan prices include the tax, and the buyer pays the price. False: the tax is added to
       * the price at checkout, and the buyer pays price plus tax.
       */
      inclusive: boolean;
    };
    /** The note on invoices to buyers outside India, whose supply is an export with no GST (TAX_EXPORT_NOTE). */
    exportNote: string;
    /** Series of invoice numbers, e.g. `INV` gives INV-000001, INV-000002, … */
    invoiceSeries: string;
    /** Series of credit note numbers, numbered apart from invoices. */
    creditNoteSeries: string;
  };
  subscriptions: {
    /** Days a license stays valid after a failed charge before it is suspended. */
    graceDays: number;
    /** Days after the first failed charge on which the sandbox charges again. */
    retryDays: number[];
    /** Days before a yearly renewal that the customer is reminded of it. */
    reminderDays: number;
    /** Days before a license bought once expires that its owner is told. */
    expiryReminderDays: number;
  };
  /** How often the scheduled work (renewals, grace periods, reminders) looks for what is due. */
  schedulerIntervalMs: number;
  /** Scheduled backups, run by the scheduler; `undefined` (BACKUP_DIR unset) takes none. */
  backup:
    | {
        dir: string;
        /** A backup is taken when the newest in {@link dir} is at least this old. */
        intervalMs: number;
        /** Archives kept in {@link dir}; the oldest beyond this many are deleted. */
        keep: number;
        /** Encrypts the archives when set. */
        passphrase: string | undefined;
      }
    | undefined;
  webhooks: {
    /** Loopback and private addresses may be targets (development); false refuses them (SSRF). */
    allowPrivateTargets: boolean;
    /** One attempt's whole exchange. */
    timeoutMs: number;
    pollIntervalMs: number;
    /** Failed deliveries in a row, or days of failures, after which an endpoint is disabled. */
    disableAfterFailures: number;
    disableAfterMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the environment once; throws {@link ConfigError} naming every bad variable at once. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = checkedEnvironmentSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    jwt: {
      secret: env.JWT_SECRET,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      accessTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    },
    twoFactorKey: env.TWO_FACTOR_KEY,
    apiKeys: env.API_KEYS,
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? defaultMailFrom(env.PUBLIC_URL),
      outboxDir: resolve(env.MAIL_OUTBOX_DIR ?? resolve(dataDir, 'outbox')),
      pollIntervalMs: env.MAIL_POLL_INTERVAL_MS,
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
    },
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    bootstrapAdmin: { email: env.ADMIN_EMAIL.toLowerCase(), password: env.ADMIN_PASSWORD },
    corsOrigins: env.CORS_ORIGINS,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    lockout: { threshold: env.LOGIN_LOCKOUT_THRESHOLD, minutes: env.LOGIN_LOCKOUT_MINUTES },
    accountDeletionGraceDays: env.ACCOUNT_DELETION_GRACE_DAYS,
    retention: {
      securityEventsDays: env.RETENTION_SECURITY_EVENTS_DAYS,
      sessionsDays: env.RETENTION_SESSIONS_DAYS,
      mailDays: env.RETENTION_MAIL_DAYS,
      webhookDays: env.RETENTION_WEBHOOK_DAYS,
    },
    passwordHashing: { maxConcurrency: env.ARGON2_MAX_CONCURRENCY, maxQueue: PASSWORD_HASH_QUEUE_LIMIT },
    webDir: resolve(env.WEB_DIR ?? resolve(import.meta.dirname, '../../../out/renderer')),
    licensing: {
      signingKey: env.LEASE_SIGNING_KEY,
      leaseTtlSeconds: env.LEASE_TTL_SECONDS,
      checksPerMinute: env.LICENSE_CHECK_RATE_LIMIT_PER_MINUTE,
      leaseReuseShare: env.LEASE_REUSE_PERCENT / 100,
      usageReservationPercent: env.USAGE_RESERVATION_PERCENT,
      checkCacheEntries: env.LICENSE_CHECK_CACHE_ENTRIES,
      checkCacheBytes: env.LICENSE_CHECK_CACHE_MB * 1024 * 1024,
      heartbeatFlushMs: Math.round(env.HEARTBEAT_FLUSH_MINUTES * 60_000),
      releasesDir: resolve(env.RELEASES_DIR ?? resolve(dataDir, 'releases')),
    },
    apiTokenUseFlushMs: Math.round(env.API_TOKEN_USE_FLUSH_SECONDS * 1000),
    workers: env.WORKERS,
    shutdownDrainMs: Math.round(env.SHUTDOWN_DRAIN_SECONDS * 1000),
    metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST ?? env.HOST, token: env.METRICS_TOKEN },
    dnsResolvers: env.DNS_RESOLVER,
    ssoAllowHttpIssuers: env.SSO_ALLOW_HTTP_ISSUERS === 'true',
    tracing: env.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME }
      : undefined,
    subscriptions: {
      graceDays: env.SUBSCRIPTION_GRACE_DAYS,
      retryDays: env.SUBSCRIPTION_RETRY_DAYS.split(',')
        .map(Number)
        .filter((day) => day < env.SUBSCRIPTION_GRACE_DAYS)
        .sort((a, b) => a - b),
      reminderDays: env.RENEWAL_REMINDER_DAYS,
      expiryReminderDays: env.LICENSE_EXPIRY_REMINDER_DAYS,
    },
    schedulerIntervalMs: env.SCHEDULER_INTERVAL_SECONDS * 1000,
    backup: env.BACKUP_DIR
      ? {
          dir: resolve(env.BACKUP_DIR),
          intervalMs: Math.round(env.BACKUP_INTERVAL_HOURS * 3_600_000),
          keep: env.BACKUP_KEEP,
          passphrase: env.BACKUP_PASSPHRASE,
        }
      : undefined,
    webhooks: {
      allowPrivateTargets:
        env.WEBHOOK_ALLOW_PRIVATE_TARGETS === undefined
          ? env.NODE_ENV !== 'production'
          : env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
      disableAfterFailures: env.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterMs: env.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000,
    },
    payments: {
      provider: env.PAYMENT_PROVIDER ?? (env.RAZORPAY_KEY_ID ? 'razorpay' : 'sandbox'),
      currency: env.PAYMENT_CURRENCY,
      currencies: [...new Set([env.PAYMENT_CURRENCY, ...env.PAYMENT_CURRENCIES])],
      razorpay:
        env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET
          ? {
              keyId: env.RAZORPAY_KEY_ID,
              keySecret: env.RAZORPAY_KEY_SECRET,
              webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
            }
          : undefined,
      sandboxSecret: env.PAYMENT_SANDBOX_SECRET,
      checkoutExpiryMinutes: env.CHECKOUT_EXPIRY_MINUTES,
    },
    supportEmail: env.SUPPORT_EMAIL,
    organisationInvitationTtlHours: env.ORGANISATION_INVITATION_TTL_HOURS,
    usagePackValidMonths: env.USAGE_PACK_VALID_MONTHS,
    invoices: {
      seller: {
        name: env.SELLER_NAME,
        address: env.SELLER_ADDRESS.split('|')
          .map((line) => line.trim())
          .filter(Boolean),
        taxId: env.SELLER_TAX_ID,
        email: env.SELLER_EMAIL,
      },
      tax: {
        name: env.TAX_NAME,
        rateBasisPoints: env.TAX_RATE_BASIS_POINTS,
        inclusive: env.TAX_INCLUSIVE === 'true',
      },
      exportNote: env.TAX_EXPORT_NOTE,
      invoiceSeries: env.INVOICE_SERIES,
      creditNoteSeries: env.CREDIT_NOTE_SERIES,
    },
  };
}
