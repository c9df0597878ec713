import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_API_KEYS, loadConfig } from '../../src/server/config.js';
import { createDatabase } from '../../src/server/db/database.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../src/shared/constants.js';
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
      expect(config.webDir).toBe(resolve(import.meta.dirname, '../../out/renderer'));
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
});
