import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { WEB_API_KEY } from '../support/test-server.js';

const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];
const LIMIT = 3;

async function startInstance(
  redisUrl: string,
): Promise<{ app: FastifyInstance; cleanup: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-redis-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
    REDIS_URL: redisUrl,
    WEB_DIR: join(dataDir, 'no-web-build'),
  });
  const app = await buildApp(config, { logger: false });
  return {
    app,
    cleanup: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const attemptLogin = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/json',
    headers: { 'x-api-key': WEB_API_KEY },
    payload: { email: 'nobody@example.com', password: 'wrong password' },
    remoteAddress,
  });

// A fresh client address per run, so counters left in Redis by an earlier run cannot interfere.
const freshAddress = () => `10.${[...randomBytes(3)].join('.')}`;

const suite = TEST_REDIS_URL ? describe : describe.skip;
suite(
  `rate limits shared through Redis${TEST_REDIS_URL ? '' : ' [skipped: TEST_REDIS_URL is not set]'}`,
  () => {
    let first: Awaited<ReturnType<typeof startInstance>>;
    let second: Awaited<ReturnType<typeof startInstance>>;

    beforeAll(async () => {
      first = await startInstance(TEST_REDIS_URL ?? '');
      second = await startInstance(TEST_REDIS_URL ?? '');
    });
    afterAll(async () => {
      await first?.cleanup();
      await second?.cleanup();
    });

    it('counts one address across every instance behind the load balancer', async () => {
      const address = freshAddress();
      const statuses = [
        (await attemptLogin(first.app, address)).statusCode,
        (await attemptLogin(second.app, address)).statusCode,
        (await attemptLogin(first.app, address)).statusCode,
        (await attemptLogin(second.app, address)).statusCode,
      ];
      // Three attempts are allowed in all, not three per instance.
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await attemptLogin(first.app, address);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'rate_limited' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('keeps other addresses unaffected', async () => {
      expect((await attemptLogin(second.app, freshAddress())).statusCode).toBe(401);
    });
  },
);

describe('rate limits when Redis is unreachable', () => {
  let instance: Awaited<ReturnType<typeof startInstance>>;
  beforeAll(async () => {
    // Port 1 on loopback refuses connections at once.
    instance = await startInstance('redis://127.0.0.1:1');
  });
  afterAll(async () => instance?.cleanup());

  it('still answers sign-in attempts instead of failing every one', async () => {
    const response = await attemptLogin(instance.app, freshAddress());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'invalid_credentials' });
  });
});
