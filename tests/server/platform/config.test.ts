import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_API_KEYS,
  loadConfig,
  type TrustProxy,
} from '../../../src/server/platform/config.js';
import { createDatabase } from '../../../src/server/platform/db/database.js';
import { loadOrCreateSecret } from '../../../src/server/platform/secrets.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../src/shared/constants.js';
import { availableParallelism } from 'node:os';

/** The ConfigError that loading this environment throws (fails the test when there is none). */
function configErrorOf(environment: Record<string, string>): ConfigError {
  try {
    loadConfig(environment);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(environment)}`);
}

const problemsOf = (environment: Record<string, string>) => configErrorOf(environment).problems;

/** The variable each problem line names (`NAME: what is wrong`). */
const variablesNamed = (problems: string[]) => problems.map((problem) => problem.split(':')[0]);

describe('loadConfig', () => {
  describe('defaults', () => {
    const config = loadConfig({});

    it('listens on 127.0.0.1:8080 in production mode', () => {
      expect(config.port).toBe(8080);
      expect(config.host).toBe('127.0.0.1');
      expect(config.env).toBe('production');
      expect(config.logLevel).toBe('info');
      expect(config.trustProxy).toBe(false);
    });

    it('keeps data in ./data, resolved to an absolute path, with the outbox inside it', () => {
      expect(config.dataDir).toBe(resolve(process.cwd(), 'data'));
      expect(config.mail.outboxDir).toBe(join(config.dataDir, 'outbox'));
      expect(config.mail.smtpUrl).toBeUndefined();
    });

    it('uses SQLite (no database URL) and answers at http://localhost:<PORT>', () => {
      expect(config.databaseUrl).toBeUndefined();
      expect(config.publicUrl).toBe('http://localhost:8080');
      expect(loadConfig({ PORT: '9123' }).publicUrl).toBe('http://localhost:9123');
    });

    it('accepts the keys the web and desktop builds send', () => {
      expect(DEFAULT_API_KEYS).toEqual(['web:dap-web-public', 'desktop:dap-desktop-public']);
      expect(config.apiKeys).toEqual([
        { client: 'web', key: 'dap-web-public' },
        { client: 'desktop', key: 'dap-desktop-public' },
      ]);
    });

    it('issues 15-minute access tokens and generates the JWT secret (none configured)', () => {
      expect(config.jwt.accessTtlSeconds).toBe(ACCESS_TOKEN_TTL_SECONDS);
      expect(ACCESS_TOKEN_TTL_SECONDS).toBe(900);
      expect(config.jwt.secret).toBeUndefined();
    });

    it('bootstraps admin@example.com without a preset password', () => {
      expect(config.bootstrapAdmin).toEqual({ email: 'admin@example.com', password: undefined });
    });

    it('hashes passwords on all but one core, with a bounded queue', () => {
      expect(config.passwordHashing.maxConcurrency).toBe(Math.max(1, availableParallelism() - 1));
      expect(config.passwordHashing.maxQueue).toBeGreaterThan(0);
      expect(loadConfig({ ARGON2_MAX_CONCURRENCY: '3' }).passwordHashing.maxConcurrency).toBe(3);
      expect(() => loadConfig({ ARGON2_MAX_CONCURRENCY: '0' })).toThrow(/ARGON2_MAX_CONCURRENCY/);
    });

    it('serves the renderer build from out/renderer of the repository', () => {
      expect(config.webDir).toBe(resolve(import.meta.dirname, '../../../out/renderer'));
    });
  });

  it('opens SQLite in DATA_DIR when DATABASE_URL is unset', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portal-config-'));
    try {
      const handle = createDatabase(loadConfig({ DATA_DIR: dataDir }));
      expect(handle.dialect).toBe('sqlite');
      await handle.db.destroy();
      const postgres = loadConfig({ DATABASE_URL: 'postgres://user@db.internal:5432/portal' });
      expect(postgres.databaseUrl).toBe('postgres://user@db.internal:5432/portal');
      expect(loadConfig({ DATABASE_URL: 'postgresql://db/portal' }).databaseUrl).toBe(
        'postgresql://db/portal',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('resolves DATA_DIR, MAIL_OUTBOX_DIR and WEB_DIR against the working directory', () => {
    const config = loadConfig({ DATA_DIR: 'var/portal', MAIL_OUTBOX_DIR: 'mail', WEB_DIR: 'public' });
    expect(config.dataDir).toBe(resolve('var/portal'));
    expect(config.mail.outboxDir).toBe(resolve('mail'));
    expect(config.webDir).toBe(resolve('public'));
    expect(loadConfig({ DATA_DIR: '/srv/portal' }).mail.outboxDir).toBe('/srv/portal/outbox');
  });

  it('takes PUBLIC_URL without its trailing slash and lower-cases ADMIN_EMAIL', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://portal.example.com/',
      ADMIN_EMAIL: 'Owner@Example.COM',
    });
    expect(config.publicUrl).toBe('https://portal.example.com');
    expect(config.bootstrapAdmin.email).toBe('owner@example.com');
  });

  describe('the mail sender (MAIL_FROM)', () => {
    it('is no-reply@ the host PUBLIC_URL names when unset', () => {
      expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com:8443/app' }).mail.from).toBe(
        'Desktop AI Assistant <no-reply@portal.example.com>',
      );
    });

    it('is no-reply@localhost without PUBLIC_URL, or when PUBLIC_URL is an IP address', () => {
      expect(loadConfig({}).mail.from).toBe('Desktop AI Assistant <no-reply@localhost>');
      expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).mail.from).toBe(
        'Desktop AI Assistant <no-reply@localhost>',
      );
      expect(loadConfig({ PUBLIC_URL: 'http://[::1]:8080' }).mail.from).toBe(
        'Desktop AI Assistant <no-reply@localhost>',
      );
    });

    it('is taken as set, alone or with a name, over the one PUBLIC_URL would give', () => {
      const env = { PUBLIC_URL: 'https://portal.example.com' };
      expect(loadConfig({ ...env, MAIL_FROM: 'Billing <billing@example.com>' }).mail.from).toBe(
        'Billing <billing@example.com>',
      );
      expect(loadConfig({ ...env, MAIL_FROM: ' billing@example.com ' }).mail.from).toBe(
        'billing@example.com',
      );
    });

    it('refuses a value that holds no address, naming the variable', () => {
      for (const MAIL_FROM of ['Portal', 'Portal <portal>', 'no reply@example.com'])
        expect(variablesNamed(problemsOf({ MAIL_FROM }))).toEqual(['MAIL_FROM']);
    });
  });

  it('lists every bad variable in one ConfigError', () => {
    const environment = {
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      JWT_SECRET: 'short',
      SMTP_URL: 'http://x',
    };
    const { problems, message } = configErrorOf(environment);
    expect(variablesNamed(problems).sort()).toEqual(['DATABASE_URL', 'JWT_SECRET', 'PORT', 'SMTP_URL']);
    expect(problems.find((problem) => problem.startsWith('JWT_SECRET'))).toContain('at least 32 characters');
    expect(problems.find((problem) => problem.startsWith('DATABASE_URL'))).toContain('postgres://');
    expect(problems.find((problem) => problem.startsWith('SMTP_URL'))).toContain('smtp://');
    expect(message).toMatch(/^Invalid configuration:\n/);
    for (const name of Object.keys(environment)) expect(message).toContain(`  - ${name}: `);
  });

  describe('license checks', () => {
    it('reuse a lease for 10 % of its life, keep at most 50 000 answers and 32 MiB of them, write check-ins every 5 minutes, in one process', () => {
      const { licensing, workers } = loadConfig({});
      expect(licensing).toMatchObject({
        leaseReuseShare: 0.1,
        usageReservationPercent: 10,
        checkCacheEntries: 50_000,
        checkCacheBytes: 32 * 1024 * 1024,
        heartbeatFlushMs: 300_000,
      });
      expect(workers).toBe(1);
    });

    it('bound the kept answers by MiB as well as by number, refusing fractions, negatives and more than 4 GiB', () => {
      expect(loadConfig({ LICENSE_CHECK_CACHE_MB: '0' }).licensing.checkCacheBytes).toBe(0);
      expect(loadConfig({ LICENSE_CHECK_CACHE_MB: '100' }).licensing.checkCacheBytes).toBe(100 * 1024 * 1024);
      for (const bad of ['-1', '1.5', '4097', 'lots'])
        expect(variablesNamed(problemsOf({ LICENSE_CHECK_CACHE_MB: bad })), bad).toEqual([
          'LICENSE_CHECK_CACHE_MB',
        ]);
    });

    it('take fractions of a minute for the heartbeat flush and a share in percent', () => {
      const { licensing } = loadConfig({ HEARTBEAT_FLUSH_MINUTES: '0.5', LEASE_REUSE_PERCENT: '25' });
      expect(licensing.heartbeatFlushMs).toBe(30_000);
      expect(licensing.leaseReuseShare).toBe(0.25);
    });

    it('refuse a share over 50 %, a flush of 0 or over an hour, negative cache sizes and 0 workers, all at once', () => {
      const problems = problemsOf({
        LEASE_REUSE_PERCENT: '60',
        HEARTBEAT_FLUSH_MINUTES: '0',
        LICENSE_CHECK_CACHE_ENTRIES: '-1',
        WORKERS: '0',
      });
      expect(variablesNamed(problems).sort()).toEqual([
        'HEARTBEAT_FLUSH_MINUTES',
        'LEASE_REUSE_PERCENT',
        'LICENSE_CHECK_CACHE_ENTRIES',
        'WORKERS',
      ]);
      expect(variablesNamed(problemsOf({ HEARTBEAT_FLUSH_MINUTES: '61' }))).toEqual([
        'HEARTBEAT_FLUSH_MINUTES',
      ]);
    });

    it('write API-token uses every 10 s by default, fractions allowed, and refuse 0 or over 300 s', () => {
      expect(loadConfig({}).apiTokenUseFlushMs).toBe(10_000);
      expect(loadConfig({ API_TOKEN_USE_FLUSH_SECONDS: '0.5' }).apiTokenUseFlushMs).toBe(500);
      expect(variablesNamed(problemsOf({ API_TOKEN_USE_FLUSH_SECONDS: '0' }))).toEqual([
        'API_TOKEN_USE_FLUSH_SECONDS',
      ]);
      expect(variablesNamed(problemsOf({ API_TOKEN_USE_FLUSH_SECONDS: '301' }))).toEqual([
        'API_TOKEN_USE_FLUSH_SECONDS',
      ]);
    });
  });

  it('lists a too-short API key together with the other bad variables', () => {
    const problems = problemsOf({
      PORT: '70000',
      LOG_LEVEL: 'loud',
      API_KEYS: 'web:short,desktop:long-enough-key',
      ADMIN_EMAIL: 'not-an-address',
    });
    expect(variablesNamed(problems).sort()).toEqual(['ADMIN_EMAIL', 'API_KEYS', 'LOG_LEVEL', 'PORT']);
    const apiKeys = problems.find((problem) => problem.startsWith('API_KEYS'));
    expect(apiKeys).toContain('at least 8 characters (web)');
    expect(apiKeys).not.toContain('desktop');
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      JWT_SECRET: '',
      SMTP_URL: '',
      API_KEYS: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      PUBLIC_URL: '',
      ACCESS_TOKEN_TTL_SECONDS: '',
      CORS_ORIGINS: '',
      TRUST_PROXY: '',
    });
    expect(config).toEqual(loadConfig({}));
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.bootstrapAdmin.password).toBeUndefined();
  });

  describe('API_KEYS', () => {
    it('reads client:key pairs', () => {
      expect(loadConfig({ API_KEYS: 'web:key12345,desktop:key67890' }).apiKeys).toEqual([
        { client: 'web', key: 'key12345' },
        { client: 'desktop', key: 'key67890' },
      ]);
    });

    it('names plain keys by position, trims blanks and keeps colons inside a key', () => {
      expect(loadConfig({ API_KEYS: ' plainkey1 , ,other:key:with:colons ,plainkey3' }).apiKeys).toEqual([
        { client: 'client-1', key: 'plainkey1' },
        { client: 'other', key: 'key:with:colons' },
        { client: 'client-3', key: 'plainkey3' },
      ]);
    });

    it('replaces the default keys instead of adding to them', () => {
      const keys = loadConfig({ API_KEYS: 'partner:partner-key-1' }).apiKeys.map(({ key }) => key);
      expect(keys).toEqual(['partner-key-1']);
    });

    it('falls back to the defaults when only separators are given', () => {
      expect(loadConfig({ API_KEYS: ' , ' }).apiKeys).toEqual(loadConfig({}).apiKeys);
    });

    it('refuses keys shorter than 8 characters, naming their clients', () => {
      expect(problemsOf({ API_KEYS: 'web:abc,desktop:key67890,tiny' })).toEqual([
        'API_KEYS: keys must be at least 8 characters (web, client-3)',
      ]);
    });
  });

  describe('ACCESS_TOKEN_TTL_SECONDS', () => {
    it('accepts 60 to 900 seconds', () => {
      expect(loadConfig({ ACCESS_TOKEN_TTL_SECONDS: '900' }).jwt.accessTtlSeconds).toBe(900);
      expect(loadConfig({ ACCESS_TOKEN_TTL_SECONDS: '60' }).jwt.accessTtlSeconds).toBe(60);
    });

    it('refuses more than 15 minutes', () => {
      expect(problemsOf({ ACCESS_TOKEN_TTL_SECONDS: '901' })).toEqual([
        'ACCESS_TOKEN_TTL_SECONDS: must be at most 900 (15 minutes)',
      ]);
      expect(variablesNamed(problemsOf({ ACCESS_TOKEN_TTL_SECONDS: '3600' }))).toEqual([
        'ACCESS_TOKEN_TTL_SECONDS',
      ]);
    });

    it('refuses less than a minute and non-integers', () => {
      expect(variablesNamed(problemsOf({ ACCESS_TOKEN_TTL_SECONDS: '59' }))).toEqual([
        'ACCESS_TOKEN_TTL_SECONDS',
      ]);
      expect(variablesNamed(problemsOf({ ACCESS_TOKEN_TTL_SECONDS: '120.5' }))).toEqual([
        'ACCESS_TOKEN_TTL_SECONDS',
      ]);
    });
  });

  it('refuses ports outside 0-65535', () => {
    expect(variablesNamed(problemsOf({ PORT: '65536' }))).toEqual(['PORT']);
    expect(variablesNamed(problemsOf({ PORT: '-1' }))).toEqual(['PORT']);
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  describe('TRUST_PROXY', () => {
    const trustProxyOf = (value: string): TrustProxy => loadConfig({ TRUST_PROXY: value }).trustProxy;

    /** Which hops (0 = the socket peer) a hop-count setting trusts, for any address. */
    function trustedHops(setting: TrustProxy): number[] {
      if (typeof setting !== 'function') throw new Error(`not a hop count: ${JSON.stringify(setting)}`);
      return [0, 1, 2, 3, 4].filter((hop) => setting('203.0.113.7', hop));
    }

    it('trusts no proxy when unset, false or 0', () => {
      expect(loadConfig({}).trustProxy).toBe(false);
      expect(trustProxyOf('false')).toBe(false);
      expect(trustProxyOf('FALSE')).toBe(false);
      expect(trustProxyOf('0')).toBe(false);
      expect(trustProxyOf(' , ')).toBe(false);
    });

    it('takes a positive integer as the number of proxy hops in front of the server', () => {
      expect(trustedHops(trustProxyOf('1'))).toEqual([0]);
      expect(trustedHops(trustProxyOf('2'))).toEqual([0, 1]);
      expect(trustedHops(trustProxyOf(' 3 '))).toEqual([0, 1, 2]);
    });

    it('takes a comma-separated list of proxy addresses, CIDR ranges and named ranges', () => {
      expect(trustProxyOf('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
      expect(trustProxyOf('::1,fd00::/8,192.168.1.10/32')).toEqual(['::1', 'fd00::/8', '192.168.1.10/32']);
      expect(trustProxyOf('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
    });

    it("refuses 'true', which would let any client choose its own address", () => {
      const [problem, ...others] = problemsOf({ TRUST_PROXY: 'true' });
      expect(others).toEqual([]);
      expect(problem).toMatch(/^TRUST_PROXY: 'true' would let any client choose its own address/);
      expect(problem).toContain('number of proxies in front of the server (e.g. 1)');
      expect(problem).toContain('their addresses (e.g. 10.0.0.0/8,127.0.0.1)');
      expect(variablesNamed(problemsOf({ TRUST_PROXY: 'TRUE' }))).toEqual(['TRUST_PROXY']);
    });

    it('refuses entries that are not addresses or ranges, naming each', () => {
      expect(problemsOf({ TRUST_PROXY: '10.0.0.1,proxy.internal,10.0.0.0/33,300.1.1.1' })).toEqual([
        "TRUST_PROXY: not a proxy address or CIDR range: 'proxy.internal', '10.0.0.0/33', '300.1.1.1'; " +
          'give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)',
      ]);
      for (const value of ['-1', '1.5', 'yes', '::1/129', '10.0.0.0/8/8', '1,10.0.0.1'])
        expect(variablesNamed(problemsOf({ TRUST_PROXY: value }))).toEqual(['TRUST_PROXY']);
    });
  });

  describe('CORS_ORIGINS', () => {
    const corsOf = (value: string) => loadConfig({ CORS_ORIGINS: value }).corsOrigins;

    it('is empty (same origin only) by default', () => {
      expect(loadConfig({}).corsOrigins).toEqual([]);
    });

    it('keeps origins in the form browsers send them', () => {
      expect(corsOf('https://portal.example.com, http://localhost:5173,app://desktop')).toEqual([
        'https://portal.example.com',
        'http://localhost:5173',
        'app://desktop',
      ]);
    });

    it('lower-cases hosts, drops default ports and a trailing slash, and removes duplicates', () => {
      expect(
        corsOf('https://Portal.Example.COM/,https://portal.example.com:443,HTTP://[::1]:3000,app://Desktop/'),
      ).toEqual(['https://portal.example.com', 'http://[::1]:3000', 'app://desktop']);
    });

    it('refuses anything that is not an origin, naming each bad entry', () => {
      const problems = problemsOf({
        CORS_ORIGINS:
          'https://ok.example.com,https://example.com/app,portal.example.com,ftp://files.example.com,https://user@example.com,https://example.com?x=1',
      });
      expect(problems).toEqual(
        [
          'https://example.com/app',
          'portal.example.com',
          'ftp://files.example.com',
          'https://user@example.com',
          'https://example.com?x=1',
        ].map(
          (entry) =>
            `CORS_ORIGINS: '${entry}' is not an origin: give scheme://host[:port] with http, https or app, and no path`,
        ),
      );
    });

    it("refuses '*' (answers carry credentials)", () => {
      expect(problemsOf({ CORS_ORIGINS: '*' })).toEqual([
        "CORS_ORIGINS: '*' is not accepted (the API answers with credentials): list each origin",
      ]);
    });

    it('is listed together with the other bad variables', () => {
      expect(
        variablesNamed(
          problemsOf({ CORS_ORIGINS: 'https://a.example/', PORT: 'x', TRUST_PROXY: 'true' }),
        ).sort(),
      ).toEqual(['PORT', 'TRUST_PROXY']);
      expect(
        variablesNamed(problemsOf({ CORS_ORIGINS: 'https://a.example/x', TRUST_PROXY: 'true' })).sort(),
      ).toEqual(['CORS_ORIGINS', 'TRUST_PROXY']);
    });
  });

  describe('PUBLIC_URL', () => {
    it('accepts http and https URLs', () => {
      expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.5:8080' }).publicUrl).toBe('http://192.168.1.5:8080');
      expect(loadConfig({ PUBLIC_URL: 'https://example.com/portal/' }).publicUrl).toBe(
        'https://example.com/portal',
      );
    });

    it('refuses other schemes, and a query or fragment that links would be appended to', () => {
      for (const value of ['ftp://example.com', 'javascript:alert(1)', 'file:///srv/portal', 'example.com'])
        expect(problemsOf({ PUBLIC_URL: value })).toEqual(['PUBLIC_URL: must be an http:// or https:// URL']);
      expect(problemsOf({ PUBLIC_URL: 'https://example.com/?ref=mail' })).toEqual([
        'PUBLIC_URL: must not have a query or fragment',
      ]);
      expect(variablesNamed(problemsOf({ PUBLIC_URL: 'https://example.com/#top' }))).toEqual(['PUBLIC_URL']);
    });
  });

  describe('payments', () => {
    const razorpayKeys = { RAZORPAY_KEY_ID: 'rzp_test_Abc123', RAZORPAY_KEY_SECRET: 'key-secret-123' };

    it('uses the sandbox in INR, taking INR, USD and EUR, when no Razorpay keys are set', () => {
      expect(loadConfig({}).payments).toEqual({
        provider: 'sandbox',
        currency: 'INR',
        currencies: ['INR', 'USD', 'EUR'],
        razorpay: undefined,
        sandboxSecret: undefined,
        checkoutExpiryMinutes: 60,
      });
    });

    it('uses Razorpay when its key id and secret are set, with the webhook secret if given', () => {
      expect(loadConfig(razorpayKeys).payments).toMatchObject({
        provider: 'razorpay',
        razorpay: { keyId: 'rzp_test_Abc123', keySecret: 'key-secret-123', webhookSecret: undefined },
      });
      const withWebhook = loadConfig({ ...razorpayKeys, RAZORPAY_WEBHOOK_SECRET: 'webhook-secret-1' });
      expect(withWebhook.payments.razorpay?.webhookSecret).toBe('webhook-secret-1');
    });

    it('PAYMENT_PROVIDER=sandbox keeps the sandbox even with keys; a sandbox secret and currency may be set', () => {
      const config = loadConfig({
        ...razorpayKeys,
        PAYMENT_PROVIDER: 'sandbox',
        PAYMENT_SANDBOX_SECRET: 's'.repeat(32),
        PAYMENT_CURRENCY: 'USD',
      });
      expect(config.payments).toMatchObject({
        provider: 'sandbox',
        currency: 'USD',
        // The home currency first, then the others taken.
        currencies: ['USD', 'INR', 'EUR'],
        sandboxSecret: 's'.repeat(32),
      });
    });

    it('PAYMENT_CURRENCIES lists the currencies taken; the home one is always among them', () => {
      expect(loadConfig({ PAYMENT_CURRENCIES: 'GBP, USD' }).payments.currencies).toEqual([
        'INR',
        'GBP',
        'USD',
      ]);
      expect(loadConfig({ PAYMENT_CURRENCY: 'EUR', PAYMENT_CURRENCIES: 'EUR' }).payments.currencies).toEqual([
        'EUR',
      ]);
    });

    it('PAYMENT_PROVIDER=razorpay without keys is listed with the other bad variables', () => {
      const problems = problemsOf({ PAYMENT_PROVIDER: 'razorpay', PORT: '70000' });
      expect(variablesNamed(problems).sort()).toEqual(['PAYMENT_PROVIDER', 'PORT']);
      expect(problems.find((problem) => problem.startsWith('PAYMENT_PROVIDER'))).toContain('RAZORPAY_KEY_ID');
    });

    it('refuses one Razorpay key without the other, naming the missing one', () => {
      expect(variablesNamed(problemsOf({ RAZORPAY_KEY_ID: 'rzp_test_Abc123' }))).toEqual([
        'RAZORPAY_KEY_SECRET',
      ]);
      expect(variablesNamed(problemsOf({ RAZORPAY_KEY_SECRET: 'key-secret-123' }))).toEqual([
        'RAZORPAY_KEY_ID',
      ]);
    });

    it('refuses malformed payment variables', () => {
      expect(
        variablesNamed(
          problemsOf({
            PAYMENT_PROVIDER: 'stripe',
            PAYMENT_CURRENCY: 'rupees',
            PAYMENT_CURRENCIES: 'INR,dollars',
            RAZORPAY_KEY_ID: 'not-a-key',
            RAZORPAY_KEY_SECRET: 'short',
            RAZORPAY_WEBHOOK_SECRET: 'short',
            PAYMENT_SANDBOX_SECRET: 'too short',
          }),
        ).sort(),
      ).toEqual([
        'PAYMENT_CURRENCIES',
        'PAYMENT_CURRENCY',
        'PAYMENT_PROVIDER',
        'PAYMENT_SANDBOX_SECRET',
        'RAZORPAY_KEY_ID',
        'RAZORPAY_KEY_SECRET',
        'RAZORPAY_WEBHOOK_SECRET',
      ]);
    });
  });
});

