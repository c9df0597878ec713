import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../../src/shared/api/errors.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';

const PORTAL_ORIGIN = 'https://portal.example';
const OTHER_ORIGINS = [
  'https://evil.example',
  'https://portal.example.evil.com',
  'http://portal.example',
  'https://sub.portal.example',
  'null',
];

type Headers = LightMyRequestResponse['headers'];

/** Parses a CSP header into directive → sources. */
function cspDirectives(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name.toLowerCase(), sources]),
  );
}

/** Parses a Permissions-Policy header into feature → allowlist (`[]` for `feature=()`). */
function permissionsPolicy(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(',')
      .map((entry) => /^\s*([a-z-]+)=\(([^)]*)\)\s*$/.exec(entry))
      .map((match) => {
        expect(match, 'a feature=(allowlist) entry').not.toBeNull();
        const [, feature = '', allowlist = ''] = match!;
        return [feature, allowlist.split(' ').filter(Boolean)];
      }),
  );
}

function expectHstsOf(headers: Headers) {
  const hsts = String(headers['strict-transport-security']);
  expect(hsts).toMatch(/includeSubDomains/);
  expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(180 * 24 * 60 * 60);
}

function expectHelmetHeaders(headers: Headers) {
  const csp = cspDirectives(headers['content-security-policy']);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  // These answers came over plain HTTP, where HSTS means nothing.
  expect(headers['strict-transport-security']).toBeUndefined();
  // One framing rule: never framed, said by CSP and by X-Frame-Options alike.
  expect(headers['x-frame-options']).toBe('DENY');
  const permissions = permissionsPolicy(headers['permissions-policy']);
  for (const feature of ['camera', 'microphone', 'geolocation', 'usb', 'serial', 'hid', 'payment'])
    expect(permissions.get(feature), feature).toEqual([]);
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['x-powered-by']).toBeUndefined();
  expect(headers['server']).toBeUndefined();
}

