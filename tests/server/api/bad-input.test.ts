import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiError, apiErrorSchema } from '../../../src/shared/api/errors.js';
import type { Database } from '../../../src/server/platform/db/tables.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';

// The bad-input matrix: every POST/PUT endpoint against malformed, mistyped, oversized and hostile
// bodies. Each rejection must be a 4xx `{ detail, message, code }` JSON answer that leaks nothing
// and writes nothing.

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const BODY_LIMIT = 64 * 1024;
const NEW_PASSWORD = 'another long passphrase 77';
const OPAQUE_TOKEN = 'A'.repeat(43);

/** Words that would mean a stack trace, SQL or an engine name reached the client. */
const LEAKS = [
  /\n\s+at\s/,
  /\bat \S+ \(.*:\d+:\d+\)/,
  /\bSELECT\b/,
  /\bINSERT INTO\b/,
  /\bUPDATE "?\w+"? SET\b/,
  /sqlite/i,
  /postgres/i,
  /kysely/i,
  /node_modules/,
  /\.[jt]s:\d+/,
  /FST_ERR/,
];

/** Asserts a problem answer: a 4xx (exactly `status` when given), JSON, the three strings, no leaks. */
function expectProblem(response: LightMyRequestResponse, status?: number, code?: string): ApiError {
  if (status === undefined) {
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  } else {
    expect(response.statusCode, response.body).toBe(status);
  }
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = apiErrorSchema.parse(response.json());
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.code).toMatch(/^[a-z][a-z_]*$/);
  if (code !== undefined) expect(body.code).toBe(code);
  for (const leak of LEAKS) expect(response.body).not.toMatch(leak);
  return body;
}

type Table = keyof Database;
const TABLES: Table[] = [
  'users',
  'security_events',
  'email_tokens',
  'refresh_token_families',
  'refresh_tokens',
  'login_throttles',
];

/** Row counts of every table, one user's row and the number of mails: what a rejection must not change. */
async function snapshot(s: TestServer, userId: string) {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await s.app.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.count);
  }
  const user = await s.app.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  return { counts, user, mails: (await s.outbox()).length };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

// ---------------------------------------------------------------------------------------------
// The endpoints and what each of their body fields is.

type FieldKind = 'email' | 'loginName' | 'password' | 'token' | 'name' | 'theme' | 'language' | 'flags';

interface JsonEndpoint {
  method: 'POST' | 'PUT';
  path: string;
  /** Sent with the signed-in user's bearer token, so only the body decides the answer. */
  signedIn?: boolean;
  /** A body of the right shape; every case breaks one thing of it. */
  valid: Record<string, unknown>;
  required: string[];
  fields: Record<string, FieldKind>;
  /** Fields where `null` is a value (clears it). */
  nullable?: string[];
  /** The route works without a body (validate-token falls back to the bearer header). */
  bodyOptional?: boolean;
}

const changePasswordBody = { current_password: 'not the current password', new_password: NEW_PASSWORD };

