import { expect, it } from 'vitest';
import {
  accountSessionListSchema,
  signedOutOthersSchema,
  type TokenResponse,
} from '../../../src/shared/api/auth.js';
import { STRONG_PASSWORD, type TestServer, uniqueEmail } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import { expectApiError, getMe, refresh, securityEvents, userByEmail } from '../helpers/auth-helpers.js';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

/** A sign-in from a browser: its own session. */
async function signInWith(s: TestServer, email: string, userAgent: string, remoteAddress: string) {
  const response = await s.api({
    method: 'POST',
    path: '/auth/login/json',
    body: { email, password: STRONG_PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TokenResponse>();
}

const listSessions = async (s: TestServer, token: string) => {
  const response = await s.api({ path: '/users/me/sessions', token });
  expect(response.statusCode, response.body).toBe(200);
  return accountSessionListSchema.parse(response.json()).data;
};

describeIdentity('the account’s own sessions', (server) => {
  it('lists each live session with its device, address and activity; this one first and marked', async () => {
    const s = server();
    const email = uniqueEmail('sessions-list');
    await s.createVerifiedUser({ email, password: STRONG_PASSWORD });
    const laptop = await signInWith(s, email, CHROME_LINUX, '203.0.113.7');
    s.clock.advance(60_000);
    const desktop = await signInWith(s, email, FIREFOX_WINDOWS, '198.51.100.20');

    const seen = await listSessions(s, laptop.access_token);
    expect(seen.map((session) => [session.device, session.ip, session.current])).toEqual([
      ['Chrome on Linux', '203.0.113.7', true],
      ['Firefox on Windows', '198.51.100.20', false],
    ]);
    // From the other device, that one is current.
    expect((await listSessions(s, desktop.access_token)).find((session) => session.current)?.device).toBe(
      'Firefox on Windows',
    );
    // A session that ended is not listed.
    await s.api({ method: 'POST', path: '/auth/logout', body: { refreshToken: desktop.refresh_token } });
    expect((await listSessions(s, laptop.access_token)).map((session) => session.device)).toEqual([
      'Chrome on Linux',
    ]);
  });

  it('ends one other session: its access stops at once and its refresh is told it was signed out elsewhere', async () => {
    const s = server();
    const email = uniqueEmail('sessions-revoke');
    await s.createVerifiedUser({ email, password: STRONG_PASSWORD });
    const account = await userByEmail(s, email);
    const mine = await signInWith(s, email, CHROME_LINUX, '203.0.113.8');
    const lost = await signInWith(s, email, SAFARI_MAC, '198.51.100.21');
    const lostId = (await listSessions(s, mine.access_token)).find((session) => !session.current)
      ?.id as string;

    const ended = await s.api({
      method: 'DELETE',
      path: `/users/me/sessions/${lostId}`,
      token: mine.access_token,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expectApiError(await getMe(s, lost.access_token), 401, 'invalid_token');
    const refused = await refresh(s, lost.refresh_token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ reason: 'signed_out_elsewhere' });
    expect((await getMe(s, mine.access_token)).statusCode).toBe(200);
    expect(await securityEvents(s, { type: 'session_revoked', userId: account.id })).toHaveLength(1);

    // Again, another account's session, or no session id at all.
    expectApiError(
      await s.api({ method: 'DELETE', path: `/users/me/sessions/${lostId}`, token: mine.access_token }),
      404,
      'session_not_found',
    );
    const stranger = uniqueEmail('sessions-stranger');
    await s.createVerifiedUser({ email: stranger, password: STRONG_PASSWORD });
    const theirs = await signInWith(s, stranger, CHROME_LINUX, '203.0.113.9');
    const theirId = (await listSessions(s, theirs.access_token))[0]?.id as string;
    expectApiError(
      await s.api({ method: 'DELETE', path: `/users/me/sessions/${theirId}`, token: mine.access_token }),
      404,
      'session_not_found',
    );
    expect((await getMe(s, theirs.access_token)).statusCode).toBe(200);
    expect(
      (await s.api({ method: 'DELETE', path: '/users/me/sessions/not-a-session', token: mine.access_token }))
        .statusCode,
    ).toBe(400);
    expectApiError(await s.api({ method: 'GET', path: '/users/me/sessions' }), 401, 'not_authenticated');
  });

  it('signs out everywhere else: every other session ends, this one stays', async () => {
    const s = server();
    const email = uniqueEmail('sessions-others');
    await s.createVerifiedUser({ email, password: STRONG_PASSWORD });
    const account = await userByEmail(s, email);
    const here = await signInWith(s, email, CHROME_LINUX, '203.0.113.10');
    const others = [
      await signInWith(s, email, FIREFOX_WINDOWS, '198.51.100.22'),
      await signInWith(s, email, SAFARI_MAC, '198.51.100.23'),
    ];

    const response = await s.api({
      method: 'POST',
      path: '/auth/logout-others',
      token: here.access_token,
      body: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(signedOutOthersSchema.parse(response.json()).ended).toBe(2);
    for (const other of others) expect((await getMe(s, other.access_token)).statusCode).toBe(401);
    expect((await listSessions(s, here.access_token)).map((session) => session.current)).toEqual([true]);

    // Nothing left to end: said so, and no event recorded for it.
    const again = signedOutOthersSchema.parse(
      (
        await s.api({ method: 'POST', path: '/auth/logout-others', token: here.access_token, body: {} })
      ).json(),
    );
    expect(again).toEqual({ message: 'No other session was signed in', ended: 0 });
    expect(await securityEvents(s, { type: 'session_revoked', userId: account.id })).toHaveLength(1);
  });
});
