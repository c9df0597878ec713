import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { SQLITE_FILE_NAME } from '../../../src/server/platform/db/database.js';
import { findUserByEmail } from '../../../src/server/identity/users/repository.js';
import type { TokenResponse } from '../../../src/shared/api/auth.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from '../../support/databases.js';
import { STRONG_PASSWORD, WEB_API_KEY } from '../../support/test-server.js';
import { runCli } from '../../support/run-cli.js';

const USAGE_LINE = 'Usage: npm run cli -- <command> [options]';
const generatedPasswordOf = (stdout: string) => {
  const match = /^Password: (\S+) {3}\(shown only this once\)$/m.exec(stdout);
  if (!match?.[1]) throw new Error(`no generated password in:\n${stdout}`);
  return match[1];
};

function defineCliSuite(dialect: DialectUnderTest): void {
  let dataDir = '';
  let env: Record<string, string> = {};
  let app: FastifyInstance | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-cli-'));
    const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    dropDatabase = postgres?.drop;
    env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      // No web build here: the CLI must still stay quiet (it does not serve the portal).
      WEB_DIR: join(dataDir, 'no-web-build'),
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    };
  });

  afterAll(async () => {
    await app?.close();
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The server's view of the same database (same DATA_DIR, so the same JWT secret and SQLite file). */
  async function server(): Promise<FastifyInstance> {
    app ??= await buildApp(loadConfig({ ...env, NODE_ENV: 'test', AUTH_RATE_LIMIT_PER_MINUTE: '10000' }), {
      logger: false,
    });
    return app;
  }

  async function login(email: string, password: string) {
    return (await server()).inject({
      method: 'POST',
      url: '/api/v1/auth/login/json',
      headers: { 'x-api-key': WEB_API_KEY },
      payload: { email, password },
    });
  }

  it('migrate applies the migrations, then reports the database up to date', async () => {
    // Once a process started as `npm run cli` starts it; the other commands run in this process.
    const first = await runCli(['migrate'], env, { via: dialect === 'sqlite' ? 'process' : 'in-process' });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^Applied: .*0001-accounts/m);
    if (dialect === 'sqlite') expect(existsSync(join(dataDir, SQLITE_FILE_NAME))).toBe(true);

    const second = await runCli(['migrate'], env);
    expect(second).toEqual({ code: 0, stdout: 'The database is up to date.\n', stderr: '' });
  });

  it('create-admin without --password prints a generated password that signs in as admin', async () => {
    // A process (once): its stdout is where log records would show.
    const result = await runCli(['create-admin', '--email', 'Ops@Example.com'], env, {
      via: dialect === 'sqlite' ? 'process' : 'in-process',
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Administrator created.');
    expect(result.stdout).toMatch(/^Email: +ops@example\.com$/m);
    // LOG_LEVEL=silent is honoured: only the operator's lines, no JSON log records.
    expect(result.stdout).not.toContain('"level"');
    const password = generatedPasswordOf(result.stdout);
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const response = await login('ops@example.com', password);
    expect(response.statusCode).toBe(200);
    expect(response.json<TokenResponse>().user).toMatchObject({ email: 'ops@example.com', role: 'admin' });
    const { db } = await server();
    const admin = await findUserByEmail(db, 'ops@example.com');
    const events = await db
      .selectFrom('security_events')
      .select(['user_id', 'details'])
      .where('type', '=', 'admin_created')
      .execute();
    // The event names the new account, not only its address.
    expect(
      events.map((event) => ({
        userId: event.user_id,
        details: JSON.parse(event.details ?? '{}') as unknown,
      })),
    ).toContainEqual({ userId: admin?.id, details: { email: 'ops@example.com', via: 'cli' } });
  });

  it('create-admin with --password uses it; on an existing account it promotes without touching the password', async () => {
    const given = await runCli(
      ['create-admin', '--email', 'second@example.com', '--password', STRONG_PASSWORD],
      env,
    );
    expect(given.code).toBe(0);
    expect(given.stdout).toContain('Password: as given');
    expect(given.stdout).not.toContain('shown only this once');
    expect((await login('second@example.com', STRONG_PASSWORD)).json<TokenResponse>().user.role).toBe(
      'admin',
    );

    const app = await server();
    await app.authService.createAccount({
      email: 'member@example.com',
      password: STRONG_PASSWORD,
      role: 'user',
      verified: true,
    });
    const before = await findUserByEmail(app.db, 'member@example.com');
    const promoted = await runCli(['create-admin', '--email', 'member@example.com'], env);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toBe('member@example.com is now an administrator (password unchanged).\n');
    const after = await findUserByEmail(app.db, 'member@example.com');
    expect(after?.role).toBe('admin');
    expect(after?.password_hash).toBe(before?.password_hash);
  });

  it('create-admin on an unconfirmed account promotes it and confirms its address, so it can sign in', async () => {
    const app = await server();
    const user = await app.authService.createAccount({
      email: 'pending@example.com',
      password: STRONG_PASSWORD,
      role: 'user',
      verified: false,
    });
    expect((await login('pending@example.com', STRONG_PASSWORD)).statusCode).toBe(403);

    const promoted = await runCli(['create-admin', '--email', 'pending@example.com'], env);
    expect(promoted).toEqual({
      code: 0,
      stdout:
        'pending@example.com is now an administrator (password unchanged, e-mail address marked as confirmed).\n',
      stderr: '',
    });
    const after = await findUserByEmail(app.db, 'pending@example.com');
    expect(after).toMatchObject({ role: 'admin', email_verified_at: expect.any(String) });
    const response = await login('pending@example.com', STRONG_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json<TokenResponse>().user.role).toBe('admin');
    const events = await app.db
      .selectFrom('security_events')
      .select('user_id')
      .where('type', '=', 'admin_created')
      .where('user_id', '=', user.id)
      .execute();
    expect(events).toHaveLength(1);

    // Promoting again keeps the date the address was confirmed.
    await runCli(['create-admin', '--email', 'pending@example.com'], env);
    expect((await findUserByEmail(app.db, 'pending@example.com'))?.email_verified_at).toBe(
      after?.email_verified_at,
    );
  });

  it('create-admin and reset-password refuse a common --password, changing nothing', async () => {
    const created = await runCli(
      ['create-admin', '--email', 'weak@example.com', '--password', 'password123'],
      env,
    );
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('--password: This password is too common or too easy to guess.');
    expect(await findUserByEmail((await server()).db, 'weak@example.com')).toBeUndefined();

    await runCli(['create-admin', '--email', 'keeps@example.com', '--password', STRONG_PASSWORD], env);
    const reset = await runCli(
      ['reset-password', '--email', 'keeps@example.com', '--password', 'iloveyou'],
      env,
    );
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain('--password: This password is too common or too easy to guess.');
    expect((await login('keeps@example.com', STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('reset-password sets a new password and signs the account out everywhere', async () => {
    const created = await runCli(['create-admin', '--email', 'reset-me@example.com'], env);
    const oldPassword = generatedPasswordOf(created.stdout);
    const before = await login('reset-me@example.com', oldPassword);
    expect(before.statusCode).toBe(200);
    const refreshToken = before.json<TokenResponse>().refresh_token;

    const reset = await runCli(['reset-password', '--email', 'reset-me@example.com'], env);
    expect(reset.code).toBe(0);
    expect(reset.stderr).toBe('');
    expect(reset.stdout).toContain('Password reset; every session of reset-me@example.com was signed out.');
    const newPassword = generatedPasswordOf(reset.stdout);
    expect(newPassword).not.toBe(oldPassword);

    const app = await server();
    const refreshed = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { 'x-api-key': WEB_API_KEY },
      payload: { refresh_token: refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
    expect(refreshed.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });

    expect((await login('reset-me@example.com', oldPassword)).statusCode).toBe(401);
    expect((await login('reset-me@example.com', newPassword)).statusCode).toBe(200);

    const given = await runCli(
      ['reset-password', '--email', 'reset-me@example.com', '--password', STRONG_PASSWORD],
      env,
    );
    expect(given.code).toBe(0);
    expect(given.stdout).toContain('Password: as given');
    expect((await login('reset-me@example.com', STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('reset-password of an unknown account exits 1 with the usage text', async () => {
    const result = await runCli(['reset-password', '--email', 'nobody@example.com'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('No account with the e-mail nobody@example.com');
    expect(result.stderr).toContain(USAGE_LINE);
    expect(await findUserByEmail((await server()).db, 'nobody@example.com')).toBeUndefined();
  });
}

// A CLI run in a process of its own takes seconds on a busy machine; some tests make three runs.
const slow = { timeout: 90_000 };

describe('CLI [sqlite]', slow, () => defineCliSuite('sqlite'));
if (TEST_POSTGRES_URL) describe('CLI [postgres]', slow, () => defineCliSuite('postgres'));
else describe.skip(`CLI [postgres: skipped, ${postgresSkipReason}]`, slow, () => defineCliSuite('postgres'));

describe('CLI mistakes', slow, () => {
  let dataDir = '';
  let env: Record<string, string> = {};
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-cli-usage-'));
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIR: join(dataDir, 'no-web-build') };
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it.each([
    ['a bad e-mail', ['create-admin', '--email', 'not-an-email'], '--email must be a valid e-mail address'],
    ['no e-mail', ['reset-password'], '--email must be a valid e-mail address'],
    ['a short password', ['create-admin', '--email', 'a@example.com', '--password', 'short'], '--password: '],
    [
      'a common password',
      ['create-admin', '--email', 'a@example.com', '--password', 'qwertyuiop'],
      '--password: This password is too common',
    ],
    [
      'the address as password',
      ['reset-password', '--email', 'alice@example.com', '--password', 'Alice@Example.com'],
      '--password: This password contains the e-mail address',
    ],
    ['an unknown command', ['frobnicate'], 'Unknown command: frobnicate'],
    ['no command', [], 'No command given'],
    [
      'an unknown option',
      ['create-admin', '--email', 'a@example.com', '--force'],
      "Unknown option '--force'",
    ],
    ['an option without its value', ['create-admin', '--email'], "'--email <value>' argument missing"],
  ])('%s exits 1 with the usage text', async (_case, args, problem) => {
    // The exit code of a real process once; the same answer in this process for the others.
    const result = await runCli(args, env, { via: args.length === 0 ? 'process' : 'in-process' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(problem);
    expect(result.stderr).toContain(USAGE_LINE);
    expect(result.stderr).toContain('create-admin --email <e> [--password <p>]');
  });

  it('a bad environment exits 1 naming every bad variable', async () => {
    const result = await runCli(
      ['migrate'],
      { ...env, DATABASE_URL: 'mysql://x', JWT_SECRET: randomBytes(4).toString('hex') },
      { via: 'process' },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration:');
    expect(result.stderr).toContain('  - DATABASE_URL: ');
    expect(result.stderr).toContain('  - JWT_SECRET: ');
  });

  it('refuses all of these before opening the database', () => {
    expect(existsSync(join(dataDir, SQLITE_FILE_NAME))).toBe(false);
  });
});