const JSON_ENDPOINTS: JsonEndpoint[] = [
  {
    method: 'POST',
    path: '/auth/register',
    valid: { email: uniqueEmail('matrix'), password: STRONG_PASSWORD, full_name: 'Valid Name' },
    required: ['email', 'password'],
    fields: { email: 'email', password: 'password', full_name: 'name' },
  },
  {
    method: 'POST',
    path: '/auth/verify-registration',
    valid: { token: OPAQUE_TOKEN },
    required: ['token'],
    fields: { token: 'token' },
  },
  {
    method: 'POST',
    path: '/auth/resend-verification',
    valid: { email: 'nobody@example.com' },
    required: ['email'],
    fields: { email: 'email' },
  },
  {
    method: 'POST',
    path: '/auth/login/json',
    valid: { email: 'nobody@example.com', password: 'not the password' },
    required: ['email', 'password'],
    fields: { email: 'loginName', password: 'password' },
  },
  {
    method: 'POST',
    path: '/auth/refresh',
    valid: { refresh_token: OPAQUE_TOKEN },
    required: ['refresh_token'],
    fields: { refresh_token: 'token' },
  },
  {
    method: 'POST',
    path: '/auth/logout',
    valid: { refreshToken: OPAQUE_TOKEN },
    required: ['refreshToken'],
    fields: { refreshToken: 'token' },
  },
  {
    method: 'POST',
    path: '/auth/validate-token',
    valid: { token: 'not.a.jwt' },
    required: [],
    bodyOptional: true,
    fields: { token: 'token' },
  },
  {
    method: 'POST',
    path: '/auth/forgot-password',
    valid: { email: 'nobody@example.com' },
    required: ['email'],
    fields: { email: 'email' },
  },
  {
    method: 'POST',
    path: '/auth/reset-password',
    valid: { token: OPAQUE_TOKEN, new_password: NEW_PASSWORD },
    required: ['token', 'new_password'],
    fields: { token: 'token', new_password: 'password' },
  },
  {
    method: 'POST',
    path: '/auth/change-password',
    signedIn: true,
    valid: changePasswordBody,
    required: ['current_password', 'new_password'],
    fields: { current_password: 'password', new_password: 'password' },
  },
  {
    method: 'PUT',
    path: '/users/me',
    signedIn: true,
    valid: { full_name: 'Valid Name', company: 'Valid Company' },
    required: [],
    fields: { full_name: 'name', company: 'name' },
    nullable: ['full_name', 'company'],
  },
  {
    method: 'PUT',
    path: '/users/me/preferences',
    signedIn: true,
    valid: { theme: 'dark', language: 'de', notifications: { billing: false } },
    required: [],
    fields: { theme: 'theme', language: 'language', notifications: 'flags' },
  },
  {
    method: 'PUT',
    path: '/users/me/password',
    signedIn: true,
    valid: changePasswordBody,
    required: ['current_password', 'new_password'],
    fields: { current_password: 'password', new_password: 'password' },
  },
];

interface BadCase {
  name: string;
  /** An object is sent as JSON; a string is sent raw with `headers`. */
  body: unknown;
  headers?: Record<string, string>;
  /** The exact status, or `undefined` where any 4xx is right. */
  status: number | undefined;
  code: string | undefined;
  /** The field the answer must name in `errors`. */
  field?: string;
}

const SQL_FRAGMENTS = ["' OR 1=1 --", "admin'--", "x'; DROP TABLE users; --"];
const SCRIPT_FRAGMENTS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>'];
/** Unicode that an e-mail address may not hold. */
const UNICODE_EMAILS = [
  'zoë@example.com',
  '😀@example.com',
  'a\u200Bb@example.com',
  '\u202Eadmin@example.com',
  'שלום@example.com',
  'nul\u0000@example.com',
];
/** Characters a display name may not hold (controls and a lone surrogate). */
const CONTROL_NAMES = [
  'a\u0000b',
  'bell\u0007',
  'two\nlines',
  'tab\there',
  'del\u007F',
  'nel\u0085',
  'half\uD800',
];

/** A language tag of the right format but 10 000 characters long. */
const LONG_LANGUAGE = `en${'-abcdefgh'.repeat(1111)}`;

function longValue(kind: FieldKind): unknown {
  if (kind === 'email') return `${'a'.repeat(10_000)}@example.com`;
  if (kind === 'language') return LONG_LANGUAGE;
  if (kind === 'flags') return { billing: 'x'.repeat(10_000) };
  return 'x'.repeat(10_000);
}

function wrongTypes(kind: FieldKind, nullable: boolean): { label: string; value: unknown }[] {
  const values =
    kind === 'flags'
      ? [
          { label: 'a string', value: 'all' },
          { label: 'a number', value: 1 },
          { label: 'an array', value: [true] },
          { label: 'a boolean', value: true },
        ]
      : [
          { label: 'a number', value: 42 },
          { label: 'a boolean', value: true },
          { label: 'an array', value: ['x'] },
          { label: 'a nested object', value: { $gt: '' } },
        ];
  return nullable ? values : [...values, { label: 'null', value: null }];
}

