import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { TokenResponse } from '../../src/shared/api/auth.js';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { type AppOverrides, buildApp, type ContextName } from '../../src/server/app.js';
import { type Config, loadConfig } from '../../src/server/platform/config.js';
import type { PasswordHashCost } from '../../src/server/identity/index.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  placeMigratedSqlite,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from './databases.js';
import { type OutboxMail, readOutbox, tokenFromMail } from './outbox.js';
import { createTestClock, type TestClock } from './test-clock.js';

export const WEB_API_KEY = 'dap-web-public';

export interface ApiRequest {
  method?: InjectOptions['method'];
  /** Path below /api/v1, e.g. `/auth/login/json`. */
  path: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
  /** Leave out the X-API-Key header. */
  withoutApiKey?: boolean;
  /** Send a refresh token without the binding cookie its sign-in set (as a thief would). */
  withoutBindingCookie?: boolean;
}

/** A running server on a fresh database, its clock, its outbox, and request helpers. */
export interface TestServer {
  dialect: DialectUnderTest;
  app: FastifyInstance;
  config: Config;
  clock: TestClock;
  /** Sends one API request in-process (the full Fastify pipeline, no socket) and waits for the mail it queued. */
  api(request: ApiRequest): Promise<LightMyRequestResponse>;
  /** All mail written so far, after waiting for queued deliveries. */
  outbox(): Promise<OutboxMail[]>;
  /** The newest mail to an address, or an error naming what was there. */
  lastMailTo(email: string): Promise<OutboxMail>;
  /** Registers, confirms via the e-mailed link and returns the credentials. */
  createVerifiedUser(options?: {
    email?: string;
    password?: string;
  }): Promise<{ email: string; password: string }>;
  login(email: string, password: string): Promise<TokenResponse>;
  /** The `name=value` binding cookie set with a refresh token's session, as its browser holds it. */
  bindingCookieOf(refreshToken: string): string | undefined;
  /** Starts listening on a free loopback port for tests that need a real socket. */
  listen(): Promise<string>;
}

export interface TestServerOptions {
  /** Extra environment for loadConfig (e.g. a low AUTH_RATE_LIMIT_PER_MINUTE). */
  env?: Record<string, string>;
  /**
   * More for buildApp, from the loaded config (e.g. a payment provider pointed at a fake API).
   * Called in beforeAll, after the beforeAll hooks registered before the suite was declared.
   */
  appOverrides?: (config: Config) => Partial<AppOverrides>;
  /** Only these contexts (with the platform): a suite of one context loads none of the others' code. */
  contexts?: readonly ContextName[];
}

let userSequence = 0;
export const uniqueEmail = (label = 'user') =>
  `${label}.${process.pid}.${++userSequence}.${randomBytes(3).toString('hex')}@example.com`;
export const STRONG_PASSWORD = 'correct horse battery staple 42';

/**
 * argon2id's cost on the test servers: the least it takes (8 KiB, one pass) instead of OWASP's
 * 19 MiB and two passes, which cost tens of milliseconds a sign-in and minutes over the suites.
 * The hasher's own tests (identity/auth-hardening.test.ts) keep the production cost.
 */
export const TEST_PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 8, timeCost: 1 };

