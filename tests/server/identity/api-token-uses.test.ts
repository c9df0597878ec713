import { expect, it, onTestFinished, vi } from 'vitest';
import type { CreatedApiToken } from '../../../src/shared/api/api-tokens.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import { buildApp } from '../../../src/server/app.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { signIn } from '../helpers/admin-helpers.js';
import { securityEvents } from '../helpers/auth-helpers.js';

/** A customer's token that may read the account but nothing else. */
async function readToken(s: TestServer, label: string): Promise<CreatedApiToken & { userId: string }> {
  const user = await signIn(s, 'user', label);
  const response = await s.api({
    method: 'POST',
    path: '/users/me/api-tokens',
    token: user.token,
    body: { name: 'Reporter', scopes: ['users:read'], expires_in_days: 30 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { ...response.json<CreatedApiToken>(), userId: user.id };
}

/** `count` calls of `path` with the token over a real socket, five at a time; answers their statuses. */
async function call(baseUrl: string, token: string, path: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  let started = 0;
  const next = async (): Promise<void> => {
    if (started++ >= count) return;
    const response = await fetch(`${baseUrl}${API_BASE_PATH}${path}`, {
      headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    statuses.push(response.status);
    await next();
  };
  await Promise.all(Array.from({ length: 5 }, next));
  return statuses;
}

/** The suite's server over a socket: listening from the first test that asks on. */
async function socketOf(s: TestServer): Promise<string> {
  const address = s.app.server.address();
  return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : s.listen();
}

async function usesOf(s: TestServer, tokenId: string) {
  const rows = await securityEvents(s, { type: 'api_token_used' });
  return rows
    .map((row) => ({ ...row, details: JSON.parse(row.details ?? '{}') as Record<string, unknown> }))
    .filter((row) => row.details.token_id === tokenId);
}

const countOf = (rows: { details: Record<string, unknown> }[]) =>
  rows.reduce((sum, row) => sum + Number(row.details.count), 0);

describeOnEveryDatabase(
  'API token uses in the security log',
  (server) => {
    it('counts N successful calls of one minute into one row, written by the flush with the last use', async () => {
      const s = server();
      const { token, api_token } = await readToken(s, 'uses-count');
      const baseUrl = await socketOf(s);
      s.clock.freeze();
      const statuses = await call(baseUrl, token, '/users/me', 25);
      expect(statuses).toEqual(Array.from({ length: 25 }, () => 200));
      expect(await usesOf(s, api_token.id), 'nothing written on the request path').toEqual([]);

      await s.app.apiTokenUses.flush();
      const rows = await usesOf(s, api_token.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.details).toMatchObject({
        name: 'Reporter',
        method: 'GET',
        route: `${API_BASE_PATH}/users/me`,
        status_code: 200,
        count: 25,
        first_at: s.clock.now().toISOString(),
        last_at: s.clock.now().toISOString(),
      });
      expect(rows[0]?.ip).toBe('127.0.0.1');
      expect(rows[0]?.created_at).toBe(s.clock.now().toISOString());
      const stored = await s.app.db
        .selectFrom('api_tokens')
        .select(['last_used_at', 'last_used_ip'])
        .where('id', '=', api_token.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ last_used_at: s.clock.now().toISOString(), last_used_ip: '127.0.0.1' });

      // The next minute is a row of its own; a flush with nothing pending writes nothing.
      s.clock.advance(60_000);
      await call(baseUrl, token, '/users/me', 3);
      await s.app.apiTokenUses.flush();
      await s.app.apiTokenUses.flush();
      expect((await usesOf(s, api_token.id)).map((row) => row.details.count)).toEqual([25, 3]);
    });

    it('writes a refusal at once, one row per call, while successes wait', async () => {
      const s = server();
      const { token, api_token } = await readToken(s, 'uses-refusal');
      const baseUrl = await socketOf(s);
      s.clock.freeze();
      // users:read reaches no licence: each call is refused with 403 insufficient_scope.
      expect(await call(baseUrl, token, '/licenses', 3)).toEqual([403, 403, 403]);
      await call(baseUrl, token, '/users/me', 2);
      // The refusal's row is written in the answer's onResponse hook, just after the client has it.
      await vi.waitFor(async () => expect(await usesOf(s, api_token.id)).toHaveLength(3));
      const refusals = await usesOf(s, api_token.id);
      expect(refusals.map((row) => [row.details.status_code, row.details.count])).toEqual([
        [403, 1],
        [403, 1],
        [403, 1],
      ]);
      await s.app.apiTokenUses.flush();
      const rows = await usesOf(s, api_token.id);
      expect(rows.filter((row) => row.details.status_code === 200).map((row) => row.details.count)).toEqual([
        2,
      ]);
    });

    it('writes what is pending when the server closes, and two instances lose no count', async () => {
      const s = server();
      const { token, api_token } = await readToken(s, 'uses-instances');
      s.clock.freeze();
      // A second instance: its own app and connection pool on the same database and clock.
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      let secondOpen = true;
      onTestFinished(async () => {
        if (secondOpen) await second.close();
      });
      const firstUrl = await socketOf(s);
      const secondUrl = await second.listen({ port: 0, host: '127.0.0.1' });
      await Promise.all([
        call(firstUrl, token, '/users/me', 30),
        call(secondUrl, token, '/users/me', 20),
        call(secondUrl, token, '/licenses', 2),
      ]);
      await second.close();
      secondOpen = false;
      // Closing wrote the second instance's 20 (and its refusals were written at once).
      const afterClose = await usesOf(s, api_token.id);
      expect(
        afterClose.filter((row) => row.details.status_code === 200).map((row) => row.details.count),
      ).toEqual([20]);
      expect(afterClose.filter((row) => row.details.status_code === 403)).toHaveLength(2);

      await s.app.apiTokenUses.flush();
      const successes = (await usesOf(s, api_token.id)).filter((row) => row.details.status_code === 200);
      // One row per instance for the minute; together every call.
      expect(successes.map((row) => row.details.count).sort()).toEqual([20, 30]);
      expect(countOf(successes)).toBe(50);
    });
  },
  // The timer never fires during a test: only the flushes the tests ask for write.
  { env: { API_TOKEN_USE_FLUSH_SECONDS: '300' } },
);
