import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { WEB_API_KEY } from '../../support/test-server.js';

const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];
const LIMIT = 3;

async function startInstance(
  redisUrl: string,
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; cleanup: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-redis-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
    REDIS_URL: redisUrl,
    WEB_DIR: join(dataDir, 'no-web-build'),
    ...env,
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

suite(
  `Redis keys of two deployments on one Redis${TEST_REDIS_URL ? '' : ' [skipped: TEST_REDIS_URL is not set]'}`,
  () => {
    // Fresh prefixes per run, so keys left by an earlier run cannot be mistaken for this one's.
    const run = randomBytes(4).toString('hex');
    const [east, west] = [`test-${run}-east:`, `test-${run}-west:`];
    let first: Awaited<ReturnType<typeof startInstance>>;
    let second: Awaited<ReturnType<typeof startInstance>>;
    let redis: Redis;

    beforeAll(async () => {
      first = await startInstance(TEST_REDIS_URL ?? '', { REDIS_KEY_PREFIX: east });
      second = await startInstance(TEST_REDIS_URL ?? '', { REDIS_KEY_PREFIX: west });
      redis = new Redis(TEST_REDIS_URL ?? '');
    });
    afterAll(async () => {
      await first?.cleanup();
      await second?.cleanup();
      if (redis) {
        const left = [...(await redis.keys(`${east}*`)), ...(await redis.keys(`${west}*`))];
        if (left.length > 0) await redis.del(...left);
        redis.disconnect();
      }
    });

    it("keeps their counters apart: one deployment's attempts do not count against the other's", async () => {
      const address = freshAddress();
      const onFirst = [];
      for (let attempt = 0; attempt <= LIMIT; attempt++)
        onFirst.push((await attemptLogin(first.app, address)).statusCode);
      expect(onFirst).toEqual([401, 401, 401, 429]);
      // The same address on the other deployment starts from nothing.
      expect((await attemptLogin(second.app, address)).statusCode).toBe(401);
    });

    it("names every key with the deployment's prefix, the limit and the address", async () => {
      const address = freshAddress();
      await attemptLogin(first.app, address);
      expect(await redis.keys(`*${address}`)).toEqual([`${east}rate-limit:sign-in:${address}`]);
      expect(await redis.keys(`*undefined*`)).toEqual([]);
    });

    it("names a route's own limit by its method and path", async () => {
      const address = freshAddress();
      const response = await second.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        headers: { 'x-api-key': WEB_API_KEY },
        payload: { email: 'not an address', password: 'x' },
        remoteAddress: address,
      });
      expect(response.statusCode).toBe(400);
      expect(await redis.keys(`*${address}`)).toEqual([
        `${west}rate-limit:POST/api/v1/auth/register-${address}`,
      ]);
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
