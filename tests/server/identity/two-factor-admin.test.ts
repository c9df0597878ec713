import { expect, it } from 'vitest';
import type { TwoFactorStatus } from '../../../src/shared/api/two-factor.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { signInAsAdmin, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import { enrolTotp } from '../helpers/two-factor-helpers.js';

describeOnEveryDatabase('two-factor required of administrators', (server) => {
  it('sends an administrator without a second factor to enrol before any admin route, and lets the routes of enrolment through', async () => {
    const s = server();
    const first = await signInAsAdmin(s);
    const second = await signInAsAdmin(s);
    const customer = await signInAsUser(s);
    const setting = (token: string, on: boolean) =>
      s.api({
        method: 'PUT',
        path: '/admin/settings/security',
        token,
        body: { require_admin_two_factor: on },
      });

    expect((await s.api({ path: '/admin/settings/security', token: first.token })).json()).toEqual({
      require_admin_two_factor: false,
    });
    // Nobody locks themselves out: requiring it takes having it.
    expectApiError(await setting(first.token, true), 409, 'two_factor_required_first');
    expectApiError(
      await s.api({
        method: 'PUT',
        path: '/admin/settings/security',
        token: first.token,
        body: { require_admin_two_factor: 'yes' },
      }),
      400,
      'validation_error',
    );
    expectApiError(await setting(customer.token, true), 403, 'admin_required');
    await enrolTotp(s, first.token);
    const turnedOn = await setting(first.token, true);
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    expect((await securityEvents(s, { type: 'security_settings_changed' })).length).toBe(1);

    try {
      expectApiError(
        await s.api({ path: '/admin/users', token: second.token }),
        403,
        'two_factor_enrolment_required',
      );
      expectApiError(
        await s.api({ path: '/admin/settings/security', token: second.token }),
        403,
        'two_factor_enrolment_required',
      );
      // The account's own routes stay open, enrolment among them.
      expect((await s.api({ path: '/users/me', token: second.token })).statusCode).toBe(200);
      const status = await s.api({ path: '/users/me/two-factor', token: second.token });
      expect(status.json<TwoFactorStatus>()).toMatchObject({ required: true, totp_enabled: false });
      // Customers are not concerned; the enrolled administrator works on.
      expect(
        (await s.api({ path: '/users/me/two-factor', token: customer.token })).json<TwoFactorStatus>()
          .required,
      ).toBe(false);
      expect((await s.api({ path: '/admin/users', token: first.token })).statusCode).toBe(200);

      await enrolTotp(s, second.token);
      expect((await s.api({ path: '/admin/users', token: second.token })).statusCode).toBe(200);
    } finally {
      expect((await setting(first.token, false)).statusCode).toBe(200);
    }
    expect((await s.api({ path: '/admin/users', token: second.token })).statusCode).toBe(200);
  });
});
