import { existsSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../../src/server/platform/db/database.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from '../../support/databases.js';
import { WEB_API_KEY } from '../../support/test-server.js';
import {
  freePort,
  killChildServers,
  type RunningServer,
  startChildServer,
  waitUntilHealthy,
} from '../../support/child-server.js';

const temporaryDirs: string[] = [];

// A failed test must not leave a server behind.
afterEach(killChildServers);

afterAll(async () => {
  for (const dir of temporaryDirs) await rm(dir, { recursive: true, force: true });
});

async function temporaryDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-main-'));
  temporaryDirs.push(dir);
  return dir;
}

/** Resolves with the exit, or with 'timeout' when the process is still running after `ms`. */
const exitWithin = (server: RunningServer, ms: number) =>
  Promise.race([server.exited, sleep(ms).then(() => 'timeout' as const)]);

/** How long a stopping server may take to exit: ample on a busy machine, still short of a hang. */
const EXIT_DEADLINE_MS = 20_000;

/** Whether a TCP connection to the port is refused. */
const connectionRefused = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });

const login = (port: number, email: string, password: string) =>
  fetch(`http://127.0.0.1:${port}/api/v1/auth/login/json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': WEB_API_KEY },
    body: JSON.stringify({ email, password }),
  });

/** The first bytes the server sends on a raw socket. */
const firstAnswer = (socket: Socket) =>
  new Promise<string>((done) => socket.once('data', (chunk: Buffer) => done(chunk.toString())));

/** Everything the server sends on a raw socket until it closes the connection. */
const readUntilClosed = (socket: Socket) =>
  new Promise<string>((done, fail) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.once('error', fail);
    socket.once('close', () => done(received));
  });

/** A server that drains for longer than any test runs: SIGINT ends the drain, never a timer. */
const ENDLESS_DRAIN = { SHUTDOWN_DRAIN_SECONDS: '300' };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One GET over `agent` (keep-alive or a fresh connection), with the error a client would see. */
const get = (port: number, path: string, agent: Agent | false) =>
  new Promise<Answer>((done, fail) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': WEB_API_KEY } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body }));
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end();
  });

/** The raw request that starts a sign-in and holds back the rest of its body. */
function beginSlowLogin(port: number, body: string): string {
  return (
    'POST /api/v1/auth/login/json HTTP/1.1\r\n' +
    `Host: 127.0.0.1:${port}\r\n` +
    'Content-Type: application/json\r\n' +
    `X-API-Key: ${WEB_API_KEY}\r\n` +
    // The server's "100 Continue" shows it has taken the request in, however slow the machine.
    'Expect: 100-continue\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
    body.slice(0, 10)
  );
}

/**
 * Opens a connection and starts a sign-in whose body it holds back, once the server has taken the
 * request in ("100 Continue"): a request in flight. Write `rest` to finish it; `response` is all the
 * connection receives until it closes.
 */
async function startSignInInFlight(port: number) {
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
  const socket = createConnection({ port, host: '127.0.0.1' });
  await new Promise((done) => socket.once('connect', done));
  const response = readUntilClosed(socket);
  const interim = firstAnswer(socket);
  socket.write(beginSlowLogin(port, body));
  expect(await interim).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  return { socket, response, rest: body.slice(10) };
}

const FIRST_ADMIN_BANNER = 'First administrator created.';
const NO_SMTP_WARNING = 'SMTP_URL is not set: mail is written to ';

function defineServerSuite(dialect: DialectUnderTest): void {
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await dropDatabase?.();
  });

  /** DATA_DIR (and for PostgreSQL a fresh DATABASE_URL) of one installation. */
  async function installation(): Promise<Record<string, string>> {
    const dataDir = await temporaryDir();
    const env: Record<string, string> = { DATA_DIR: dataDir, WEB_DIR: join(dataDir, 'no-web-build') };
    if (dialect === 'postgres') {
      const postgres = await createPostgresDatabase();
      const previous = dropDatabase;
      dropDatabase = async () => {
        await previous?.();
        await postgres.drop();
      };
      env['DATABASE_URL'] = postgres.url;
    }
    return env;
  }

  it('on SIGTERM without a drain finishes the in-flight request, refuses new connections and exits 0', async () => {
    const server = startChildServer(
      { ...(await installation()), SHUTDOWN_DRAIN_SECONDS: '0' },
      await freePort(),
    );
    await waitUntilHealthy(server);

    // A slow client: headers and half of the body now, the rest after the signal.
    const { socket, response, rest } = await startSignInInFlight(server.port);

    server.child.kill('SIGTERM');
    // The listener closes at once while the request is still being received …
    const refusedDeadline = Date.now() + EXIT_DEADLINE_MS;
    while (!(await connectionRefused(server.port)) && Date.now() < refusedDeadline) await sleep(50);
    expect(await connectionRefused(server.port)).toBe(true);
    // … but the process waits for the request instead of dropping it.
    expect(await exitWithin(server, 500)).toBe('timeout');

    socket.write(rest);
    const raw = await response;
    expect(raw).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);
    expect(raw).toContain('"code":"invalid_credentials"');

    expect(await exitWithin(server, EXIT_DEADLINE_MS)).toEqual({ code: 0, signal: null });
    expect(await connectionRefused(server.port)).toBe(true);
    expect(server.output.stderr).toBe('');
  });

  it('on SIGTERM fails readiness first and keeps answering keep-alive and new connections; SIGINT ends the drain', async () => {
    const server = startChildServer({ ...(await installation()), ...ENDLESS_DRAIN }, await freePort());
    await waitUntilHealthy(server);

    // Four clients on keep-alive connections, asking without pause before, at and after the signal.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const answers: Answer[] = [];
    const failures: unknown[] = [];
    let asking = true;
    const client = async () => {
      while (asking) {
        try {
          answers.push(await get(server.port, '/api/v1/plans/public', agent));
        } catch (error) {
          failures.push(error);
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await expect.poll(() => answers.length).toBeGreaterThanOrEqual(8);

    server.child.kill('SIGTERM');
    // Readiness fails while the listener still takes connections (this poll opens a new one each time).
    let readiness: Answer | undefined;
    await expect
      .poll(async () => (readiness = await get(server.port, '/api/v1/health', false)).status, {
        timeout: EXIT_DEADLINE_MS,
      })
      .toBe(503);
    expect(JSON.parse(readiness?.body ?? '')).toMatchObject({
      status: 'unavailable',
      database: 'ok',
      code: 'shutting_down',
      detail: expect.stringContaining('shutting down') as unknown,
      message: expect.stringContaining('shutting down') as unknown,
    });
    // The keep-alive clients go on being answered, and kept alive, after readiness has failed.
    const answeredBefore = answers.length;
    await expect.poll(() => answers.length).toBeGreaterThanOrEqual(answeredBefore + 8);
    asking = false;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(answers.map((answer) => answer.status).every((status) => status === 200)).toBe(true);
    expect(answers.at(-1)?.headers['connection']).toBe('keep-alive');
    expect(server.child.exitCode).toBeNull();

    // SIGINT ends the drain: the listener closes, the request in flight is still answered.
    const { socket, response, rest } = await startSignInInFlight(server.port);
    server.child.kill('SIGINT');
    await expect.poll(() => connectionRefused(server.port), { timeout: EXIT_DEADLINE_MS }).toBe(true);
    socket.write(rest);
    const raw = await response;
    expect(raw).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);
    expect(raw).toContain('"code":"invalid_credentials"');
    agent.destroy();
    expect(await exitWithin(server, EXIT_DEADLINE_MS)).toEqual({ code: 0, signal: null });
    expect(server.output.stderr).toBe('');
  });

  it('answers a request that reaches it on a keep-alive connection after the listener closed by its route, not a bare 503', async () => {
    const server = startChildServer(await installation(), await freePort());
    await waitUntilHealthy(server);

    const { socket, response, rest } = await startSignInInFlight(server.port);

    server.child.kill('SIGTERM');
    await expect.poll(() => connectionRefused(server.port), { timeout: EXIT_DEADLINE_MS }).toBe(true);
    // The rest of the sign-in and, pipelined behind it, a second request on the same connection.
    socket.write(
      rest +
        'GET /api/v1/plans/public HTTP/1.1\r\n' +
        `Host: 127.0.0.1:${server.port}\r\n` +
        `X-API-Key: ${WEB_API_KEY}\r\n\r\n`,
    );
    const raw = await response;
    // Each answer follows the previous body directly, not at the start of a line.
    const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
    expect(statuses).toEqual(['100', '401', '200']);
    expect(raw).toContain('"code":"invalid_credentials"');
    expect(raw).not.toContain('Service Unavailable');
    // The last answer says the connection ends with it.
    expect(raw.slice(raw.lastIndexOf('HTTP/1.1 200'))).toMatch(/\r\nconnection: close\r\n/i);
    expect(await exitWithin(server, EXIT_DEADLINE_MS)).toEqual({ code: 0, signal: null });
    expect(server.output.stderr).toBe('');
  });

  it('prints the first administrator with a working password once; a second start does not; SIGINT stops it', async () => {
    const env = await installation();
    const first = startChildServer(env, await freePort());
    await waitUntilHealthy(first);
    const banner = first.output.stdout;
    expect(banner).toContain(FIRST_ADMIN_BANNER);
    expect(banner).toContain(`Sign in at http://localhost:${first.port}/login`);
    expect(banner).toMatch(/^ {2}Email: +admin@example\.com$/m);
    const password = /^ {2}Password: (\S+) {3}\(shown only this once/m.exec(banner)?.[1] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(banner.split(FIRST_ADMIN_BANNER)).toHaveLength(2);
    // Production (the default) without SMTP_URL: a warning that mail stays on this machine.
    expect(banner).toContain(
      `${NO_SMTP_WARNING}${join(env['DATA_DIR'] ?? '', 'outbox')} and its links to this log`,
    );

    const signedIn = await login(first.port, 'admin@example.com', password);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { user: { role: string } }).user.role).toBe('admin');

    first.child.kill('SIGTERM');
    expect(await exitWithin(first, EXIT_DEADLINE_MS)).toEqual({ code: 0, signal: null });
    if (dialect === 'sqlite') expect(existsSync(join(env['DATA_DIR'] ?? '', SQLITE_FILE_NAME))).toBe(true);

    const second = startChildServer(env, await freePort());
    await waitUntilHealthy(second);
    expect((await login(second.port, 'admin@example.com', password)).status).toBe(200);
    expect(second.output.stdout).not.toContain(FIRST_ADMIN_BANNER);
    expect(second.output.stdout).not.toContain(password);

    second.child.kill('SIGINT');
    expect(await exitWithin(second, EXIT_DEADLINE_MS)).toEqual({ code: 0, signal: null });
    expect(await connectionRefused(second.port)).toBe(true);
  });
}

