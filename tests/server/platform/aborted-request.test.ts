import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  uniqueEmail,
  WEB_API_KEY,
} from '../../support/test-server.js';

const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];
const PINO_ERROR = 50;
// Counters of this file only, so keys left in Redis by other suites or runs cannot answer for it.
const KEY_PREFIX = `aborted-${randomBytes(4).toString('hex')}:`;

/** Every line the server logs, parsed, so the test can look for errors. */
const logLines: { level: number; msg?: string; err?: { message?: string } }[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

/**
 * Sends a whole signed-in DELETE and resets the connection at once: the server starts the request,
 * its sign-in check awaits, and by the time the route's rate limit runs the socket (and with it the
 * client address, `request.ip`) is gone.
 */
function deleteThenReset(baseUrl: string, path: string, accessToken: string): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  const body = '{"code":"123456"}';
  return new Promise((done) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `DELETE /api/v1${path} HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${WEB_API_KEY}\r\n` +
          `Authorization: Bearer ${accessToken}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
        () => socket.resetAndDestroy(),
      );
    });
    socket.on('error', () => undefined);
    socket.on('close', () => done());
  });
}

if (TEST_REDIS_URL) {
  const redis = new Redis(TEST_REDIS_URL);
  // The SQLite and PostgreSQL runs share the prefix: each starts without the other's counters.
  const forgetCounters = async () => {
    const keys = await redis.keys(`${KEY_PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
  };
  afterAll(async () => {
    await forgetCounters();
    redis.disconnect();
  });

  describeOnEveryDatabase(
    'a request whose connection is reset before its rate limit',
    (server) => {
      it('is counted under an unknown address and logs no error', async () => {
        const s = server();
        const baseUrl = await s.listen();
        const { email } = await s.createVerifiedUser({
          email: uniqueEmail('reset'),
          password: STRONG_PASSWORD,
        });
        const { access_token: accessToken } = await s.login(email, STRONG_PASSWORD);
        await forgetCounters();
        const before = logLines.length;
        const errorsSince = () => logLines.slice(before).filter((line) => line.level >= PINO_ERROR);
        const unknownAddressKeys = () => redis.keys(`${KEY_PREFIX}*unknown-address*`);

        await deleteThenReset(baseUrl, '/users/me/two-factor/totp', accessToken);
        // The rate limit has run once it counted the request, or once it failed with an error.
        await expect
          .poll(async () => (await unknownAddressKeys()).length > 0 || errorsSince().length > 0)
          .toBe(true);

        expect(errorsSince().map((line) => line.err?.message ?? line.msg)).toEqual([]);
        expect(await unknownAddressKeys()).toHaveLength(1);
      });
    },
    {
      env: { LOG_LEVEL: 'info', REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: KEY_PREFIX },
      appOverrides: () => ({ logger: true, logStream }),
    },
  );
} else {
  describe.skip('a request whose connection is reset before its rate limit [skipped: TEST_REDIS_URL is not set]', () => {
    it('is counted under an unknown address and logs no error', () => undefined);
  });
}