function casesFor(endpoint: JsonEndpoint): BadCase[] {
  const valid = endpoint.valid;
  const firstField = Object.keys(endpoint.fields)[0] ?? 'x';
  const validText = JSON.stringify(valid);
  const invalidJson = (name: string, body: string): BadCase => ({
    name,
    body,
    headers: JSON_TYPE,
    status: 400,
    code: 'invalid_json',
  });
  const unsupported = (name: string, body: string, contentType: string): BadCase => ({
    name,
    body,
    headers: { 'content-type': contentType },
    status: 415,
    code: 'unsupported_media_type',
  });
  const invalid = (name: string, body: unknown, field?: string): BadCase => ({
    name,
    body,
    ...(typeof body === 'string' ? { headers: JSON_TYPE } : {}),
    status: 400,
    code: 'validation_error',
    ...(field === undefined ? {} : { field }),
  });

  const cases: BadCase[] = [
    invalidJson('malformed JSON', '{"email":'),
    invalidJson('JSON with a trailing comma', '{"email":"a@b.co",}'),
    invalidJson('single-quoted pseudo-JSON', "{'email':'a@b.co'}"),
    invalidJson('a NUL byte as the body', '\u0000'),
    invalidJson('a __proto__ key (prototype pollution)', '{"__proto__":{"polluted":true}}'),
    invalidJson('a constructor.prototype key', '{"constructor":{"prototype":{"polluted":true}}}'),
    invalidJson('an empty body with a JSON content type', ''),
    unsupported('valid JSON sent as text/plain', validText, 'text/plain'),
    unsupported('valid JSON sent as text/plain; charset=utf-8', validText, 'text/plain; charset=utf-8'),
    unsupported('a form-encoded body', form({ [firstField]: 'x' }), FORM_TYPE['content-type']),
    unsupported('a multipart body', '--b\r\n\r\nx\r\n--b--', 'multipart/form-data; boundary=b'),
    unsupported('an XML body', '<x/>', 'application/xml'),
    unsupported('a body without a content type', validText, ''),
    invalid('a JSON array', '[]', 'body'),
    endpoint.bodyOptional
      ? // No body at all: the route answers as if none was sent (401 here, with no bearer token).
        { name: 'JSON null', body: 'null', headers: JSON_TYPE, status: undefined, code: undefined }
      : invalid('JSON null', 'null', 'body'),
    invalid('a JSON string', '"x"', 'body'),
    invalid('a JSON number', '42', 'body'),
    invalid(
      'a 20 000-level nested array',
      `{"${firstField}":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
      firstField,
    ),
    invalid(
      'thousands of unknown keys',
      { ...valid, ...Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])) },
      'body',
    ),
    {
      name: `a body over the ${BODY_LIMIT / 1024} KiB limit`,
      body: JSON.stringify({ ...valid, [firstField]: 'x'.repeat(BODY_LIMIT) }),
      headers: JSON_TYPE,
      status: 413,
      code: 'payload_too_large',
    },
    invalid('an unknown field role: admin', { ...valid, role: 'admin' }, 'body'),
    invalid('an unknown field is_admin: true', { ...valid, is_admin: true }, 'body'),
    invalid('an unknown field id', { ...valid, id: '00000000-0000-0000-0000-000000000000' }, 'body'),
  ];

  for (const field of endpoint.required) {
    const { [field]: _left, ...rest } = valid;
    cases.push(invalid(`${field} missing`, rest, field));
  }

  for (const [field, kind] of Object.entries(endpoint.fields)) {
    for (const { label, value } of wrongTypes(kind, endpoint.nullable?.includes(field) ?? false)) {
      cases.push(invalid(`${field} as ${label}`, { ...valid, [field]: value }, field));
    }
    const longField = kind === 'flags' ? `${field}.billing` : field;
    cases.push(
      invalid(`${field} as a 10 000-character string`, { ...valid, [field]: longValue(kind) }, longField),
    );

    if (kind === 'email') {
      for (const value of [...UNICODE_EMAILS, ...SQL_FRAGMENTS, ...SCRIPT_FRAGMENTS]) {
        cases.push(invalid(`${field} = ${JSON.stringify(value)}`, { ...valid, [field]: value }, field));
      }
    }
    if (kind === 'name') {
      for (const value of CONTROL_NAMES) {
        cases.push(invalid(`${field} = ${JSON.stringify(value)}`, { ...valid, [field]: value }, field));
      }
    }
    if (kind === 'theme' || kind === 'language') {
      for (const value of [...SQL_FRAGMENTS, ...SCRIPT_FRAGMENTS, 'Zoë', '😀', 'en\u0000']) {
        cases.push(invalid(`${field} = ${JSON.stringify(value)}`, { ...valid, [field]: value }, field));
      }
    }
    if (kind === 'flags') {
      cases.push(invalid(`${field} with an unknown flag`, { ...valid, [field]: { sms: true } }, field));
      cases.push(
        invalid(`${field}.billing as a string`, { ...valid, [field]: { billing: 'no' } }, `${field}.billing`),
      );
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------

/** One raw HTTP/1.1 exchange over a socket, for requests `inject` would tidy up. */
function rawHttp(
  base: string,
  request: string,
): Promise<{ status: number; headers: Record<string, string>; body: string; timedOut: boolean }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    let data = '';
    let timedOut = false;
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(request));
    const finish = () => {
      clearTimeout(timer);
      const split = data.indexOf('\r\n\r\n');
      const head = split === -1 ? data : data.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        headers,
        body: split === -1 ? '' : data.slice(split + 4),
        timedOut,
      });
    };
    // A hang, not a slow answer: a busy machine may take seconds, a hung server never answers.
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, 20_000);
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('close', finish);
    // The server may answer and close before a large upload is written out.
    socket.on('error', () => undefined);
  });
}

/** A raw answer checked like {@link expectProblem}. */
function expectRawProblem(
  answer: { status: number; headers: Record<string, string>; body: string; timedOut: boolean },
  status: number,
) {
  expect(answer.timedOut).toBe(false);
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = apiErrorSchema.parse(JSON.parse(answer.body));
  expect(body.detail.length).toBeGreaterThan(0);
  for (const leak of LEAKS) expect(answer.body).not.toMatch(leak);
  return body;
}

describeOnEveryDatabase('bad input', (server) => {
  let user: { id: string; email: string; password: string };
  let token: string;

  beforeAll(async () => {
    const s = server();
    const created = await s.createVerifiedUser();
    const session = await s.login(created.email, created.password);
    user = { ...created, id: session.user.id };
    token = session.access_token;
  });

  const send = (endpoint: JsonEndpoint, badCase: BadCase) =>
    server().api({
      method: endpoint.method,
      path: endpoint.path,
      body: badCase.body,
      ...(badCase.headers ? { headers: badCase.headers } : {}),
      ...(endpoint.signedIn ? { token } : {}),
    });

  describe('the snapshot sees writes (control)', () => {
    it('a valid registration adds a user, an event, a token and a mail', async () => {
      const s = server();
      const before = await snapshot(s, user.id);
      const response = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email: uniqueEmail('control'), password: STRONG_PASSWORD },
      });
      expect(response.statusCode).toBe(202);
      const after = await snapshot(s, user.id);
      expect(after.counts['users']).toBe((before.counts['users'] ?? 0) + 1);
      expect(after.counts['security_events']).toBe((before.counts['security_events'] ?? 0) + 1);
      expect(after.counts['email_tokens']).toBe((before.counts['email_tokens'] ?? 0) + 1);
      expect(after.mails).toBe(before.mails + 1);
    });

    it('a valid profile update changes the user row', async () => {
      const s = server();
      const before = await snapshot(s, user.id);
      const response = await s.api({
        method: 'PUT',
        path: '/users/me',
        token,
        body: { company: `Control ${Date.now()}` },
      });
      expect(response.statusCode).toBe(200);
      expect((await snapshot(s, user.id)).user).not.toEqual(before.user);
    });
  });

  for (const endpoint of JSON_ENDPOINTS) {
    describe(`${endpoint.method} ${endpoint.path}`, () => {
      const cases = casesFor(endpoint).map((badCase) => ({
        ...badCase,
        expected: badCase.status === undefined ? 'a 4xx' : `${badCase.status} ${badCase.code}`,
      }));
      it.each(cases)('$name → $expected, nothing written', async (badCase) => {
        const s = server();
        const before = await snapshot(s, user.id);
        const response = await send(endpoint, badCase);
        const problem = expectProblem(response, badCase.status, badCase.code);
        if (badCase.field !== undefined) {
          expect(problem.errors?.map((error) => error.field)).toContain(badCase.field);
        }
        expect(await snapshot(s, user.id)).toEqual(before);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      });
    });
  }

  describe('POST /auth/login (the form route)', () => {
    const login = (body: string, contentType = FORM_TYPE['content-type']) =>
      server().api({ method: 'POST', path: '/auth/login', body, headers: { 'content-type': contentType } });

    it('signs in with a proper form (control)', async () => {
      const response = await login(form({ username: user.email, password: user.password }));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toHaveProperty('access_token');
    });

    it('refuses a JSON body with 415, even one with the right credentials', async () => {
      const s = server();
      const before = await snapshot(s, user.id);
      const response = await s.api({
        method: 'POST',
        path: '/auth/login',
        body: { username: user.email, password: user.password },
      });
      expectProblem(response, 415, 'unsupported_media_type');
      expect(await snapshot(s, user.id)).toEqual(before);
    });

    it('refuses malformed JSON with a 4xx problem', async () => {
      expectProblem(await login('{"username":', 'application/json'));
    });

    it.each([
      { name: 'text/plain', type: 'text/plain' },
      { name: 'multipart', type: 'multipart/form-data; boundary=b' },
      { name: 'XML', type: 'application/xml' },
    ])('refuses a $name body with 415', async ({ type }) => {
      expectProblem(
        await login(form({ username: user.email, password: user.password }), type),
        415,
        'unsupported_media_type',
      );
    });

    it.each([
      { name: 'an empty form', body: '', field: 'username' },
      { name: 'no password', body: form({ username: 'a@b.co' }), field: 'password' },
      { name: 'no username', body: form({ password: 'whatever pass' }), field: 'username' },
      {
        name: 'an unknown field',
        body: form({ username: 'a@b.co', password: 'x', role: 'admin' }),
        field: 'body',
      },
      {
        name: 'grant_type other than password',
        body: form({ username: 'a@b.co', password: 'x', grant_type: 'client_credentials' }),
        field: 'grant_type',
      },
      {
        name: 'a repeated username',
        body: 'username=a%40b.co&username=c%40d.co&password=x',
        field: 'username',
      },
      {
        name: 'a 300-character username',
        body: form({ username: 'u'.repeat(300), password: 'x' }),
        field: 'username',
      },
      {
        name: 'a 2000-character password',
        body: form({ username: 'a@b.co', password: 'p'.repeat(2000) }),
        field: 'password',
      },
    ])('refuses $name with 400, nothing written', async ({ body, field }) => {
      const s = server();
      const before = await snapshot(s, user.id);
      const problem = expectProblem(await login(body), 400, 'validation_error');
      expect(problem.errors?.map((error) => error.field)).toContain(field);
      expect(await snapshot(s, user.id)).toEqual(before);
    });

    it.each([
      { name: 'a 10 000-character username (over the 4 KiB form limit)', size: 10_000 },
      { name: 'a body over the 64 KiB API limit', size: BODY_LIMIT + 1 },
    ])('refuses $name with 413', async ({ size }) => {
      const s = server();
      const before = await snapshot(s, user.id);
      expectProblem(
        await login(form({ username: 'u'.repeat(size), password: 'x' })),
        413,
        'payload_too_large',
      );
      expect(await snapshot(s, user.id)).toEqual(before);
    });
  });

  describe('hostile strings that pass the schema', () => {
    it.each([...SQL_FRAGMENTS, ...SCRIPT_FRAGMENTS, 'zoë@example.com', '\u202Eadmin@example.com'])(
      'login/json with email %j is a plain wrong login (401), no token',
      async (email) => {
        const s = server();
        const usersBefore = (await snapshot(s, user.id)).counts['users'];
        const response = await s.api({
          method: 'POST',
          path: '/auth/login/json',
          body: { email, password: "' OR '1'='1" },
        });
        expectProblem(response, 401, 'invalid_credentials');
        expect(response.body).not.toContain('access_token');
        expect((await snapshot(s, user.id)).counts['users']).toBe(usersBefore);
      },
    );

    it("the form login with username admin'-- and an injected password is a wrong login", async () => {
      const response = await server().api({
        method: 'POST',
        path: '/auth/login',
        body: form({ username: "admin'--", password: "' OR '1'='1" }),
        headers: FORM_TYPE,
      });
      expectProblem(response, 401, 'invalid_credentials');
    });

    it('a SQL fragment as the password of a real account does not sign in', async () => {
      const response = await server().api({
        method: 'POST',
        path: '/auth/login/json',
        body: { email: user.email, password: "' OR '1'='1' --" },
      });
      expectProblem(response, 401, 'invalid_credentials');
    });

    // PostgreSQL cannot store NUL in text: before the error-handler fix this was a 500 there.
    it.each([
      { route: '/auth/login/json', body: { email: 'nul\u0000@example.com', password: 'whatever' } },
      { route: '/auth/login', body: form({ username: 'nul\u0000@example.com', password: 'whatever' }) },
    ])(
      'a NUL in the sign-in name of $route is refused by the schema, never a 500',
      async ({ route, body }) => {
        const s = server();
        const response = await s.api({
          method: 'POST',
          path: route,
          body,
          ...(typeof body === 'string' ? { headers: FORM_TYPE } : {}),
        });
        // Refused before any query, so PostgreSQL (which cannot store NUL) and SQLite answer alike.
        expectProblem(response, 400, 'validation_error');
      },
    );

    it.each(["' OR '1'='1' -- padding", '<script>alert(1)</script>', 'ÿ'.repeat(20)])(
      'a token %j is just an unknown token on every token route',
      async (fragment) => {
        const s = server();
        const before = await snapshot(s, user.id);
        const post = (path: string, body: object) => s.api({ method: 'POST', path, body });
        expectProblem(
          await post('/auth/verify-registration', { token: fragment }),
          400,
          'invalid_verification_token',
        );
        expectProblem(await post('/auth/refresh', { refresh_token: fragment }), 401, 'invalid_refresh_token');
        expectProblem(
          await post('/auth/reset-password', { token: fragment, new_password: NEW_PASSWORD }),
          400,
          'invalid_reset_token',
        );
        expectProblem(await post('/auth/validate-token', { token: fragment }), 401);
        // Logout answers alike for unknown tokens (no probing), and revokes nothing.
        expect((await post('/auth/logout', { refreshToken: fragment })).statusCode).toBe(200);
        expect(await snapshot(s, user.id)).toEqual(before);
      },
    );

    it('registration stores SQL and script fragments in the name verbatim, as data', async () => {
      const s = server();
      const email = uniqueEmail("o'brien");
      const fullName = "Robert'); DROP TABLE users;-- <script>alert(1)</script>";
      const response = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email, password: STRONG_PASSWORD, full_name: fullName },
      });
      expect(response.statusCode).toBe(202);
      const row = await s.app.db
        .selectFrom('users')
        .select(['email', 'full_name'])
        .where('email', '=', email.toLowerCase())
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ email: email.toLowerCase(), full_name: fullName });
    });

    it('registration keeps a unicode name byte for byte', async () => {
      const s = server();
      const email = uniqueEmail('unicode');
      const fullName = 'Zoë Ñandú 李雷 زينب 👩‍💻';
      const response = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email, password: STRONG_PASSWORD, full_name: fullName },
      });
      expect(response.statusCode).toBe(202);
      const row = await s.app.db
        .selectFrom('users')
        .select('full_name')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row.full_name).toBe(fullName);
    });
  });

  describe('the body limit boundary', () => {
    const bodyOfSize = (size: number) => {
      const shell = JSON.stringify({ email: '' });
      return JSON.stringify({ email: 'a'.repeat(size - shell.length) });
    };

    it('exactly 64 KiB reaches the schema (400); one byte more is 413', async () => {
      const s = server();
      const send = (body: string) =>
        s.api({ method: 'POST', path: '/auth/forgot-password', body, headers: JSON_TYPE });
      expect(Buffer.byteLength(bodyOfSize(BODY_LIMIT))).toBe(BODY_LIMIT);
      expectProblem(await send(bodyOfSize(BODY_LIMIT)), 400, 'validation_error');
      expectProblem(await send(bodyOfSize(BODY_LIMIT + 1)), 413, 'payload_too_large');
    });

    it('counts bytes, not characters: 22 000 three-byte characters are too large', async () => {
      const body = JSON.stringify({ email: '李'.repeat(22_000) });
      expect(body.length).toBeLessThan(BODY_LIMIT);
      const response = await server().api({
        method: 'POST',
        path: '/auth/forgot-password',
        body,
        headers: JSON_TYPE,
      });
      expectProblem(response, 413, 'payload_too_large');
    });
  });

  describe('routes, methods, query strings and paths', () => {
    it.each([
      { method: 'GET', path: '/does-not-exist' },
      { method: 'POST', path: '/does-not-exist' },
      { method: 'GET', path: '/auth/login/json/extra' },
      { method: 'GET', path: '/users/me/secrets' },
      { method: 'GET', path: '/admin/nothing-here' },
      { method: 'DELETE', path: '/users/me' },
      { method: 'PATCH', path: '/users/me' },
      { method: 'GET', path: '/auth/register' },
      { method: 'PUT', path: '/auth/login/json' },
      { method: 'DELETE', path: '/auth/logout' },
      { method: 'OPTIONS', path: '/users/me' },
      { method: 'TRACE', path: '/health' },
    ] as const)('$method $path → JSON 404/405, not HTML', async ({ method, path }) => {
      const response = await server().api({ method, path, token, body: method === 'GET' ? undefined : {} });
      expect([404, 405]).toContain(response.statusCode);
      expect(response.body.trimStart().startsWith('<')).toBe(false);
      expectProblem(response, response.statusCode, 'not_found');
    });

    it.each(['/does-not-exist', '/users/me/nothing'])(
      'an unknown route %s is a JSON 404 even without an API key',
      async (path) => {
        expectProblem(await server().api({ path, withoutApiKey: true }), 404, 'not_found');
      },
    );

    it('unknown /api paths outside /api/v1 are JSON 404s too', async () => {
      for (const url of ['/api', '/api/', '/api/v2/users/me', '/api/nothing', '/api/v1']) {
        expectProblem(await server().app.inject({ method: 'GET', url }), 404, 'not_found');
      }
    });

    it('query strings cannot change whose profile is read', async () => {
      const response = await server().api({
        path: '/users/me?id=1%27%20OR%201%3D1--&user_id=someone-else&role=admin&email=x%40y.z',
        token,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: user.id, email: user.email, role: 'user' });
    });

    it('query strings do not stand in for a body', async () => {
      const query = new URLSearchParams({ email: user.email, password: user.password }).toString();
      const response = await server().api({ method: 'POST', path: `/auth/login/json?${query}` });
      expectProblem(response, 400, 'validation_error');
    });

    it('script in the query of an unknown route is not echoed', async () => {
      const response = await server().api({ path: '/nothing?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E' });
      const problem = expectProblem(response, 404, 'not_found');
      expect(problem.message).not.toMatch(/script/i);
    });

    it('a long or hostile query string on /health is ignored', async () => {
      const s = server();
      const long = await s.api({ path: `/health?x=${'a'.repeat(8000)}`, withoutApiKey: true });
      expect(long.statusCode).toBe(200);
      const hostile = await s.api({ path: '/health?x=%27%20OR%201%3D1--&<script>=1', withoutApiKey: true });
      expect(hostile.statusCode).toBe(200);
      expect(hostile.json()).toMatchObject({ status: 'ok' });
    });

    it.each([
      '/../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2fetc%2fpasswd',
      '/users/me/..%2f..%2f..%2fpackage.json',
      '/%2e%2e%5c%2e%2e%5cwindows%5cwin.ini',
    ])('path traversal %s is a JSON 404 (in-process)', async (path) => {
      const response = await server().api({ path, token });
      const problem = expectProblem(response, 404, 'not_found');
      expect(problem.code).toBe('not_found');
      expect(response.body).not.toMatch(/root:|\[fonts\]|"dependencies"/);
    });

    it('a URL with broken percent-encoding is a 400 problem answer', async () => {
      expectProblem(await server().api({ path: '/users/me%', token }), 400);
    });
  });

  describe('over a real socket', () => {
    let base: string;
    beforeAll(async () => {
      base = await server().listen();
    });

    it('malformed JSON gets a 400 problem', async () => {
      const response = await fetch(`${base}/api/v1/auth/login/json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'dap-web-public' },
        body: '{"email":',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(apiErrorSchema.parse(await response.json()).code).toBe('invalid_json');
    });

    it('a chunked upload over the limit gets a 413 problem and the connection ends, no hang', async () => {
      const chunk = `4000\r\n${'a'.repeat(0x4000)}\r\n`;
      const answer = await rawHttp(
        base,
        'POST /api/v1/auth/register HTTP/1.1\r\nHost: portal.test\r\nx-api-key: dap-web-public\r\n' +
          'content-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n' +
          `${chunk.repeat(6)}0\r\n\r\n`,
      );
      expect(expectRawProblem(answer, 413).code).toBe('payload_too_large');
    });

    it.each([
      '/api/v1/../../../etc/passwd',
      '/api/v1/users/../../../../etc/passwd',
      '/api/v1/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/..%2f..%2fpackage.json',
    ])('raw path traversal %s is a JSON 404', async (path) => {
      const answer = await rawHttp(
        base,
        `GET ${path} HTTP/1.1\r\nHost: portal.test\r\nconnection: close\r\n\r\n`,
      );
      expect(expectRawProblem(answer, 404).code).toBe('not_found');
      expect(answer.body).not.toMatch(/root:|"dependencies"/);
    });

    // Requests Node's HTTP parser refuses never reach a route, yet get the same problem answer.
    it.each([
      { name: 'a garbage request line', request: 'HELLO\r\n\r\n', status: 400 },
      {
        name: 'a NUL in a header',
        request:
          'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nUser-Agent: a\u0000b\r\nconnection: close\r\n\r\n',
        status: 400,
      },
      {
        name: 'headers over the size limit',
        request: `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nconnection: close\r\n\r\n`,
        status: 431,
      },
    ])('$name gets a problem answer', async ({ request, status }) => {
      expectRawProblem(await rawHttp(base, request), status);
    });
  });
});
