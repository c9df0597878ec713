import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { type Config, ConfigError, loadConfig } from '../../../src/server/platform/config.js';
import { ensureFirstAdmin } from '../../../src/server/identity/first-admin.js';
import { countAdmins, findUserByEmail } from '../../../src/server/identity/users/repository.js';
import type { TokenResponse } from '../../../src/shared/api/auth.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from '../../support/databases.js';
import { STRONG_PASSWORD, WEB_API_KEY } from '../../support/test-server.js';

/** Each test needs an empty database, so every call opens a new app on a new one; all closed in afterAll. */
function freshApps(dialect: DialectUnderTest) {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return async (env: Record<string, string> = {}): Promise<{ app: FastifyInstance; config: Config }> => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portal-first-admin-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    if (postgres) cleanups.push(postgres.drop);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      WEB_DIR: join(dataDir, 'no-web-build'),
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      ...env,
    });
    const app = await buildApp(config, { logger: false });
    cleanups.push(() => app.close());
    return { app, config };
  };
}

const login = (app: FastifyInstance, email: string, password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/json',
    headers: { 'x-api-key': WEB_API_KEY },
    payload: { email, password },
  });

function defineFirstAdminSuite(dialect: DialectUnderTest): void {
  const openApp = freshApps(dialect);

  it('creates a verified admin with a generated password that signs in, and reports it once', async () => {
    const { app, config } = await openApp({ ADMIN_EMAIL: 'Owner@Example.com' });
    expect(await countAdmins(app.db)).toBe(0);

    const result = await ensureFirstAdmin(app.db, app.authService, config.bootstrapAdmin);
    expect(result?.email).toBe('owner@example.com');
    const password = result?.generatedPassword ?? '';
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const response = await login(app, 'owner@example.com', password);
    expect(response.statusCode).toBe(200);
    const tokens = response.json<TokenResponse>();
    expect(tokens.user).toMatchObject({ email: 'owner@example.com', role: 'admin' });

    const row = await findUserByEmail(app.db, 'owner@example.com');
    expect(row).toMatchObject({ role: 'admin', status: 'active', full_name: 'Administrator' });
    expect(row?.email_verified_at).toBeTruthy();
    expect(row?.password_hash).not.toContain(password);
    const events = await app.db
      .selectFrom('security_events')
      .select(['type', 'user_id'])
      .where('type', '=', 'admin_created')
      .execute();
    expect(events).toEqual([{ type: 'admin_created', user_id: row?.id }]);

    // Restarts must leave the account alone: nothing returned, nothing changed.
    expect(await ensureFirstAdmin(app.db, app.authService, config.bootstrapAdmin)).toBeUndefined();
    expect(
      await ensureFirstAdmin(app.db, app.authService, { email: 'other@example.com', password: undefined }),
    ).toBeUndefined();
    expect(await countAdmins(app.db)).toBe(1);
    expect(await findUserByEmail(app.db, 'other@example.com')).toBeUndefined();
    expect((await findUserByEmail(app.db, 'owner@example.com'))?.password_hash).toBe(row?.password_hash);
    expect((await login(app, 'owner@example.com', password)).statusCode).toBe(200);
  });

  it('uses ADMIN_PASSWORD when it is set and returns no generated password', async () => {
    const { app, config } = await openApp({
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: STRONG_PASSWORD,
    });
    const result = await ensureFirstAdmin(app.db, app.authService, config.bootstrapAdmin);
    expect(result).toEqual({ email: 'boss@example.com' });
    expect(result).not.toHaveProperty('generatedPassword');

    const response = await login(app, 'boss@example.com', STRONG_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json<TokenResponse>().user.role).toBe('admin');
    expect((await login(app, 'boss@example.com', `${STRONG_PASSWORD}!`)).statusCode).toBe(401);
  });

  const tooEasy = /^ADMIN_PASSWORD: This password is too common or too easy to guess\./;
  const containsEmail =
    /^ADMIN_PASSWORD: This password contains the e-mail address or the name before its @\./;
  it.each([
    ['a common ADMIN_PASSWORD', 'boss@example.com', 'password123', tooEasy],
    [
      'an ADMIN_PASSWORD that is the address',
      'administrator@example.com',
      'Administrator@Example.com',
      containsEmail,
    ],
    [
      'an ADMIN_PASSWORD that is the name of the address',
      'administrator@example.com',
      'administrator',
      containsEmail,
    ],
  ])('refuses %s with the other settings, before anything is created', (_case, email, password, says) => {
    const dataDir = join(tmpdir(), `portal-never-created-${process.pid}-${Date.now()}`);
    const refused = (() => {
      try {
        return loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: email, ADMIN_PASSWORD: password, PORT: 'x' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    // Listed together with the other bad setting, as every problem is.
    expect((refused as ConfigError).problems).toEqual([
      expect.stringMatching(/^PORT: /),
      expect.stringMatching(says),
    ]);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('checks ADMIN_PASSWORD only while there is no admin: later starts ignore it', async () => {
    const { app, config } = await openApp({
      ADMIN_EMAIL: 'first@example.com',
      ADMIN_PASSWORD: STRONG_PASSWORD,
    });
    await ensureFirstAdmin(app.db, app.authService, config.bootstrapAdmin);
    const later = { email: 'first@example.com', password: 'password123' };
    expect(await ensureFirstAdmin(app.db, app.authService, later)).toBeUndefined();
    expect((await login(app, 'first@example.com', STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('creates one admin when two instances start on the same database at once', async () => {
    const { app, config } = await openApp({ ADMIN_EMAIL: 'race@example.com' });
    // The second instance: its own app (own connection pool) on the same database.
    const second = await buildApp({ ...config, logLevel: 'silent' }, { logger: false });
    try {
      const results = await Promise.all([
        ensureFirstAdmin(app.db, app.authService, config.bootstrapAdmin),
        ensureFirstAdmin(second.db, second.authService, config.bootstrapAdmin),
      ]);
      const created = results.filter((result) => result !== undefined);
      expect(created).toHaveLength(1);
      expect(await countAdmins(app.db)).toBe(1);
      const response = await login(second, 'race@example.com', created[0]?.generatedPassword ?? '');
      expect(response.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses an ADMIN_EMAIL that belongs to an ordinary account, changing nothing', async () => {
    const { app, config } = await openApp({ ADMIN_EMAIL: 'taken@example.com' });
    await app.authService.createAccount({
      email: 'taken@example.com',
      password: STRONG_PASSWORD,
      role: 'user',
      verified: true,
    });

    await expect(ensureFirstAdmin(app.db, app.authService, config.bootstrapAdmin)).rejects.toThrow(
      /ADMIN_EMAIL taken@example\.com belongs to an existing non-admin account.*create-admin/s,
    );
    expect(await countAdmins(app.db)).toBe(0);
    expect((await findUserByEmail(app.db, 'taken@example.com'))?.role).toBe('user');
    const response = await login(app, 'taken@example.com', STRONG_PASSWORD);
    expect(response.json<TokenResponse>().user.role).toBe('user');
  });
}

describe('ensureFirstAdmin [sqlite]', () => defineFirstAdminSuite('sqlite'));
if (TEST_POSTGRES_URL) describe('ensureFirstAdmin [postgres]', () => defineFirstAdminSuite('postgres'));
else
  describe.skip(`ensureFirstAdmin [postgres: skipped, ${postgresSkipReason}]`, () =>
    defineFirstAdminSuite('postgres'));