function useTestServer(dialect: DialectUnderTest, options: TestServerOptions): () => TestServer {
  let server: TestServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portal-test-'));
    // A copy of the run's migrated database: the server's migration then has nothing left to do.
    const postgres = dialect === 'postgres' ? await createPostgresDatabase({ migrated: true }) : undefined;
    if (!postgres) await placeMigratedSqlite(dataDir);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      WEB_DIR: join(dataDir, 'no-web-build'),
      PUBLIC_URL: 'http://portal.test',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      ...options.env,
    });
    const clock = createTestClock();
    const app = await buildApp(config, {
      clock,
      logger: false,
      passwordHashCost: TEST_PASSWORD_HASH_COST,
      ...(options.contexts ? { contexts: options.contexts } : {}),
      ...options.appOverrides?.(config),
    });
    cleanup = async () => {
      await app.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    };

    // Each session signed in through `api` is its own browser: the binding cookie set with its
    // tokens goes along whenever one of its refresh tokens is sent, and moves on to the next token
    // of a rotation (refresh token → `name=value`).
    const bindingCookies = new Map<string, string>();
    const rememberBinding = (presented: string | undefined, response: LightMyRequestResponse) => {
      if (response.statusCode !== 200 || !response.body.includes('"refresh_token"')) return;
      const issued = response.json<{ refresh_token?: unknown }>().refresh_token;
      const set = response.cookies.find((cookie) => cookie.name.endsWith('dap_session_binding'));
      const cookie = set ? `${set.name}=${set.value}` : presented && bindingCookies.get(presented);
      if (typeof issued === 'string' && cookie) bindingCookies.set(issued, cookie);
    };

    // Waits for the work the server does after answering (mail, registration writes), so a
    // test reads the state a person would find a moment later.
    const api: TestServer['api'] = async (request) => {
      const body = request.body as { refresh_token?: unknown } | undefined;
      const presented = typeof body?.refresh_token === 'string' ? body.refresh_token : undefined;
      const binding = presented && !request.withoutBindingCookie ? bindingCookies.get(presented) : undefined;
      const response = await app.inject({
        method: request.method ?? 'GET',
        url: `${API_BASE_PATH}${request.path}`,
        headers: {
          ...(request.withoutApiKey ? {} : { 'x-api-key': WEB_API_KEY }),
          ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
          ...(binding ? { cookie: binding } : {}),
          ...request.headers,
        },
        ...(request.body === undefined ? {} : { payload: request.body as InjectOptions['payload'] }),
        ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
      });
      await app.mailOutbox.drain();
      rememberBinding(presented, response);
      return response;
    };

    const outbox = async () => {
      await app.mailOutbox.drain();
      return readOutbox(config.mail.outboxDir);
    };

    const lastMailTo = async (email: string) => {
      const mails = (await outbox()).filter((mail) => mail.to.includes(email));
      const last = mails.at(-1);
      if (!last) throw new Error(`no mail to ${email} in the outbox`);
      return last;
    };

    const login = async (email: string, password: string) => {
      const response = await api({ method: 'POST', path: '/auth/login/json', body: { email, password } });
      if (response.statusCode !== 200)
        throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      return response.json<TokenResponse>();
    };

    server = {
      dialect,
      app,
      config,
      clock,
      api,
      outbox,
      lastMailTo,
      login,
      bindingCookieOf: (refreshToken) => bindingCookies.get(refreshToken),
      async createVerifiedUser(user = {}) {
        const email = user.email ?? uniqueEmail();
        const password = user.password ?? STRONG_PASSWORD;
        const registered = await api({ method: 'POST', path: '/auth/register', body: { email, password } });
        if (registered.statusCode !== 202) throw new Error(`register failed: ${registered.body}`);
        const token = tokenFromMail(await lastMailTo(email));
        const verified = await api({ method: 'POST', path: '/auth/verify-registration', body: { token } });
        if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
        return { email, password };
      },
      async listen() {
        const address = await app.listen({ port: 0, host: '127.0.0.1' });
        return address;
      },
    };
  });

  // A test that froze the clock does not hand a stopped clock to the next one.
  afterEach(() => server?.clock.resume());

  afterAll(async () => {
    await cleanup?.();
  });

  return () => {
    if (!server) throw new Error('the test server is not started yet (use it inside a test or hook)');
    return server;
  };
}

/**
 * Declares the suite twice: on SQLite and on a fresh PostgreSQL database. Without
 * TEST_POSTGRES_URL the PostgreSQL copy is reported as skipped, with the reason in its title.
 */
export function describeOnEveryDatabase(
  title: string,
  define: (server: () => TestServer) => void,
  options: TestServerOptions = {},
): void {
  describe(`${title} [sqlite]`, () => define(useTestServer('sqlite', options)));
  if (TEST_POSTGRES_URL) describe(`${title} [postgres]`, () => define(useTestServer('postgres', options)));
  else
    describe.skip(`${title} [postgres: skipped, ${postgresSkipReason}]`, () =>
      define(() => {
        throw new Error(postgresSkipReason);
      }));
}
