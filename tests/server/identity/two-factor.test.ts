import { authMessages } from '../../../src/shared/messages.js';
import { expect, it } from 'vitest';
import type { TwoFactorStatus } from '../../../src/shared/api/two-factor.js';
import { STRONG_PASSWORD } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import { signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, expectTokens, familiesOf, securityEvents } from '../helpers/auth-helpers.js';
import { enrolTotp, passwordStep, secondStep, toNextStep, totpCode } from '../helpers/two-factor-helpers.js';

let addressSequence = 0;
/** A client address of its own for each use, so lockouts never leak between tests. */
const freshAddress = () => {
  addressSequence += 1;
  return `10.7.${Math.floor(addressSequence / 250)}.${(addressSequence % 250) + 1}`;
};

describeIdentity('two-factor sign-in with an authenticator app', (server) => {
  it('enrols with a QR code and a first code, then signs in in two steps: no tokens before the code', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const before = await s.api({ path: '/users/me/two-factor', token: user.token });
    expect(before.json<TwoFactorStatus>()).toEqual({
      totp_enabled: false,
      totp_pending: false,
      recovery_codes_left: 0,
      passkeys: 0,
      required: false,
    });

    const started = await s.api({
      method: 'POST',
      path: '/users/me/two-factor/totp',
      token: user.token,
      body: {},
    });
    expect(started.statusCode, started.body).toBe(200);
    const enrolment = started.json<{ secret: string; otpauth_uri: string; qr_svg: string }>();
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(enrolment.otpauth_uri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const pending = await s.api({ path: '/users/me/two-factor', token: user.token });
    expect(pending.json<TwoFactorStatus>()).toMatchObject({ totp_enabled: false, totp_pending: true });
    // Until confirmed, the password alone still signs in.
    expectTokens(
      await s.api({
        method: 'POST',
        path: '/auth/login/json',
        body: { email: user.email, password: STRONG_PASSWORD },
      }),
    );

    // The secret is stored encrypted, never as it was shown.
    const row = await s.app.db
      .selectFrom('totp_authenticators')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_ciphertext).not.toContain(enrolment.secret);

    expectApiError(
      await s.api({
        method: 'POST',
        path: '/users/me/two-factor/totp/confirm',
        token: user.token,
        body: { code: '000000' === totpCode(enrolment.secret, s.clock.now()) ? '111111' : '000000' },
      }),
      400,
      'invalid_code',
    );
    const confirmed = await s.api({
      method: 'POST',
      path: '/users/me/two-factor/totp/confirm',
      token: user.token,
      body: { code: totpCode(enrolment.secret, s.clock.now()) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    // Stored hashed only.
    const stored = await s.app.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored)
      for (const code of codes) expect(code_hash).not.toContain(code.replace('-', ''));
    expect((await securityEvents(s, { type: 'two_factor_enabled', userId: user.id })).length).toBe(1);
    expectApiError(
      await s.api({ method: 'POST', path: '/users/me/two-factor/totp', token: user.token, body: {} }),
      409,
      'totp_already_enabled',
    );

    const step = await passwordStep(s, user.email, STRONG_PASSWORD);
    expect(step).toMatchObject({ methods: ['totp', 'recovery_code'], expires_in: 300 });
    expect(step).not.toHaveProperty('access_token');
    expect(step).not.toHaveProperty('refresh_token');
    // The code of the confirmation was spent: the next step's code signs in.
    toNextStep(s);
    const tokens = expectTokens(
      await secondStep(s, { challenge: step.challenge, code: totpCode(enrolment.secret, s.clock.now()) }),
    );
    expect((await s.api({ path: '/users/me', token: tokens.access_token })).statusCode).toBe(200);
    const newest = (await familiesOf(s, user.id)).at(-1);
    expect(JSON.parse(newest?.methods ?? '[]')).toEqual(['pwd', 'otp']);
    // The form sign-in asks for the second step too.
    const form = await s.api({
      method: 'POST',
      path: '/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: user.email, password: STRONG_PASSWORD }).toString(),
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json()).toMatchObject({ second_factor_required: true });
  });

  it('refuses a code replayed within its window, and an older code after a newer one, and lets one of two concurrent uses through', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const { secret } = await enrolTotp(s, user.token);
    toNextStep(s);
    const code = totpCode(secret, s.clock.now());
    const first = await passwordStep(s, user.email, STRONG_PASSWORD);
    expectTokens(await secondStep(s, { challenge: first.challenge, code }));
    const second = await passwordStep(s, user.email, STRONG_PASSWORD);
    expectApiError(await secondStep(s, { challenge: second.challenge, code }), 401, 'invalid_code');
    // The previous step's code is still inside the drift window, but older than the one used.
    const previous = totpCode(secret, new Date(s.clock.now().getTime() - 30_000));
    expectApiError(await secondStep(s, { challenge: second.challenge, code: previous }), 401, 'invalid_code');

    toNextStep(s);
    const fresh = totpCode(secret, s.clock.now());
    const [a, b] = await Promise.all([
      passwordStep(s, user.email, STRONG_PASSWORD),
      passwordStep(s, user.email, STRONG_PASSWORD),
    ]);
    const answers = await Promise.all([
      secondStep(s, { challenge: a.challenge, code: fresh }),
      secondStep(s, { challenge: b.challenge, code: fresh }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
  });

  it('takes each recovery code once, even when two requests race with it, and a new set replaces the old', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const { recoveryCodes } = await enrolTotp(s, user.token);
    const [firstCode, secondCode, thirdCode] = recoveryCodes as [string, string, string];

    const step = await passwordStep(s, user.email, STRONG_PASSWORD);
    // Typed in capitals and without the dash, it is the same code.
    expectTokens(
      await secondStep(s, {
        challenge: step.challenge,
        recovery_code: firstCode.toUpperCase().replace('-', ''),
      }),
    );
    const again = await passwordStep(s, user.email, STRONG_PASSWORD);
    expectApiError(
      await secondStep(s, { challenge: again.challenge, recovery_code: firstCode }),
      401,
      'invalid_code',
    );
    expect((await securityEvents(s, { type: 'recovery_code_used', userId: user.id })).length).toBe(1);

    const [a, b] = await Promise.all([
      passwordStep(s, user.email, STRONG_PASSWORD),
      passwordStep(s, user.email, STRONG_PASSWORD),
    ]);
    const answers = await Promise.all([
      secondStep(s, { challenge: a.challenge, recovery_code: secondCode }),
      secondStep(s, { challenge: b.challenge, recovery_code: secondCode }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    const status = await s.api({ path: '/users/me/two-factor', token: user.token });
    expect(status.json<TwoFactorStatus>().recovery_codes_left).toBe(8);

    const renewed = await s.api({
      method: 'POST',
      path: '/users/me/two-factor/recovery-codes',
      token: user.token,
      body: {},
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json<{ recovery_codes: string[] }>().recovery_codes).toHaveLength(10);
    const old = await passwordStep(s, user.email, STRONG_PASSWORD);
    expectApiError(
      await secondStep(s, { challenge: old.challenge, recovery_code: thirdCode }),
      401,
      'invalid_code',
    );
  });

  it('counts wrong codes in the sign-in lockout, and a challenge dies after five wrong answers', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const { secret } = await enrolTotp(s, user.token);
    toNextStep(s);
    const right = totpCode(secret, s.clock.now());
    const wrong = right === '123456' ? '654321' : '123456';

    // From one address: five wrong codes lock the pair, as five wrong passwords would.
    const attacker = freshAddress();
    const step = await passwordStep(s, user.email, STRONG_PASSWORD, attacker);
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expectApiError(
        await secondStep(s, { challenge: step.challenge, code: wrong }, attacker),
        401,
        'invalid_code',
      );
    expectApiError(
      await secondStep(s, { challenge: step.challenge, code: wrong }, attacker),
      429,
      'account_locked',
    );
    // That challenge has had its five wrong answers: it is dead, the right code too late.
    expectApiError(
      await secondStep(s, { challenge: step.challenge, code: right }, attacker),
      401,
      'challenge_expired',
    );
    // The right password does not reset the count of wrong codes: the pair stays locked.
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/auth/login/json',
        body: { email: user.email, password: STRONG_PASSWORD },
        remoteAddress: attacker,
      }),
      429,
      'account_locked',
    );
    expect((await securityEvents(s, { type: 'second_factor_failed', userId: user.id })).length).toBe(5);

    // Spread over addresses, the challenge itself dies after five wrong answers.
    const spread = await passwordStep(s, user.email, STRONG_PASSWORD, freshAddress());
    for (let attempt = 1; attempt <= 5; attempt += 1)
      expectApiError(
        await secondStep(s, { challenge: spread.challenge, code: wrong }, freshAddress()),
        401,
        'invalid_code',
      );
    expectApiError(
      await secondStep(s, { challenge: spread.challenge, code: right }, freshAddress()),
      401,
      'challenge_expired',
    );
  });

  it('lets a challenge wait five minutes, no longer, and refuses unknown challenges and bad input', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const { secret } = await enrolTotp(s, user.token);
    const step = await passwordStep(s, user.email, STRONG_PASSWORD);
    s.clock.advance(5 * 60 * 1000 + 1000);
    const expired = expectApiError(
      await secondStep(s, { challenge: step.challenge, code: totpCode(secret, s.clock.now()) }),
      401,
      'challenge_expired',
    );
    // It began with the password, and says to start there again.
    expect(expired.message).toBe(authMessages.signInExpiredPassword);
    expectApiError(
      await secondStep(s, { challenge: 'x'.repeat(43), code: '123456' }),
      401,
      'challenge_expired',
    );

    const live = await passwordStep(s, user.email, STRONG_PASSWORD);
    for (const body of [
      { challenge: live.challenge, code: '12345' },
      { challenge: live.challenge, code: 'abcdef' },
      { challenge: live.challenge },
      { challenge: live.challenge, code: '123456', recovery_code: 'abcde-fghjk' },
      { challenge: live.challenge, recovery_code: '!!' },
      { code: '123456' },
    ])
      expectApiError(await secondStep(s, body as { challenge: string }), 400, 'validation_error');
    // The challenge survived the bad input.
    toNextStep(s);
    expectTokens(await secondStep(s, { challenge: live.challenge, code: totpCode(secret, s.clock.now()) }));
    // And works once.
    toNextStep(s);
    expectApiError(
      await secondStep(s, { challenge: live.challenge, code: totpCode(secret, s.clock.now()) }),
      401,
      'challenge_expired',
    );
  });

  it('removes the app only with a fresh code, after which the password alone signs in again', async () => {
    const s = server();
    s.clock.freeze();
    const user = await signInAsUser(s);
    const { secret } = await enrolTotp(s, user.token);
    toNextStep(s);
    const right = totpCode(secret, s.clock.now());
    expectApiError(
      await s.api({
        method: 'DELETE',
        path: '/users/me/two-factor/totp',
        token: user.token,
        body: { code: right === '123456' ? '654321' : '123456' },
      }),
      400,
      'invalid_code',
    );
    expectApiError(
      await s.api({ method: 'DELETE', path: '/users/me/two-factor/totp', token: user.token, body: {} }),
      400,
      'validation_error',
    );
    const removed = await s.api({
      method: 'DELETE',
      path: '/users/me/two-factor/totp',
      token: user.token,
      body: { code: right },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await securityEvents(s, { type: 'two_factor_disabled', userId: user.id })).length).toBe(1);
    const status = await s.api({ path: '/users/me/two-factor', token: user.token });
    expect(status.json<TwoFactorStatus>()).toMatchObject({ totp_enabled: false, recovery_codes_left: 0 });
    expectTokens(
      await s.api({
        method: 'POST',
        path: '/auth/login/json',
        body: { email: user.email, password: STRONG_PASSWORD },
      }),
    );
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/users/me/two-factor/recovery-codes',
        token: user.token,
        body: {},
      }),
      409,
      'two_factor_not_enabled',
    );
  });
});
