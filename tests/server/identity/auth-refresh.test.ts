import { createHash } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import { type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import {
  expectApiError,
  expectTokens,
  familiesOf,
  getMe,
  refresh,
  securityEvents,
} from '../helpers/auth-helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const validateToken = (s: TestServer, token: string) =>
  s.api({ method: 'POST', path: '/auth/validate-token', body: { token } });

describeIdentity('auth: refresh tokens and logout', (server) => {
  describe('POST /auth/refresh', () => {
    it('rotates: answers new tokens for the same user, and the new refresh token works in turn', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);

      const first = expectTokens(await refresh(s, session.refresh_token));
      expect(first.user.id).toBe(session.user.id);
      expect(first.refresh_token).not.toBe(session.refresh_token);
      expect(first.access_token).not.toBe(session.access_token);
      expect(first.token_type).toBe('bearer');
      expect((await getMe(s, first.access_token)).statusCode).toBe(200);

      const second = expectTokens(await refresh(s, first.refresh_token));
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.user.id).toBe(session.user.id);

      // All three tokens belong to one family; only hashes are stored; two are spent.
      const [family] = await familiesOf(s, session.user.id);
      const tokens = await s.app.db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('family_id', '=', family!.id)
        .orderBy('created_at')
        .execute();
      expect(tokens.map((row) => row.token_hash).sort()).toEqual(
        [session.refresh_token, first.refresh_token, second.refresh_token].map(sha256).sort(),
      );
      for (const row of tokens) {
        expect([session.refresh_token, first.refresh_token, second.refresh_token]).not.toContain(
          row.token_hash,
        );
      }
      expect(tokens.filter((row) => row.used_at === null)).toHaveLength(1);
      expect(family?.revoked_at).toBeNull();
    });

    it('answers on /auth/refresh-token as well, rotating the same family', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      const viaAlias = expectTokens(
        await s.api({
          method: 'POST',
          path: '/auth/refresh-token',
          body: { refresh_token: session.refresh_token },
        }),
      );
      expectTokens(await refresh(s, viaAlias.refresh_token));
      // The token spent on the alias is spent for both names.
      expectApiError(await refresh(s, session.refresh_token), 401, 'refresh_token_reused');
    });

    it('treats a second use of a refresh token as theft: 401, the whole family revoked, a security event', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      const rotated = expectTokens(await refresh(s, session.refresh_token));

      expectApiError(await refresh(s, session.refresh_token, '203.0.113.9'), 401, 'refresh_token_reused');
      // The newer token of the family, never used, is dead too.
      expectApiError(await refresh(s, rotated.refresh_token), 401, 'invalid_refresh_token');

      const [family] = await familiesOf(s, session.user.id);
      expect(family?.revoked_at).not.toBeNull();
      expect(family?.revoked_reason).toBe('reuse');

      const events = await securityEvents(s, { type: 'refresh_token_reuse', userId: session.user.id });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ severity: 'critical', ip: '203.0.113.9' });
      expect(JSON.parse(events[0]!.details ?? '{}')).toMatchObject({ family_id: family!.id });
    });

    it('revokes only the family of the reused token, not the other sessions of the user', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const stolen = await s.login(email, password);
      const otherDevice = await s.login(email, password);

      expectTokens(await refresh(s, stolen.refresh_token));
      expectApiError(await refresh(s, stolen.refresh_token), 401, 'refresh_token_reused');

      expectTokens(await refresh(s, otherDevice.refresh_token));
    });

    it('lets exactly one of 20 concurrent refreshes with one token win, over real HTTP', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      const base = await s.listen();

      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${base}/api/v1/auth/refresh`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-api-key': WEB_API_KEY,
              cookie: s.bindingCookieOf(session.refresh_token) ?? '',
            },
            body: JSON.stringify({ refresh_token: session.refresh_token }),
          }),
        ),
      );
      const bodies = await Promise.all(
        responses.map(async (response) => ({
          status: response.status,
          body: (await response.json()) as { code?: string; refresh_token?: string },
        })),
      );
      const statuses = bodies.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 401)).toHaveLength(19);
      for (const answer of bodies.filter((each) => each.status === 401)) {
        expect(['refresh_token_reused', 'invalid_refresh_token']).toContain(answer.body.code);
      }

      // The race counts as reuse: the family is revoked, so even the winner's new token is dead.
      const winner = bodies.find((answer) => answer.status === 200)!.body;
      expect(winner.refresh_token).toEqual(expect.any(String));
      expectApiError(await refresh(s, winner.refresh_token!), 401, 'invalid_refresh_token');
      const [family] = await familiesOf(s, session.user.id);
      expect(family?.revoked_reason).toBe('reuse');
      // Exactly one successor token was ever issued.
      const issued = await s.app.db
        .selectFrom('refresh_tokens')
        .select('id')
        .where('family_id', '=', family!.id)
        .execute();
      expect(issued).toHaveLength(2);
      expect(
        (await securityEvents(s, { type: 'refresh_token_reuse', userId: session.user.id })).length,
      ).toBeGreaterThanOrEqual(1);
    });

    it('refuses unknown and malformed refresh tokens', async () => {
      const s = server();
      expectApiError(await refresh(s, 'A'.repeat(43)), 401, 'invalid_refresh_token');
      expectApiError(await refresh(s, 'short'), 400, 'validation_error');
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/refresh', body: { refreshToken: 'A'.repeat(43) } }),
        400,
        'validation_error',
      );
    });

    it('does not accept an access token as a refresh token', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      const response = await s.api({
        method: 'POST',
        path: '/auth/refresh',
        body: { refresh_token: session.access_token },
      });
      // An access token is longer than any refresh token may be, or else simply unknown.
      expect([400, 401]).toContain(response.statusCode);
      expect(response.json()).toHaveProperty('code');
      expectTokens(await refresh(s, session.refresh_token));
    });

    it('ends a session 30 days after sign-in however often it was refreshed', async () => {
      const s = server();
      // Only the steps below move the clock, so the lifetimes left are exact.
      s.clock.freeze();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      expect(session.refresh_expires_in).toBe(30 * 86_400);

      s.clock.advance(29 * DAY_MS);
      const late = expectTokens(await refresh(s, session.refresh_token));
      // Rotation does not extend the family's absolute life.
      expect(late.refresh_expires_in).toBe(86_400);

      s.clock.advance(DAY_MS + 1000);
      expectApiError(await refresh(s, late.refresh_token), 401, 'invalid_refresh_token');
      // A fresh sign-in starts a new 30-day family.
      const again = await s.login(email, password);
      expectTokens(await refresh(s, again.refresh_token));
    });
  });

  describe('access tokens end with their session', () => {
    it('after a refresh token is reused, every access token of that session is refused at once', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const stolen = await s.login(email, password);
      const otherDevice = await s.login(email, password);
      const rotated = expectTokens(await refresh(s, stolen.refresh_token));
      expect((await getMe(s, rotated.access_token)).statusCode).toBe(200);

      expectApiError(await refresh(s, stolen.refresh_token), 401, 'refresh_token_reused');
      // Well within their 15 minutes, without moving the clock.
      expectApiError(await getMe(s, stolen.access_token), 401, 'invalid_token');
      expectApiError(await getMe(s, rotated.access_token), 401, 'invalid_token');
      expectApiError(await validateToken(s, rotated.access_token), 401, 'invalid_token');
      expect((await getMe(s, otherDevice.access_token)).statusCode).toBe(200);
    });

    it('after logout, the access token of that session is refused at once', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const leaving = await s.login(email, password);
      const staying = await s.login(email, password);

      const out = await s.api({
        method: 'POST',
        path: '/auth/logout',
        token: leaving.access_token,
        body: { refreshToken: leaving.refresh_token },
      });
      expect(out.statusCode).toBe(200);
      expectApiError(await getMe(s, leaving.access_token), 401, 'invalid_token');
      expectApiError(await validateToken(s, leaving.access_token), 401, 'invalid_token');
      expect((await getMe(s, staying.access_token)).statusCode).toBe(200);
    });

    it('an access token stops with its session at the end of the 30 days, though younger than 15 minutes', async () => {
      const s = server();
      s.clock.freeze();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      s.clock.advance(30 * DAY_MS - 5 * 60 * 1000);
      const late = expectTokens(await refresh(s, session.refresh_token));
      expect((await getMe(s, late.access_token)).statusCode).toBe(200);

      s.clock.advance(5 * 60 * 1000 + 1000);
      expectApiError(await getMe(s, late.access_token), 401, 'invalid_token');
    });

    it('a logout through one server instance ends the access token on another at once', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      // A second instance on the same database, as behind a load balancer. Started after the
      // sign-up: its mail worker would otherwise race this one's for the confirmation mail.
      const other = await buildApp(s.config, { clock: s.clock, logger: false });
      onTestFinished(() => other.close());
      const meOn = (app: typeof other, token: string) =>
        app.inject({
          url: `${API_BASE_PATH}/users/me`,
          headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${token}` },
        });
      expect((await meOn(other, session.access_token)).statusCode).toBe(200);

      const out = await s.api({
        method: 'POST',
        path: '/auth/logout',
        body: { refreshToken: session.refresh_token },
      });
      expect(out.statusCode).toBe(200);
      expectApiError(await meOn(other, session.access_token), 401, 'invalid_token');
    });
  });

  describe('POST /auth/logout', () => {
    it('revokes the family of the refresh token: refreshing afterwards is refused', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const session = await s.login(email, password);
      const rotated = expectTokens(await refresh(s, session.refresh_token));

      const out = await s.api({
        method: 'POST',
        path: '/auth/logout',
        token: rotated.access_token,
        body: { refreshToken: rotated.refresh_token },
      });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ message: expect.any(String) });

      expectApiError(await refresh(s, rotated.refresh_token), 401, 'invalid_refresh_token');
      const [family] = await familiesOf(s, session.user.id);
      expect(family?.revoked_reason).toBe('logout');
      expect(family?.revoked_at).not.toBeNull();
    });

    it('works without a bearer token and leaves the other sessions of the user alone', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const leaving = await s.login(email, password);
      const staying = await s.login(email, password);

      const out = await s.api({
        method: 'POST',
        path: '/auth/logout',
        body: { refreshToken: leaving.refresh_token },
      });
      expect(out.statusCode).toBe(200);
      expectApiError(await refresh(s, leaving.refresh_token), 401, 'invalid_refresh_token');
      expectTokens(await refresh(s, staying.refresh_token));
    });

    it('works when the access token sent along has expired or is broken', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const expiredSession = await s.login(email, password);
      const brokenSession = await s.login(email, password);
      // Past the 15-minute access-token life, within the refresh token's.
      s.clock.advance(16 * 60 * 1000);
      expectApiError(await getMe(s, expiredSession.access_token), 401, 'invalid_token');

      for (const [session, bearer] of [
        [expiredSession, expiredSession.access_token],
        [brokenSession, 'not.a.token'],
      ] as const) {
        const out = await s.api({
          method: 'POST',
          path: '/auth/logout',
          token: bearer,
          body: { refreshToken: session.refresh_token },
        });
        expect(out.statusCode, out.body).toBe(200);
        expectApiError(await refresh(s, session.refresh_token), 401, 'invalid_refresh_token');
      }
    });

    it('answers an unknown token like a known one, and ignores a token of another signed-in user', async () => {
      const s = server();
      const alice = await s.createVerifiedUser();
      const bob = await s.createVerifiedUser();
      const aliceSession = await s.login(alice.email, alice.password);
      const bobSession = await s.login(bob.email, bob.password);

      const known = await s.api({
        method: 'POST',
        path: '/auth/logout',
        token: bobSession.access_token,
        body: { refreshToken: aliceSession.refresh_token },
      });
      const unknown = await s.api({
        method: 'POST',
        path: '/auth/logout',
        body: { refreshToken: 'B'.repeat(43) },
      });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      // Bob cannot end Alice's session.
      expectTokens(await refresh(s, aliceSession.refresh_token));
    });
  });
});
