import { randomBytes, randomUUID } from 'node:crypto';
import { base64url, decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { type TokenResponse, validateTokenResponseSchema } from '../../../src/shared/api/auth.js';
import { type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import { expectApiError, getMe } from '../helpers/auth-helpers.js';

type Claims = Record<string, unknown>;

/** The claims the server itself would put in a token of this session, at the server's time. */
function claimsFor(s: TestServer, session: TokenResponse, overrides: Claims = {}): Claims {
  const iat = Math.floor(s.clock.now().getTime() / 1000);
  return {
    sub: session.user.id,
    role: 'user',
    iss: s.config.jwt.issuer,
    aud: s.config.jwt.audience,
    iat,
    exp: iat + 600,
    jti: randomUUID(),
    // A new account's session version; any other value means a token from another session era.
    sv: 0,
    sid: decodeJwt(session.access_token)['sid'],
    ...overrides,
  };
}

const serverSecret = (s: TestServer) => new TextEncoder().encode(s.config.jwt.secret!);

function sign(claims: Claims, secret: Uint8Array, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(secret);
}

const encodePart = (value: unknown) => base64url.encode(JSON.stringify(value));

/** An unsigned token (`alg: none`), crafted by hand since jose refuses to make one. */
const unsignedToken = (claims: Claims) => `${encodePart({ alg: 'none', typ: 'JWT' })}.${encodePart(claims)}.`;

const validate = (
  s: TestServer,
  request: { body?: unknown; token?: string; headers?: Record<string, string> },
) => s.api({ method: 'POST', path: '/auth/validate-token', ...request });

describeIdentity('auth: access tokens, validate-token and the API key', (server) => {
  async function signedInUser() {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    return s.login(email, password);
  }

  describe('forged and broken bearer tokens', () => {
    /** Each forgery must be refused alike by a guarded route and by validate-token. */
    async function expectRefused(token: string) {
      const s = server();
      expectApiError(await getMe(s, token), 401, 'invalid_token');
      expectApiError(await validate(s, { body: { token } }), 401, 'invalid_token');
    }

    it('refuses an unsigned token (alg none), even with an empty or copied signature', async () => {
      const s = server();
      const session = await signedInUser();
      const claims = claimsFor(s, session);
      await expectRefused(unsignedToken(claims));
      const realSignature = session.access_token.split('.')[2]!;
      await expectRefused(`${unsignedToken(claims)}${realSignature}`);
      await expectRefused(unsignedToken({ ...decodeJwt(session.access_token), role: 'admin' }));
    });

    it('refuses a token signed with another secret', async () => {
      const s = server();
      const session = await signedInUser();
      await expectRefused(await sign(claimsFor(s, session), randomBytes(32)));
    });

    it('refuses a token signed with the right secret but another algorithm (the algorithm is pinned)', async () => {
      const s = server();
      const session = await signedInUser();
      await expectRefused(await sign(claimsFor(s, session), serverSecret(s), 'HS512'));
    });

    it('refuses a token for another audience or from another issuer, though signed with the right secret', async () => {
      const s = server();
      const session = await signedInUser();
      // Sanity check: the same recipe with the right claims is accepted.
      const genuine = await sign(claimsFor(s, session), serverSecret(s));
      expect((await getMe(s, genuine)).statusCode).toBe(200);

      await expectRefused(await sign(claimsFor(s, session, { aud: 'another-app' }), serverSecret(s)));
      await expectRefused(
        await sign(claimsFor(s, session, { iss: 'https://evil.example' }), serverSecret(s)),
      );
    });

    it('refuses tokens missing a required claim, of another session version, with an unknown role, or for an unknown user', async () => {
      const s = server();
      const session = await signedInUser();
      const secret = serverSecret(s);
      const withoutJti = claimsFor(s, session);
      delete withoutJti['jti'];
      await expectRefused(await sign(withoutJti, secret));
      const withoutExp = claimsFor(s, session);
      delete withoutExp['exp'];
      await expectRefused(await sign(withoutExp, secret));
      const withoutSessionVersion = claimsFor(s, session);
      delete withoutSessionVersion['sv'];
      await expectRefused(await sign(withoutSessionVersion, secret));
      await expectRefused(await sign(claimsFor(s, session, { sv: 1 }), secret));
      await expectRefused(await sign(claimsFor(s, session, { role: 'superuser' }), secret));
      await expectRefused(await sign(claimsFor(s, session, { sub: randomUUID() }), secret));
    });

    it("refuses a token without a session id, of an unknown session, or of another user's session", async () => {
      const s = server();
      const session = await signedInUser();
      const otherUsers = await signedInUser();
      const secret = serverSecret(s);
      const withoutSession = claimsFor(s, session);
      delete withoutSession['sid'];
      await expectRefused(await sign(withoutSession, secret));
      await expectRefused(await sign(claimsFor(s, session, { sid: randomUUID() }), secret));
      await expectRefused(await sign(claimsFor(s, session, { sid: 'not-a-session-id' }), secret));
      await expectRefused(
        await sign(claimsFor(s, session, { sid: decodeJwt(otherUsers.access_token)['sid'] }), secret),
      );
    });

    it('refuses a correctly signed token that lives longer than the configured lifetime', async () => {
      const s = server();
      const session = await signedInUser();
      const { iat } = claimsFor(s, session) as { iat: number };
      const ttl = s.config.jwt.accessTtlSeconds;
      // The longest the server itself issues is accepted; a second more, or a year, is not.
      expect(
        (await getMe(s, await sign(claimsFor(s, session, { exp: iat + ttl }), serverSecret(s)))).statusCode,
      ).toBe(200);
      await expectRefused(await sign(claimsFor(s, session, { exp: iat + ttl + 1 }), serverSecret(s)));
      await expectRefused(await sign(claimsFor(s, session, { exp: iat + 365 * 86_400 }), serverSecret(s)));
    });

    it('refuses a correctly signed token issued in the future beyond a minute of clock skew', async () => {
      const s = server();
      const session = await signedInUser();
      // Held still, so "61 seconds ahead" is 61 seconds ahead when the server checks it too.
      s.clock.freeze();
      const now = Math.floor(s.clock.now().getTime() / 1000);
      const issuedAt = (iat: number) => sign(claimsFor(s, session, { iat, exp: iat + 600 }), serverSecret(s));
      // Another instance's clock a minute ahead is tolerated; further ahead is a forged date.
      expect((await getMe(s, await issuedAt(now + 60))).statusCode).toBe(200);
      await expectRefused(await issuedAt(now + 61));
      await expectRefused(await issuedAt(now + 86_400));
    });

    it('refuses a token whose payload was altered after signing', async () => {
      const s = server();
      const session = await signedInUser();
      const [header, , signature] = session.access_token.split('.');
      const tampered = { ...decodeJwt(session.access_token), role: 'admin' };
      await expectRefused(`${header}.${encodePart(tampered)}.${signature}`);
      // The genuine token still works.
      expect((await getMe(s, session.access_token)).statusCode).toBe(200);
    });

    it('refuses an expired token (after 16 minutes)', async () => {
      const s = server();
      const session = await signedInUser();
      expect((await getMe(s, session.access_token)).statusCode).toBe(200);
      s.clock.advance(16 * 60 * 1000);
      await expectRefused(session.access_token);
    });

    it('refuses garbage and malformed Authorization headers with a JSON 401', async () => {
      const s = server();
      await expectRefused('garbage');
      await expectRefused('a.b.c');
      await expectRefused(`${'x'.repeat(20)}.${'y'.repeat(20)}`);

      for (const authorization of ['Bearer', 'Bearer ', 'Bearer a b', 'Basic dXNlcjpwYXNz', 'Token abc']) {
        const response = await s.api({ path: '/users/me', headers: { authorization } });
        expect(response.statusCode, authorization).toBe(401);
        expect(response.json(), authorization).toMatchObject({
          code: expect.stringMatching(/^(invalid_token|not_authenticated)$/),
          message: expect.any(String),
          detail: expect.any(String),
        });
      }
      expectApiError(await s.api({ path: '/users/me' }), 401, 'not_authenticated');
    });
  });

  describe('POST /auth/validate-token', () => {
    it('accepts a good token in the body or as the bearer token', async () => {
      const s = server();
      const session = await signedInUser();
      const expected = {
        valid: true,
        user_id: session.user.id,
        role: 'user',
        exp: decodeJwt(session.access_token).exp,
      };

      const byBody = await validate(s, { body: { token: session.access_token } });
      expect(byBody.statusCode).toBe(200);
      expect(validateTokenResponseSchema.parse(byBody.json())).toEqual(expected);

      const byBearer = await validate(s, { token: session.access_token });
      expect(byBearer.statusCode).toBe(200);
      expect(byBearer.json()).toEqual(expected);

      const byBearerEmptyBody = await validate(s, { token: session.access_token, body: {} });
      expect(byBearerEmptyBody.statusCode).toBe(200);
    });

    it('checks the body token first: a bad body token fails even with a good bearer token', async () => {
      const s = server();
      const session = await signedInUser();
      expectApiError(
        await validate(s, { token: session.access_token, body: { token: 'garbage' } }),
        401,
        'invalid_token',
      );
    });

    it('answers 401 not_authenticated when no token is given at all', async () => {
      const s = server();
      expectApiError(await validate(s, {}), 401, 'not_authenticated');
      expectApiError(await validate(s, { body: {} }), 401, 'not_authenticated');
    });

    it('reads the bearer header as guarded routes do: a malformed one is an invalid token', async () => {
      const s = server();
      const session = await signedInUser();
      for (const authorization of [
        'Bearer',
        `Bearer ${session.access_token} extra`,
        `Basic ${session.access_token}`,
      ]) {
        expectApiError(await validate(s, { headers: { authorization } }), 401, 'invalid_token');
        expectApiError(await s.api({ path: '/users/me', headers: { authorization } }), 401, 'invalid_token');
      }
    });

    it('reports the role of the account, not the role a token claims', async () => {
      const s = server();
      const session = await signedInUser();
      // Even a correctly signed token cannot make its holder an admin: the account decides.
      const claimsAdmin = await sign(claimsFor(s, session, { role: 'admin' }), serverSecret(s));
      const response = await validate(s, { body: { token: claimsAdmin } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ user_id: session.user.id, role: 'user' });
    });
  });

  describe('X-API-Key', () => {
    it('refuses calls without the header or with an unknown key, before anything else', async () => {
      const s = server();
      const body = { email: 'someone@example.com', password: 'whatever it is' };
      const withoutKey = await s.api({ method: 'POST', path: '/auth/login/json', body, withoutApiKey: true });
      expectApiError(withoutKey, 401, 'invalid_api_key');
      const wrongKey = await s.api({
        method: 'POST',
        path: '/auth/login/json',
        body,
        headers: { 'x-api-key': 'dap-web-publix' },
      });
      expectApiError(wrongKey, 401, 'invalid_api_key');
      const emptyKey = await s.api({
        method: 'POST',
        path: '/auth/register',
        body,
        headers: { 'x-api-key': '' },
      });
      expectApiError(emptyKey, 401, 'invalid_api_key');
    });

    it('refuses a valid bearer token that comes without the API key', async () => {
      const s = server();
      const session = await signedInUser();
      expectApiError(
        await s.api({ path: '/users/me', token: session.access_token, withoutApiKey: true }),
        401,
        'invalid_api_key',
      );
      expect((await getMe(s, session.access_token)).statusCode).toBe(200);
    });

    it('accepts the web and the desktop client keys', async () => {
      const s = server();
      const body = { email: 'nobody-api-key@example.com' };
      for (const key of [WEB_API_KEY, 'dap-desktop-public']) {
        const response = await s.api({
          method: 'POST',
          path: '/auth/forgot-password',
          body,
          withoutApiKey: true,
          headers: { 'x-api-key': key },
        });
        expect(response.statusCode, key).toBe(202);
      }
    });
  });
});
