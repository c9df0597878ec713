import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type TokenResponse, tokenResponseSchema } from '../../../src/shared/api/auth.js';
import { type ApiError, apiErrorSchema } from '../../../src/shared/api/errors.js';
import type { SecurityEventRow } from '../../../src/server/platform/db/tables.js';
import type { OutboxMail } from '../../support/outbox.js';
import type { TestServer } from '../../support/test-server.js';

/** Shared assertions of the auth suites (tests/server/identity/auth-*.test.ts). */

/** Asserts a `{ detail, message, code }` JSON error with the given status and code, and returns it. */
export function expectApiError(response: LightMyRequestResponse, status: number, code: string): ApiError {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = apiErrorSchema.parse(response.json());
  expect(body.code).toBe(code);
  expect(body.message).not.toBe('');
  expect(body.detail).toBe(body.message);
  return body;
}

/** Asserts a 200 token response and returns it, checked against the shared schema. */
export function expectTokens(response: LightMyRequestResponse): TokenResponse {
  expect(response.statusCode, response.body).toBe(200);
  return tokenResponseSchema.parse(response.json());
}

/** Every mail written so far to one address, oldest first. */
export async function mailsTo(s: TestServer, email: string): Promise<OutboxMail[]> {
  return (await s.outbox()).filter((mail) => mail.to.includes(email));
}

export async function userByEmail(s: TestServer, email: string) {
  return s.app.db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
}

export async function securityEvents(
  s: TestServer,
  filter: { type: string; userId?: string; ip?: string },
): Promise<SecurityEventRow[]> {
  let query = s.app.db.selectFrom('security_events').selectAll().where('type', '=', filter.type);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.ip !== undefined) query = query.where('ip', '=', filter.ip);
  return query.orderBy('created_at').execute();
}

export async function familiesOf(s: TestServer, userId: string) {
  return s.app.db
    .selectFrom('refresh_token_families')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

export const refresh = (s: TestServer, refreshToken: string, remoteAddress?: string) =>
  s.api({
    method: 'POST',
    path: '/auth/refresh',
    body: { refresh_token: refreshToken },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

export const loginJson = (s: TestServer, email: string, password: string, remoteAddress?: string) =>
  s.api({
    method: 'POST',
    path: '/auth/login/json',
    body: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/** The signed-in user's profile, i.e. whether the access token is accepted by a guarded route. */
export const getMe = (s: TestServer, accessToken: string) => s.api({ path: '/users/me', token: accessToken });
