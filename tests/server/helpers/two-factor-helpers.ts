import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { SecondFactorRequired } from '../../../src/shared/api/auth.js';
import type { RecoveryCodes, TotpEnrolment } from '../../../src/shared/api/two-factor.js';
import type { TestServer } from '../../support/test-server.js';

/** Shared set-up of the two-factor and step-up suites: codes are computed as an app would. */

/** The code an authenticator app shows for `secret` at `at` (the server's clock by default). */
export const totpCode = (secret: string, at: Date): string =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });

/** Enrols an authenticator app for the signed-in account; answers its secret and recovery codes. */
export async function enrolTotp(
  s: TestServer,
  token: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await s.api({ method: 'POST', path: '/users/me/two-factor/totp', token, body: {} });
  expect(started.statusCode, started.body).toBe(200);
  const { secret } = started.json<TotpEnrolment>();
  const confirmed = await s.api({
    method: 'POST',
    path: '/users/me/two-factor/totp/confirm',
    token,
    body: { code: totpCode(secret, s.clock.now()) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json<RecoveryCodes>().recovery_codes };
}

/** The first step of a sign-in to an account with a second factor: its challenge. */
export async function passwordStep(
  s: TestServer,
  email: string,
  password: string,
  remoteAddress?: string,
): Promise<SecondFactorRequired> {
  const response = await s.api({
    method: 'POST',
    path: '/auth/login/json',
    body: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<SecondFactorRequired>();
  expect(body.second_factor_required).toBe(true);
  return body;
}

export const secondStep = (
  s: TestServer,
  body: { challenge: string; code?: string; recovery_code?: string },
  remoteAddress?: string,
) =>
  s.api({
    method: 'POST',
    path: '/auth/login/second-factor',
    body,
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/** Moves the clock to the start of the next 30-second step, so one code's life is predictable. */
export function toNextStep(s: TestServer): void {
  const now = s.clock.now().getTime();
  s.clock.advance(30_000 - (now % 30_000) + 1_000);
}
