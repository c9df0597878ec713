import { expect, it } from 'vitest';
import { STEP_UP_WINDOW_SECONDS } from '../../../src/shared/constants.js';
import { describeOnEveryDatabase, STRONG_PASSWORD, type TestServer } from '../../support/test-server.js';
import { type SignedIn, signInAsAdmin, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import { enrolTotp, toNextStep, totpCode } from '../helpers/two-factor-helpers.js';

const WINDOW_MS = STEP_UP_WINDOW_SECONDS * 1000;
const NEW_PASSWORD = 'another horse battery staple 43';

const changePassword = (s: TestServer, token: string, current = STRONG_PASSWORD, next = NEW_PASSWORD) =>
  s.api({
    method: 'PUT',
    path: '/users/me/password',
    token,
    body: { current_password: current, new_password: next },
  });

const stepUp = (s: TestServer, token: string, body: unknown) =>
  s.api({ method: 'POST', path: '/auth/step-up', token, body });

describeOnEveryDatabase('step-up before sensitive changes', (server) => {
  it('lets a fresh sign-in change the password, and asks for a new proof once the window is over', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    // Within the window (its last second included) the sign-in is proof enough.
    // (The access token lives 15 minutes: the same one is used throughout.)
    s.clock.advance(WINDOW_MS);
    expectApiError(
      await changePassword(s, user.token, 'not the password at all'),
      400,
      'invalid_current_password',
    );
    s.clock.advance(1000);
    const stale = user.token;
    expectApiError(await changePassword(s, stale), 403, 'step_up_required');

    expectApiError(await stepUp(s, stale, { password: 'not the password' }), 400, 'invalid_password');
    expect((await securityEvents(s, { type: 'step_up_failed', userId: user.id })).length).toBe(1);
    expectApiError(await changePassword(s, stale), 403, 'step_up_required');
    const proved = await stepUp(s, stale, { password: STRONG_PASSWORD });
    expect(proved.statusCode, proved.body).toBe(200);
    expect(proved.json()).toMatchObject({ expires_in: STEP_UP_WINDOW_SECONDS });
    expect((await securityEvents(s, { type: 'stepped_up', userId: user.id })).length).toBe(1);
    const changed = await changePassword(s, stale);
    expect(changed.statusCode, changed.body).toBe(200);
  });

  it('steps up with a code from the app once per code, and with a recovery code once per code', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const { secret, recoveryCodes } = await enrolTotp(s, user.token);
    s.clock.advance(WINDOW_MS + 1000);
    toNextStep(s);
    const token = user.token;
    const code = totpCode(secret, s.clock.now());
    expect((await stepUp(s, token, { code })).statusCode).toBe(200);
    expectApiError(await stepUp(s, token, { code }), 400, 'invalid_code');
    expect((await stepUp(s, token, { recovery_code: recoveryCodes[0] })).statusCode).toBe(200);
    expectApiError(await stepUp(s, token, { recovery_code: recoveryCodes[0] }), 400, 'invalid_code');
    for (const body of [{}, { code: '12' }, { password: '' }, { password: 'x', code: '123456' }])
      expectApiError(await stepUp(s, token, body), 400, 'validation_error');
    expectApiError(
      await s.api({ method: 'POST', path: '/auth/step-up', body: { password: 'x' } }),
      401,
      'not_authenticated',
    );
  });

  it('guards removing the app, new recovery codes, refunds, revocations and role changes', async () => {
    const s = server();
    s.clock.freeze();
    const admin: SignedIn = await signInAsAdmin(s);
    const user = await signInAsUser(s);
    const { secret } = await enrolTotp(s, user.token);
    s.clock.advance(WINDOW_MS + 1000);
    toNextStep(s);
    const userToken = user.token;
    const adminToken = admin.token;
    expectApiError(
      await s.api({
        method: 'DELETE',
        path: '/users/me/two-factor/totp',
        token: userToken,
        body: { code: totpCode(secret, s.clock.now()) },
      }),
      403,
      'step_up_required',
    );
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/users/me/two-factor/recovery-codes',
        token: userToken,
        body: {},
      }),
      403,
      'step_up_required',
    );
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/payments/admin/payments/no-such-payment/refunds',
        token: adminToken,
        body: { license_action: 'keep' },
      }),
      403,
      'step_up_required',
    );
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/admin/licenses/no-such-license/revoke?reason=x',
        token: adminToken,
        body: {},
      }),
      403,
      'step_up_required',
    );
    expectApiError(
      await s.api({
        method: 'PUT',
        path: `/admin/users/${user.id}`,
        token: adminToken,
        body: { role: 'admin' },
      }),
      403,
      'step_up_required',
    );
    // Other edits of a user need no new proof, nor does sending the role it already has.
    const renamed = await s.api({
      method: 'PUT',
      path: `/admin/users/${user.id}`,
      token: adminToken,
      body: { full_name: 'Renamed', role: 'user' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    expect((await stepUp(s, adminToken, { password: STRONG_PASSWORD })).statusCode).toBe(200);
    const promoted = await s.api({
      method: 'PUT',
      path: `/admin/users/${user.id}`,
      token: adminToken,
      body: { role: 'admin' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/admin/licenses/no-such-license/revoke?reason=x',
        token: adminToken,
        body: {},
      }),
      404,
      'license_not_found',
    );
  });
});