// Every test starts one or two real Node processes; a busy machine needs the room.
const slow = { timeout: 90_000 };

describe('server process [sqlite]', slow, () => defineServerSuite('sqlite'));
if (TEST_POSTGRES_URL) describe('server process [postgres]', slow, () => defineServerSuite('postgres'));
else
  describe.skip(`server process [postgres: skipped, ${postgresSkipReason}]`, slow, () =>
    defineServerSuite('postgres'),
  );

describe('server process mail warning', slow, () => {
  it.each([
    ['with SMTP_URL set', { SMTP_URL: 'smtp://127.0.0.1:9' }],
    ['in development', { NODE_ENV: 'development' }],
  ])('is not given %s', async (_case, settings) => {
    const dataDir = await temporaryDir();
    const server = startChildServer(
      { DATA_DIR: dataDir, WEB_DIR: join(dataDir, 'no-web-build'), ...settings },
      await freePort(),
    );
    await waitUntilHealthy(server);
    server.child.kill('SIGTERM');
    expect(await exitWithin(server, EXIT_DEADLINE_MS)).toEqual({ code: 0, signal: null });
    expect(server.output.stdout).toContain(FIRST_ADMIN_BANNER);
    expect(server.output.stdout).not.toContain(NO_SMTP_WARNING);
  });
});