/** The kinds of answer a client meets: success, every error class, and the JSON 404. */
const ANSWERS: { name: string; status: number; send: (s: TestServer) => Promise<LightMyRequestResponse> }[] =
  [
    { name: 'GET /health', status: 200, send: (s) => s.api({ path: '/health', withoutApiKey: true }) },
    {
      name: 'a missing API key',
      status: 401,
      send: (s) => s.api({ path: '/users/me', withoutApiKey: true }),
    },
    { name: 'a missing token', status: 401, send: (s) => s.api({ path: '/users/me' }) },
    { name: 'an unknown API route', status: 404, send: (s) => s.api({ path: '/nothing-here' }) },
    { name: 'a page outside the API', status: 404, send: (s) => s.app.inject({ url: '/no-such-page.html' }) },
    {
      name: 'a validation error',
      status: 400,
      send: (s) => s.api({ method: 'POST', path: '/auth/login/json', body: { email: 1 } }),
    },
    {
      name: 'malformed JSON',
      status: 400,
      send: (s) =>
        s.api({
          method: 'POST',
          path: '/auth/login/json',
          body: '{',
          headers: { 'content-type': 'application/json' },
        }),
    },
    {
      name: 'an unsupported media type',
      status: 415,
      send: (s) =>
        s.api({
          method: 'POST',
          path: '/auth/login/json',
          body: 'a=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
    },
    {
      name: 'a body over the limit',
      status: 413,
      send: (s) =>
        s.api({
          method: 'POST',
          path: '/auth/forgot-password',
          body: JSON.stringify({ email: 'x'.repeat(70_000) }),
          headers: { 'content-type': 'application/json' },
        }),
    },
  ];

describeOnEveryDatabase('security headers (default configuration)', (server) => {
  it.each(ANSWERS)('$name ($status) carries the helmet headers', async ({ send, status }) => {
    const response = await send(server());
    expect(response.statusCode).toBe(status);
    expectHelmetHeaders(response.headers);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    if (status >= 400) apiErrorSchema.parse(response.json());
  });

  it('the API docs page carries them too', async () => {
    const response = await server().app.inject({ url: '/api/docs' });
    expect(response.statusCode).toBeLessThan(400);
    expectHelmetHeaders(response.headers);
  });

  it('a real socket answer carries them and names no server software', async () => {
    const base = await server().listen();
    for (const path of ['/api/v1/health', '/api/v1/users/me']) {
      const response = await fetch(`${base}${path}`, { headers: { 'x-api-key': WEB_API_KEY } });
      const headers = Object.fromEntries(response.headers.entries());
      expectHelmetHeaders(headers);
      await response.arrayBuffer();
    }
  });

  it('a request claiming HTTPS through an untrusted X-Forwarded-Proto gets no HSTS', async () => {
    const response = await server().api({ path: '/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  describe('Cache-Control', () => {
    it.each(ANSWERS.filter(({ name }) => name !== 'a page outside the API'))(
      '$name ($status) is no-store',
      async ({ send, status }) => {
        const response = await send(server());
        expect(response.statusCode).toBe(status);
        expect(response.headers['cache-control']).toBe('no-store');
      },
    );

    it('tokens and personal data are no-store: sign-in, refresh, the profile, a license check by key', async () => {
      const s = server();
      const { email, password } = await s.createVerifiedUser();
      const login = await s.api({ method: 'POST', path: '/auth/login/json', body: { email, password } });
      expect(login.statusCode).toBe(200);
      const tokens = login.json<{ access_token: string; refresh_token: string }>();
      const answers = [
        login,
        await s.api({ method: 'POST', path: '/auth/refresh', body: { refresh_token: tokens.refresh_token } }),
        await s.api({ path: '/users/me', token: tokens.access_token }),
        await s.api({ path: '/users/me', token: 'not.a.token' }),
        await s.api({ path: '/licensing/status?license_key=AAAAA-AAAAA-AAAAA-AAAAA-AAAAA&hardware_id=hw-1' }),
        // The router decodes the path, so an encoded one reaches the same route.
        await s.app.inject({
          url: '/%61pi/v1/users/me',
          headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${tokens.access_token}` },
        }),
      ];
      for (const response of answers) {
        expect(response.headers['cache-control'], `${response.statusCode} ${response.body}`).toBe('no-store');
      }
    });

    it('a route that chose its own caching keeps it; the API docs are not touched', async () => {
      const s = server();
      const keys = await s.api({ path: '/licensing/public-key' });
      expect(keys.statusCode).toBe(200);
      expect(keys.headers['cache-control']).toBe('public, max-age=3600');
      const docs = await s.app.inject({ url: '/api/docs' });
      expect(docs.statusCode).toBeLessThan(400);
      expect(docs.headers['cache-control']).not.toBe('no-store');
    });
  });

  describe('CORS is off without CORS_ORIGINS', () => {
    it.each([PORTAL_ORIGIN, ...OTHER_ORIGINS])('a request from %s gets no CORS grant', async (origin) => {
      const response = await server().api({ path: '/health', headers: { origin } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('a preflight is not answered with a grant (JSON 404)', async () => {
      const response = await server().api({
        method: 'OPTIONS',
        path: '/auth/login/json',
        withoutApiKey: true,
        headers: {
          origin: PORTAL_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-api-key',
        },
      });
      expect(response.statusCode).toBe(404);
      expect(apiErrorSchema.parse(response.json()).code).toBe('not_found');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-methods']).toBeUndefined();
    });
  });
});

describeOnEveryDatabase(
  'CORS with CORS_ORIGINS set',
  (server) => {
    const preflight = (origin: string, method: string, headers = 'content-type,x-api-key,authorization') =>
      server().api({
        method: 'OPTIONS',
        path: method === 'PUT' ? '/users/me' : '/auth/login/json',
        withoutApiKey: true,
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': headers,
        },
      });

    it('answers a preflight from the configured origin', async () => {
      const response = await preflight(PORTAL_ORIGIN, 'POST');
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(PORTAL_ORIGIN);
      expect(String(response.headers['access-control-allow-methods'])).toMatch(/\bPOST\b/);
      const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
      for (const header of ['content-type', 'x-api-key', 'authorization']) expect(allowed).toContain(header);
      expect(String(response.headers['vary'])).toMatch(/\bOrigin\b/i);
      expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0);
      expectHelmetHeaders(response.headers);
    });

    it('the preflight allows PUT for the profile routes', async () => {
      const response = await preflight(PORTAL_ORIGIN, 'PUT');
      expect(response.headers['access-control-allow-origin']).toBe(PORTAL_ORIGIN);
      expect(String(response.headers['access-control-allow-methods'])).toMatch(/\bPUT\b/);
    });

    it('grants the configured origin on the actual request', async () => {
      const response = await server().api({ path: '/health', headers: { origin: PORTAL_ORIGIN } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(PORTAL_ORIGIN);
      expect(String(response.headers['vary'])).toMatch(/\bOrigin\b/i);
    });

    it('grants it on error answers too, so the portal can read the message', async () => {
      const response = await server().api({ path: '/users/me', headers: { origin: PORTAL_ORIGIN } });
      expect(response.statusCode).toBe(401);
      expect(response.headers['access-control-allow-origin']).toBe(PORTAL_ORIGIN);
      apiErrorSchema.parse(response.json());
    });

    it.each(OTHER_ORIGINS)('gives %s no grant, in the preflight or the request', async (origin) => {
      const answered = await preflight(origin, 'POST');
      expect(answered.headers['access-control-allow-origin']).toBeUndefined();
      const request = await server().api({ path: '/health', headers: { origin } });
      expect(request.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('never answers with a wildcard origin', async () => {
      for (const origin of [PORTAL_ORIGIN, ...OTHER_ORIGINS]) {
        const response = await preflight(origin, 'POST');
        expect(response.headers['access-control-allow-origin']).not.toBe('*');
      }
    });
  },
  { env: { CORS_ORIGINS: PORTAL_ORIGIN } },
);

describeOnEveryDatabase(
  'HSTS behind a trusted proxy',
  (server) => {
    it.each([
      {
        name: 'GET /health',
        send: (s: TestServer, headers: Record<string, string>) => s.api({ path: '/health', headers }),
      },
      {
        name: 'a 401',
        send: (s: TestServer, headers: Record<string, string>) => s.api({ path: '/users/me', headers }),
      },
    ])('$name carries HSTS only when the proxy says the request came over HTTPS', async ({ send }) => {
      const s = server();
      expectHstsOf((await send(s, { 'x-forwarded-proto': 'https' })).headers);
      expect(
        (await send(s, { 'x-forwarded-proto': 'http' })).headers['strict-transport-security'],
      ).toBeUndefined();
      expect((await send(s, {})).headers['strict-transport-security']).toBeUndefined();
    });

    it('a client that is not the proxy cannot claim HTTPS', async () => {
      const response = await server().api({
        path: '/health',
        remoteAddress: '203.0.113.5',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });
  },
  { env: { TRUST_PROXY: '127.0.0.1' } },
);

describeOnEveryDatabase(
  'Permissions-Policy of a server taking payments through Razorpay',
  (server) => {
    it.each(['/api/v1/health', '/purchase'])(
      '%s lets only the portal and Razorpay Checkout ask for payment',
      async (url) => {
        const response = await server().app.inject({ url });
        const permissions = permissionsPolicy(response.headers['permissions-policy']);
        expect(permissions.get('payment')).toEqual([
          'self',
          '"https://api.razorpay.com"',
          '"https://checkout.razorpay.com"',
        ]);
        for (const feature of ['camera', 'microphone', 'geolocation', 'usb', 'serial', 'hid'])
          expect(permissions.get(feature), feature).toEqual([]);
      },
    );
  },
  {
    env: {
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: 'rzp_test_headers',
      RAZORPAY_KEY_SECRET: 'headers-secret',
    },
  },
);