describe('loadOrCreateSecret', () => {
  let dataDir = '';
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-secret-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const secretFile = () => join(dataDir, 'keys', 'jwt-secret');

  it('generates a private secret on first use and reads the same one afterwards', async () => {
    const secret = loadOrCreateSecret(dataDir, 'jwt-secret');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(loadOrCreateSecret(dataDir, 'jwt-secret')).toBe(secret);
    expect((await stat(secretFile())).mode & 0o777).toBe(0o600);
    // The draft it writes before linking the file into place is gone.
    expect(await readdir(join(dataDir, 'keys'))).toEqual(['jwt-secret']);
  });

  it(
    'gives instances starting together one secret and leaves no draft behind',
    { timeout: 60_000 },
    async () => {
      const script = `import { loadOrCreateSecret } from './src/server/platform/secrets.ts';
      process.stdout.write(loadOrCreateSecret(${JSON.stringify(dataDir)}, 'jwt-secret'));`;
      const run = () =>
        new Promise<string>((done, fail) =>
          execFile(
            process.execPath,
            ['--import', 'tsx', '--input-type=module', '--eval', script],
            { cwd: resolve(import.meta.dirname, '../../..') },
            (error, stdout) => (error ? fail(error) : done(stdout)),
          ),
        );
      const secrets = await Promise.all(Array.from({ length: 8 }, run));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(await readdir(join(dataDir, 'keys'))).toEqual(['jwt-secret']);
    },
  );

  it('keeps a secret another instance wrote first', async () => {
    loadOrCreateSecret(dataDir, 'jwt-secret');
    const theirs = 'x'.repeat(40);
    await writeFile(secretFile(), `${theirs}\n`);
    expect(loadOrCreateSecret(dataDir, 'jwt-secret')).toBe(theirs);
  });

  it.each([
    ['empty', ''],
    ['cut short', 'abc123\n'],
  ])('refuses an %s secret file, naming it and the way out', async (_case, content) => {
    loadOrCreateSecret(dataDir, 'jwt-secret');
    await writeFile(secretFile(), content);
    expect(() => loadOrCreateSecret(dataDir, 'jwt-secret')).toThrow(
      `The generated secret ${secretFile()} holds ${content.trim().length} characters, fewer than 32`,
    );
    expect(() => loadOrCreateSecret(dataDir, 'jwt-secret')).toThrow(/Delete it .* or set JWT_SECRET/);
  });
});
