import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../../src/shared/constants.js';
import { STRONG_PASSWORD, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import { signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, expectTokens, familiesOf, refresh } from '../helpers/auth-helpers.js';
import { enrolTotp, passwordStep, secondStep, toNextStep, totpCode } from '../helpers/two-factor-helpers.js';

const DESKTOP_API_KEY = 'dap-desktop-public';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** The binding cookie a response sets, by its Set-Cookie header as a browser reads it. */
function bindingSetCookie(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie'];
  const all = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return all.find((cookie) => /^(__Host-)?dap_session_binding=/.test(cookie));
}

const loginWith = (s: TestServer, email: string, apiKey: string) =>
  s.api({
    method: 'POST',
    path: '/auth/login/json',
    body: { email, password: STRONG_PASSWORD },
    headers: { 'x-api-key': apiKey },
  });

const refreshWith = (s: TestServer, token: string, headers: Record<string, string>) =>
  s.api({
    method: 'POST',
    path: '/auth/refresh',
    body: { refresh_token: token },
    headers,
    withoutBindingCookie: true,
  });

describeIdentity('auth: a web session is bound to its browser by an HttpOnly cookie', (server) => {
  it('a web sign-in sets HttpOnly SameSite=Strict cookie for the auth routes; the session keeps only its hash', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const response = await loginWith(s, user.email, WEB_API_KEY);
    const tokens = expectTokens(response);
    const setCookie = bindingSetCookie(response);
    expect(setCookie).toMatch(/; HttpOnly(;|$)/);
    expect(setCookie).toMatch(/; SameSite=Strict(;|$)/);
    expect(setCookie).toMatch(/; Path=\/api\/v1\/auth(;|$)/);
    // The cookie lives as long as the session may (30 days), give or take the second of the answer.
    const maxAge = Number(/; Max-Age=(\d+)/.exec(setCookie ?? '')?.[1]);
    expect(maxAge).toBeLessThanOrEqual(REFRESH_TOKEN_TTL_SECONDS);
    expect(maxAge).toBeGreaterThan(REFRESH_TOKEN_TTL_SECONDS - 60);
    // Over http (this server's PUBLIC_URL) neither Secure nor the __Host- prefix could work.
    expect(setCookie).not.toMatch(/Secure|__Host-/);
    const secret = /^dap_session_binding=([^;]+)/.exec(setCookie ?? '')?.[1] ?? '';
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(secret).not.toBe(tokens.refresh_token);
    expect(response.body).not.toContain(secret);

    const families = await familiesOf(s, user.id);
    expect(families.at(-1)?.binding_hash).toBe(sha256(secret));
  });

  it('a refresh token without its cookie, or with another session’s, is refused (401) and not spent', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const session = await s.login(user.email, STRONG_PASSWORD);
    const other = await s.login(user.email, STRONG_PASSWORD);
    expect(s.bindingCookieOf(session.refresh_token)).not.toBe(s.bindingCookieOf(other.refresh_token));

    expectApiError(await refreshWith(s, session.refresh_token, {}), 401, 'invalid_refresh_token');
    expectApiError(
      await refreshWith(s, session.refresh_token, { cookie: s.bindingCookieOf(other.refresh_token)! }),
      401,
      'invalid_refresh_token',
    );
    // Client keys are public: naming the desktop's does not get past the binding either.
    expectApiError(
      await refreshWith(s, session.refresh_token, { 'x-api-key': DESKTOP_API_KEY }),
      401,
      'invalid_refresh_token',
    );

    // The browser that holds the cookie is unaffected: the token is unspent, the session live.
    const rotated = expectTokens(await refresh(s, session.refresh_token));
    expect((await familiesOf(s, user.id)).every((family) => family.revoked_at === null)).toBe(true);
    expectTokens(await refresh(s, rotated.refresh_token));
  });

  it('rotation keeps the binding: the next token needs the same cookie, which is not set again', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const session = await s.login(user.email, STRONG_PASSWORD);
    const cookie = s.bindingCookieOf(session.refresh_token)!;
    const rotatedResponse = await refreshWith(s, session.refresh_token, { cookie });
    const rotated = expectTokens(rotatedResponse);
    expect(bindingSetCookie(rotatedResponse)).toBeUndefined();
    expectApiError(await refreshWith(s, rotated.refresh_token, {}), 401, 'invalid_refresh_token');
    expectTokens(await refreshWith(s, rotated.refresh_token, { cookie }));
  });

  it('the desktop (its own key, token kept in main) gets no cookie and refreshes without one', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const response = await loginWith(s, user.email, DESKTOP_API_KEY);
    const tokens = expectTokens(response);
    expect(bindingSetCookie(response)).toBeUndefined();
    expect((await familiesOf(s, user.id)).at(-1)?.binding_hash).toBeNull();
    const rotated = expectTokens(
      await refreshWith(s, tokens.refresh_token, { 'x-api-key': DESKTOP_API_KEY }),
    );
    // Every web session is bound, so an unbound token presented with the web key was copied.
    expectApiError(await refreshWith(s, rotated.refresh_token, {}), 401, 'invalid_refresh_token');
  });

  it('a sign-in finished with a second factor binds its session too', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const { secret } = await enrolTotp(s, user.token);
    toNextStep(s);
    const { challenge } = await passwordStep(s, user.email, STRONG_PASSWORD);
    const response = await secondStep(s, { challenge, code: totpCode(secret, s.clock.now()) });
    const tokens = expectTokens(response);
    expect(bindingSetCookie(response)).toMatch(/HttpOnly/);
    expectApiError(await refreshWith(s, tokens.refresh_token, {}), 401, 'invalid_refresh_token');
    expectTokens(await refresh(s, tokens.refresh_token));
  });

  it('signing out tells the browser to drop the cookie', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const session = await s.login(user.email, STRONG_PASSWORD);
    const out = await s.api({
      method: 'POST',
      path: '/auth/logout',
      body: { refreshToken: session.refresh_token },
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(bindingSetCookie(out)).toMatch(/^dap_session_binding=; Max-Age=0; Path=\/api\/v1\/auth; HttpOnly/);
  });

  it('over a real socket: the cookie set at sign-in refreshes, the token alone does not', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const base = await s.listen();
    const post = (path: string, body: object, cookie?: string) =>
      fetch(`${base}/api/v1${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': WEB_API_KEY,
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify(body),
      });
    const login = await post('/auth/login/json', { email: user.email, password: STRONG_PASSWORD });
    expect(login.status).toBe(200);
    const { refresh_token } = (await login.json()) as { refresh_token: string };
    const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
    expect(cookie).toMatch(/^dap_session_binding=/);

    const bare = await post('/auth/refresh', { refresh_token });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ code: 'invalid_refresh_token' });
    expect((await post('/auth/refresh', { refresh_token }, cookie)).status).toBe(200);
  });
});

describeIdentity(
  'auth: over https the binding cookie is __Host- and Secure',
  (server) => {
    describe('PUBLIC_URL=https://…', () => {
      it('sets __Host-dap_session_binding with Secure and Path=/, and reads it back', async () => {
        const s = server();
        const user = await signInAsUser(s);
        const response = await loginWith(s, user.email, WEB_API_KEY);
        const tokens = expectTokens(response);
        const setCookie = bindingSetCookie(response) ?? '';
        expect(setCookie).toMatch(
          /^__Host-dap_session_binding=[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict; Secure$/,
        );
        const cookie = setCookie.split(';')[0]!;
        expectApiError(await refreshWith(s, tokens.refresh_token, {}), 401, 'invalid_refresh_token');
        // A cookie of the plain name (planted by a page that is not the portal's https origin) is not it.
        expectApiError(
          await refreshWith(s, tokens.refresh_token, { cookie: cookie.replace('__Host-', '') }),
          401,
          'invalid_refresh_token',
        );
        expectTokens(await refreshWith(s, tokens.refresh_token, { cookie }));
      });
    });
  },
  { env: { PUBLIC_URL: 'https://portal.test' } },
);
