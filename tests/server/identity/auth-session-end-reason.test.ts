import { expect, it } from 'vitest';
import { refreshRefusalSchema, type SessionEndReason } from '../../../src/shared/api/auth.js';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../../src/shared/constants.js';
import { describeOnEveryDatabase, STRONG_PASSWORD } from '../../support/test-server.js';
import { signIn } from '../helpers/admin-helpers.js';
import { expectApiError, refresh } from '../helpers/auth-helpers.js';

/**
 * Issue 16, point 10: a device whose session was ended elsewhere learns why from its refused
 * refresh (`reason`), so the portal can say "You were signed out because …". The code stays the
 * one of any refused refresh token.
 */
describeOnEveryDatabase('auth: a refused refresh says why the session ended', (server) => {
  const refusedBecause = async (refreshToken: string, code = 'invalid_refresh_token') => {
    const answer = await refresh(server(), refreshToken);
    expectApiError(answer, 401, code);
    return refreshRefusalSchema.parse(answer.json()).reason;
  };
  const expectReason = async (refreshToken: string, reason: SessionEndReason | undefined, code?: string) =>
    expect(await refusedBecause(refreshToken, code)).toBe(reason);

  it('signed out on every device, signed out of this session, or the password changed', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'ended');
    const everywhere = await s.login(user.email, STRONG_PASSWORD);
    expect(
      (await s.api({ method: 'POST', path: '/auth/logout-all', token: everywhere.access_token })).statusCode,
    ).toBe(200);
    await expectReason(everywhere.refresh_token, 'signed_out_everywhere');

    const here = await s.login(user.email, STRONG_PASSWORD);
    await s.api({ method: 'POST', path: '/auth/logout', body: { refreshToken: here.refresh_token } });
    await expectReason(here.refresh_token, 'signed_out');

    const other = await s.login(user.email, STRONG_PASSWORD);
    const changing = await s.login(user.email, STRONG_PASSWORD);
    const changed = await s.api({
      method: 'PUT',
      path: '/users/me/password',
      token: changing.access_token,
      body: { current_password: STRONG_PASSWORD, new_password: `${STRONG_PASSWORD}-2` },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await expectReason(other.refresh_token, 'password_changed');
  });

  it('the account disabled or its role changed by an administrator', async () => {
    const s = server();
    const admin = await signIn(s, 'admin', 'reason-admin');
    const disabled = await signIn(s, 'user', 'disabled');
    const disabledSession = await s.login(disabled.email, STRONG_PASSWORD);
    const promoted = await signIn(s, 'user', 'promoted');
    const promotedSession = await s.login(promoted.email, STRONG_PASSWORD);
    const update = (id: string, body: unknown) =>
      s.api({ method: 'PUT', path: `/admin/users/${id}`, token: admin.token, body });
    expect((await update(disabled.id, { status: 'disabled' })).statusCode).toBe(200);
    expect((await update(promoted.id, { role: 'admin' })).statusCode).toBe(200);
    await expectReason(disabledSession.refresh_token, 'account_disabled');
    await expectReason(promotedSession.refresh_token, 'role_changed');
  });

  it('the session reached its end, or its token was used twice', async () => {
    const s = server();
    const user = await signIn(s, 'user', 'expired');
    const old = await s.login(user.email, STRONG_PASSWORD);
    const reused = await s.login(user.email, STRONG_PASSWORD);
    expect((await refresh(s, reused.refresh_token)).statusCode).toBe(200);
    await expectReason(reused.refresh_token, 'session_reused', 'refresh_token_reused');
    // Presented again later, the family revoked for the reuse still says so.
    await expectReason(reused.refresh_token, 'session_reused');

    s.clock.advance(REFRESH_TOKEN_TTL_SECONDS * 1000 + 1000);
    await expectReason(old.refresh_token, 'session_expired');
  });

  it('an unknown token gets no reason', async () => {
    await expectReason('A'.repeat(43), undefined);
  });
});
