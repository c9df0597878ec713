import { expect, it } from 'vitest';
import { describeIdentity } from './identity-server.js';
import {
  expectApiError,
  expectTokens,
  familiesOf,
  getMe,
  loginJson,
  refresh,
  securityEvents,
} from '../helpers/auth-helpers.js';

describeIdentity('auth: POST /auth/logout-all signs out on every device', (server) => {
  it('ends every session of the caller, this one included, and nobody else’s', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const here = await s.login(email, password);
    const laptop = await s.login(email, password);
    const someoneElse = await s.createVerifiedUser();
    const theirs = await s.login(someoneElse.email, someoneElse.password);

    const answer = await s.api({ method: 'POST', path: '/auth/logout-all', token: here.access_token });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: 'Signed out on every device' });

    for (const session of [here, laptop]) {
      expectApiError(await getMe(s, session.access_token), 401, 'invalid_token');
      expectApiError(await refresh(s, session.refresh_token), 401, 'invalid_refresh_token');
    }
    expect((await familiesOf(s, here.user.id)).map((family) => family.revoked_reason)).toEqual([
      'logout_everywhere',
      'logout_everywhere',
    ]);
    expect(await securityEvents(s, { type: 'signed_out_everywhere', userId: here.user.id })).toHaveLength(1);

    // The other account is untouched, and the password still works for a new sign-in.
    expect((await getMe(s, theirs.access_token)).statusCode).toBe(200);
    expectTokens(await refresh(s, theirs.refresh_token));
    expect((await getMe(s, expectTokens(await loginJson(s, email, password)).access_token)).statusCode).toBe(
      200,
    );
  });

  it('needs a valid bearer token: anonymous and stale tokens get 401 and nothing is revoked', async () => {
    const s = server();
    expectApiError(await s.api({ method: 'POST', path: '/auth/logout-all' }), 401, 'not_authenticated');
    expectApiError(
      await s.api({ method: 'POST', path: '/auth/logout-all', token: 'not.a.jwt' }),
      401,
      'invalid_token',
    );
    const { email, password } = await s.createVerifiedUser();
    const session = await s.login(email, password);
    // It takes no body: anything in one is refused before any session ends.
    expect(
      (
        await s.api({
          method: 'POST',
          path: '/auth/logout-all',
          token: session.access_token,
          body: { keep: 'this device' },
        })
      ).statusCode,
    ).toBe(400);
    expect((await getMe(s, session.access_token)).statusCode).toBe(200);
    expect(
      (await s.api({ method: 'POST', path: '/auth/logout-all', token: session.access_token })).statusCode,
    ).toBe(200);
    // The token it ended cannot end anything again.
    expectApiError(
      await s.api({ method: 'POST', path: '/auth/logout-all', token: session.access_token }),
      401,
      'invalid_token',
    );
    expect(await securityEvents(s, { type: 'signed_out_everywhere', userId: session.user.id })).toHaveLength(
      1,
    );
  });
});
