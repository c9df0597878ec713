import { expect, it } from 'vitest';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';

// The client address the server settles on (request.ip) keys the sign-in rate limit and the
// lockout and is stored with security events; these suites read it back from a login_failed event.

interface From {
  /** The TCP peer (inject's default is 127.0.0.1). */
  remoteAddress?: string;
  forwardedFor?: string;
}

const signIn = (s: TestServer, email: string, password: string, from: From) =>
  s.api({
    method: 'POST',
    path: '/auth/login/json',
    body: { email, password },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
    ...(from.forwardedFor ? { headers: { 'x-forwarded-for': from.forwardedFor } } : {}),
  });

/** Fails one sign-in of a new account from `from` and returns the address its security event names. */
async function addressSeen(s: TestServer, from: From): Promise<string | null> {
  const email = uniqueEmail('proxy');
  const user = await s.app.authService.createAccount({
    email,
    password: STRONG_PASSWORD,
    role: 'user',
    verified: true,
  });
  const response = await signIn(s, email, 'not the password at all', from);
  expect(response.statusCode, response.body).toBe(401);
  const events = await s.app.db
    .selectFrom('security_events')
    .select('ip')
    .where('type', '=', 'login_failed')
    .where('user_id', '=', user.id)
    .execute();
  expect(events).toHaveLength(1);
  return events[0]?.ip ?? null;
}

/** Statuses of sign-ins from one peer, each with a different forged first X-Forwarded-For entry. */
async function rotatingForgeries(
  s: TestServer,
  count: number,
  from: { remoteAddress: string; via?: string },
) {
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= count; attempt += 1) {
    const forged = `198.51.100.${attempt}`;
    const response = await signIn(s, 'nobody@example.com', 'whatever it is', {
      remoteAddress: from.remoteAddress,
      forwardedFor: from.via ? `${forged}, ${from.via}` : forged,
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

const LIMITED = [401, 401, 401, 429, 429, 429, 429, 429, 429, 429];

describeOnEveryDatabase(
  'TRUST_PROXY unset: X-Forwarded-For is ignored',
  (server) => {
    it('records the TCP peer, whatever X-Forwarded-For claims', async () => {
      const s = server();
      expect(await addressSeen(s, { forwardedFor: '203.0.113.9' })).toBe('127.0.0.1');
      expect(
        await addressSeen(s, { remoteAddress: '192.0.2.20', forwardedFor: '10.0.0.1, 203.0.113.9' }),
      ).toBe('192.0.2.20');
    });

    it('rate-limits a client that forges a new X-Forwarded-For on every request', async () => {
      expect(await rotatingForgeries(server(), 10, { remoteAddress: '192.0.2.30' })).toEqual(LIMITED);
    });
  },
  { env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } },
);

describeOnEveryDatabase(
  'TRUST_PROXY=1: the address the one proxy saw',
  (server) => {
    it('takes the last X-Forwarded-For entry, not what the client put before it', async () => {
      const s = server();
      expect(await addressSeen(s, { remoteAddress: '10.0.0.2', forwardedFor: '203.0.113.9' })).toBe(
        '203.0.113.9',
      );
      expect(
        await addressSeen(s, { remoteAddress: '10.0.0.2', forwardedFor: '198.51.100.1, 203.0.113.10' }),
      ).toBe('203.0.113.10');
      // Without the header the peer itself is the client.
      expect(await addressSeen(s, { remoteAddress: '10.0.0.2' })).toBe('10.0.0.2');
    });

    it('rate-limits the client behind the proxy however it forges the earlier entries', async () => {
      const statuses = await rotatingForgeries(server(), 10, {
        remoteAddress: '10.0.0.2',
        via: '203.0.113.40',
      });
      expect(statuses).toEqual(LIMITED);
    });
  },
  { env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_MINUTE: '3' } },
);

describeOnEveryDatabase(
  'TRUST_PROXY=10.0.0.0/8,127.0.0.1: forwards only from those proxies',
  (server) => {
    it('believes X-Forwarded-For from a listed proxy', async () => {
      const s = server();
      expect(await addressSeen(s, { remoteAddress: '10.1.2.3', forwardedFor: '203.0.113.9' })).toBe(
        '203.0.113.9',
      );
      expect(await addressSeen(s, { forwardedFor: '203.0.113.11' })).toBe('203.0.113.11');
    });

    it('ignores X-Forwarded-For from any other peer', async () => {
      expect(await addressSeen(server(), { remoteAddress: '192.0.2.50', forwardedFor: '203.0.113.9' })).toBe(
        '192.0.2.50',
      );
    });

    it('walks back through listed proxies only, so an entry forged before them is ignored', async () => {
      const s = server();
      // 127.0.0.1 → 10.2.3.4 (listed) → 203.0.113.12 (not listed: the client).
      expect(await addressSeen(s, { forwardedFor: '6.6.6.6, 203.0.113.12, 10.2.3.4' })).toBe('203.0.113.12');
    });

    it('rate-limits a client that forges entries before the listed proxy', async () => {
      const statuses = await rotatingForgeries(server(), 10, {
        remoteAddress: '10.0.0.7',
        via: '203.0.113.60',
      });
      expect(statuses).toEqual(LIMITED);
    });
  },
  { env: { TRUST_PROXY: '10.0.0.0/8,127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '3' } },
);
