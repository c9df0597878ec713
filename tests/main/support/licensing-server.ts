import { createHash, generateKeyPairSync, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type JWTPayload, SignJWT } from 'jose';
import {
  type ActivationResult,
  type LeaseSigningKeys,
  leaseSigningKeysSchema,
} from '../../../src/shared/api/licenses.js';
import { LEASE_ALGORITHM, LEASE_AUDIENCE, LEASE_TYPE, type LeaseClaims } from '../../../src/shared/lease.js';
import { DESKTOP_API_KEY } from '../../../src/main/desktop-config.js';
import type { TokenResponse } from '../../../src/shared/api/auth.js';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { placeMigratedSqlite } from '../../support/databases.js';
import { createTestClock, type TestClock } from '../../support/test-clock.js';
import {
  STRONG_PASSWORD,
  TEST_PASSWORD_HASH_COST,
  uniqueEmail,
  WEB_API_KEY,
} from '../../support/test-server.js';

/** The real API server (SQLite in a temporary directory) listening on a loopback port. */
export interface LicensingServer {
  app: FastifyInstance;
  clock: TestClock;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** Where publish-release keeps the installers (RELEASES_DIR). */
  releasesDir: string;
  /** What GET /api/v1/licensing/public-key serves: the keys a build of the desktop pins. */
  leaseKeys: LeaseSigningKeys;
  /** The server's own lease signing key (configured as LEASE_SIGNING_KEY), to sign odd leases with. */
  signingKey: KeyObject;
  /** A new verified user who activated the free base license on `hardwareId`. */
  activatedLicense(hardwareId: string): Promise<ActivationResult & { email: string }>;
  revoke(licenseId: string, reason: string): Promise<void>;
  /** An administrator grants `units` of the license's feature as a credit pack (the real route). */
  grantUnits(licenseId: string, feature: string, units: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * `publicUrlIsOwn`: PUBLIC_URL is the server's own loopback address (else http://portal.test), for
 * tests that follow the URLs it answers, such as the update feed's.
 */
export async function startLicensingServer(
  options: { publicUrlIsOwn?: boolean } = {},
): Promise<LicensingServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'desktop-server-'));
  await placeMigratedSqlite(dataDir);
  const publicUrl = options.publicUrlIsOwn ? await refusedUrl() : 'http://portal.test';
  const signingKey = generateKeyPairSync('ed25519').privateKey;
  const config = loadConfig({
    LEASE_SIGNING_KEY: JSON.stringify(signingKey.export({ format: 'jwk' })),
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '100000',
    WEB_DIR: join(dataDir, 'no-web-build'),
    PUBLIC_URL: publicUrl,
  });
  const clock = createTestClock();
  const app = await buildApp(config, { clock, logger: false, passwordHashCost: TEST_PASSWORD_HASH_COST });
  const address = await app.listen({
    port: options.publicUrlIsOwn ? Number(new URL(publicUrl).port) : 0,
    host: '127.0.0.1',
  });
  const baseUrl = address.replace('localhost', '127.0.0.1');
  const keysResponse = await fetch(`${baseUrl}/api/v1/licensing/public-key`, {
    headers: { 'x-api-key': DESKTOP_API_KEY },
  });
  const leaseKeys = leaseSigningKeysSchema.parse(await keysResponse.json());

  const inject = async (method: 'GET' | 'POST', url: string, payload?: unknown, token?: string) => {
    const response = await app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'x-api-key': WEB_API_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response;
  };

  return {
    app,
    clock,
    baseUrl,
    releasesDir: config.licensing.releasesDir,
    leaseKeys,
    signingKey,
    async activatedLicense(hardwareId) {
      const email = uniqueEmail('desktop');
      await app.authService.createAccount({ email, password: STRONG_PASSWORD, role: 'user', verified: true });
      const tokens = (
        await inject('POST', '/auth/login/json', { email, password: STRONG_PASSWORD })
      ).json<TokenResponse>();
      const activation = await inject(
        'POST',
        '/licenses/activate-base',
        { hardware_id: hardwareId, device_name: 'Desktop test machine' },
        tokens.access_token,
      );
      return { ...activation.json<ActivationResult>(), email };
    },
    async revoke(licenseId, reason) {
      await app.db
        .updateTable('licenses')
        .set({ status: 'revoked', revoked_reason: reason, revoked_at: clock.now().toISOString() })
        .where('id', '=', licenseId)
        .execute();
    },
    async grantUnits(licenseId, feature, units) {
      const email = uniqueEmail('desktop-admin');
      await app.authService.createAccount({
        email,
        password: STRONG_PASSWORD,
        role: 'admin',
        verified: true,
      });
      const tokens = (
        await inject('POST', '/auth/login/json', { email, password: STRONG_PASSWORD })
      ).json<TokenResponse>();
      await inject(
        'POST',
        `/admin/licenses/${licenseId}/usage/grants`,
        { feature, units, reason: 'Desktop test' },
        tokens.access_token,
      );
    },
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A loopback port that accepts connections and never answers: requests to it time out. */
export async function startSilentServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** A loopback address where nothing listens: connections are refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return `http://127.0.0.1:${port}`;
}

/** The fingerprint a lease carries for `licenseKey` (the server's keyFingerprint). */
export const keyFingerprint = (licenseKey: string) =>
  createHash('sha256').update(licenseKey).digest().subarray(0, 16).toString('base64url');

/** A lease as the server would issue one, signed with `key` under `kid`, with `claims` changed. */
export async function signLease(
  key: KeyObject,
  kid: string,
  claims: Partial<LeaseClaims> & Pick<LeaseClaims, 'sub' | 'hwid' | 'kfp' | 'iat' | 'exp'>,
): Promise<string> {
  const payload: LeaseClaims = {
    plan: { id: 'plan-forged', code: 'team-yearly', name: 'Team (yearly)' },
    features: [{ key: 'ai_chat', kind: 'metered', limit: null }],
    license_expires_at: null,
    iss: 'desktop-ai-assistant-portal',
    aud: LEASE_AUDIENCE,
    jti: randomUUID(),
    ...claims,
  };
  return new SignJWT(payload as unknown as JWTPayload)
    .setProtectedHeader({ alg: LEASE_ALGORITHM, kid, typ: LEASE_TYPE })
    .sign(key);
}

/** An Ed25519 key pair that is not the server's, with its public half as a JWK set. */
export function foreignKey(kid = 'attacker-key'): { privateKey: KeyObject; keys: LeaseSigningKeys } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { x } = privateKey.export({ format: 'jwk' }) as { x: string };
  return { privateKey, keys: { keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }] } };
}

/**
 * A server that is not the license server: a real HTTP server on loopback that answers every
 * status check with `answer(licenseKey, hardwareId)` (200) and serves `keys` as its public keys,
 * the way an impostor would. `requests` lists the paths asked for.
 */
export async function startFakeLicensingServer(options: {
  answer: (licenseKey: string, hardwareId: string) => Promise<unknown>;
  keys: LeaseSigningKeys;
}): Promise<{ baseUrl: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    requests.push(url.pathname);
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/v1/licensing/public-key') return reply(200, options.keys);
    if (url.pathname !== '/api/v1/licensing/status') return reply(404, { message: 'Not found' });
    options.answer(url.searchParams.get('license_key') ?? '', url.searchParams.get('hardware_id') ?? '').then(
      (body) => reply(200, body),
      (error: unknown) => reply(500, { message: String(error) }),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