describe('server process start-up failures', slow, () => {
  it('with a common ADMIN_PASSWORD on the first start says so and exits 1, creating no admin', async () => {
    const dataDir = await temporaryDir();
    const env = { DATA_DIR: dataDir, WEB_DIR: join(dataDir, 'no-web-build'), ADMIN_PASSWORD: 'password123' };
    const bad = startChildServer(env, await freePort());
    expect(await exitWithin(bad, 20_000)).toEqual({ code: 1, signal: null });
    expect(bad.output.stderr).toMatch(
      /^Invalid configuration:\n {2}- ADMIN_PASSWORD: This password is too common or too easy to guess\./,
    );
    expect(bad.output.stdout).not.toContain(FIRST_ADMIN_BANNER);

    // The same installation starts once the password is a good one.
    const good = startChildServer(
      { ...env, ADMIN_PASSWORD: 'a long phrase nobody else uses 7' },
      await freePort(),
    );
    await waitUntilHealthy(good);
    expect(good.output.stdout).toContain(FIRST_ADMIN_BANNER);
    expect((await login(good.port, 'admin@example.com', 'a long phrase nobody else uses 7')).status).toBe(
      200,
    );
  });

  it('with an empty generated JWT secret names the file and exits 1', async () => {
    const dataDir = await temporaryDir();
    const secretFile = join(dataDir, 'keys', 'jwt-secret');
    await mkdir(join(dataDir, 'keys'));
    await writeFile(secretFile, '');
    const bad = startChildServer({ DATA_DIR: dataDir }, await freePort());
    expect(await exitWithin(bad, 20_000)).toEqual({ code: 1, signal: null });
    expect(bad.output.stderr).toContain(
      `The generated secret ${secretFile} holds 0 characters, fewer than 32`,
    );
    expect(bad.output.stderr).toContain('or set JWT_SECRET');
    expect(bad.output.stdout).not.toContain(FIRST_ADMIN_BANNER);
  });

  it('with bad settings prints every problem and exits 1 without touching the data directory', async () => {
    const dataDir = await temporaryDir();
    const bad = startChildServer(
      {
        DATA_DIR: dataDir,
        PORT: 'abc',
        JWT_SECRET: 'short',
        SMTP_URL: 'http://mail',
        DATABASE_URL: 'mysql://x',
      },
      0,
    );
    expect(await exitWithin(bad, 20_000)).toEqual({ code: 1, signal: null });
    expect(bad.output.stderr).toMatch(/^Invalid configuration:\n/);
    for (const name of ['PORT', 'JWT_SECRET', 'SMTP_URL', 'DATABASE_URL'])
      expect(bad.output.stderr).toContain(`  - ${name}: `);
    expect(bad.output.stdout).not.toContain(FIRST_ADMIN_BANNER);
    expect(existsSync(join(dataDir, SQLITE_FILE_NAME))).toBe(false);
  });

  it('on a port already in use says so and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const address = blocker.address();
    const port = address && typeof address !== 'string' ? address.port : 0;
    try {
      const server = startChildServer({ DATA_DIR: await temporaryDir() }, port);
      expect(await exitWithin(server, 30_000)).toEqual({ code: 1, signal: null });
      expect(server.output.stderr).toContain('Failed to start');
      expect(server.output.stderr).toContain('EADDRINUSE');
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });
});
