import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ActivationResult } from '../../../src/shared/api/licenses.js';
import { STRONG_PASSWORD, type TestServer, uniqueEmail } from '../../support/test-server.js';

/** Shared set-up of the plans, features, lease and downloads suites. */

export interface SignedIn {
  id: string;
  email: string;
  token: string;
}

/** A verified account of the given role, created directly (no mail round trip), and signed in. */
export async function signIn(s: TestServer, role: 'admin' | 'user', label: string = role): Promise<SignedIn> {
  const email = uniqueEmail(label);
  const user = await s.app.authService.createAccount({
    email,
    password: STRONG_PASSWORD,
    role,
    verified: true,
  });
  const tokens = await s.login(email, STRONG_PASSWORD);
  return { id: user.id, email, token: tokens.access_token };
}

export const signInAsAdmin = (s: TestServer) => signIn(s, 'admin');
export const signInAsUser = (s: TestServer, label = 'user') => signIn(s, 'user', label);

/** A fresh access token for an account made by {@link signIn}, e.g. after the clock moved past the old one. */
export async function signInAgain(s: TestServer, who: SignedIn): Promise<SignedIn> {
  const tokens = await s.login(who.email, STRONG_PASSWORD);
  return { ...who, token: tokens.access_token };
}

/** Activates the user's free Base license on a machine and returns the activation result. */
export async function activateBase(
  s: TestServer,
  user: SignedIn,
  hardwareId: string,
): Promise<ActivationResult> {
  const response = await s.api({
    method: 'POST',
    path: '/licenses/activate-base',
    token: user.token,
    body: { hardware_id: hardwareId, device_name: 'Test machine' },
  });
  expect([200, 201], response.body).toContain(response.statusCode);
  return response.json<ActivationResult>();
}

/** Asserts a 400 validation error and returns its message (which names the field at fault). */
export function expectValidationError(response: LightMyRequestResponse): string {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ code: string; message: string; detail: string }>();
  expect(body.code).toBe('validation_error');
  expect(body.detail).toBe(body.message);
  return body.message;
}

/** Row counts of the tables an admin write touches, to show that a refused request wrote nothing. */
export async function adminTableCounts(s: TestServer): Promise<Record<string, number>> {
  const tables = ['users', 'licenses', 'activations', 'security_events', 'refresh_token_families'] as const;
  const counts = await Promise.all(
    tables.map(async (table) => {
      const row = await s.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      return [table, Number(row.count)] as const;
    }),
  );
  return Object.fromEntries(counts);
}

/** The security events of one type about an account, oldest first. */
export const eventsAbout = (s: TestServer, type: string, userId: string) =>
  s.app.db
    .selectFrom('security_events')
    .selectAll()
    .where('type', '=', type)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
