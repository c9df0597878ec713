import { expect, it } from 'vitest';
import type { PasskeyCeremony, Passkey, PasskeyList } from '../../../src/shared/api/passkeys.js';
import { STRONG_PASSWORD, type TestServer } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import {
  expectApiError,
  expectTokens,
  familiesOf,
  securityEvents,
  userByEmail,
} from '../helpers/auth-helpers.js';
import { createSoftAuthenticator, type SoftAuthenticator } from './soft-authenticator.js';

/**
 * Passkeys end to end over the API with real WebAuthn bytes: a software authenticator registers
 * and signs, and every refusal is of an answer it really signed (wrong origin, RP id, counter).
 */

const HERE = { origin: 'http://portal.test', rpId: 'portal.test' };

interface Account {
  id: string;
  email: string;
  token: string;
  authenticator: SoftAuthenticator;
}

async function newAccount(s: TestServer): Promise<Account> {
  const { email, password } = await s.createVerifiedUser();
  const tokens = await s.login(email, password);
  return { id: tokens.user.id, email, token: tokens.access_token, authenticator: createSoftAuthenticator() };
}

async function registrationOptions(s: TestServer, account: Account): Promise<PasskeyCeremony> {
  const response = await s.api({ method: 'POST', path: '/users/me/passkeys/options', token: account.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PasskeyCeremony>();
}

const finishRegistration = (s: TestServer, account: Account, body: unknown) =>
  s.api({ method: 'POST', path: '/users/me/passkeys', token: account.token, body });

/** Registers a passkey made by the account's authenticator and answers it. */
async function addPasskey(s: TestServer, account: Account, name = 'Laptop', counter = 0): Promise<Passkey> {
  const { ceremony, options } = await registrationOptions(s, account);
  const { response } = account.authenticator.register(
    options as { challenge: string; user: { id: string } },
    HERE,
    counter,
  );
  const finished = await finishRegistration(s, account, { ceremony, name, response });
  expect(finished.statusCode, finished.body).toBe(201);
  return finished.json<Passkey>();
}

async function signInOptions(s: TestServer, body: unknown = {}): Promise<PasskeyCeremony> {
  const response = await s.api({ method: 'POST', path: '/auth/passkeys/options', body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PasskeyCeremony>();
}

const signIn = (s: TestServer, body: unknown, remoteAddress?: string) =>
  s.api({ method: 'POST', path: '/auth/passkeys/login', body, ...(remoteAddress ? { remoteAddress } : {}) });

const listPasskeys = async (s: TestServer, account: Account) =>
  (await s.api({ path: '/users/me/passkeys', token: account.token })).json<PasskeyList>().data;

/** The password step of an account with a passkey: it answers a challenge for the second factor. */
async function secondFactorChallenge(s: TestServer, account: Account): Promise<string> {
  const response = await s.api({
    method: 'POST',
    path: '/auth/login/json',
    body: { email: account.email, password: STRONG_PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json<{ second_factor_required: boolean; challenge: string; methods: string[] }>();
  expect(answer).toMatchObject({ second_factor_required: true, methods: ['passkey'] });
  return answer.challenge;
}

describeIdentity('passkeys', (server) => {
  it('registers a named passkey, lists it, and signs in with it without an e-mail or password', async () => {
    const s = server();
    const account = await newAccount(s);
    const added = await addPasskey(s, account, 'Work laptop');
    expect(added).toMatchObject({ name: 'Work laptop', last_used_at: null, device_type: 'singleDevice' });
    expect(await securityEvents(s, { type: 'passkey_added', userId: account.id })).toHaveLength(1);

    const { ceremony, options } = await signInOptions(s);
    // Usernameless: the browser offers whichever passkey of this site the person picks.
    expect(options.allowCredentials).toEqual([]);
    expect(options.rpId).toBe('portal.test');
    const tokens = expectTokens(
      await signIn(s, { ceremony, response: account.authenticator.assert(options, HERE) }),
    );
    expect(tokens.user.email).toBe(account.email);

    const [listed] = await listPasskeys(s, account);
    expect(listed?.last_used_at).not.toBeNull();
    const families = await familiesOf(s, account.id);
    expect(JSON.parse(families.at(-1)?.methods ?? '[]')).toEqual(['webauthn']);
    const [event] = (await securityEvents(s, { type: 'login_succeeded', userId: account.id })).slice(-1);
    expect(JSON.parse(event?.details ?? '{}')).toEqual({ methods: ['webauthn'] });
  });

  it('refuses an assertion made on another origin or for another RP id, and a registration alike', async () => {
    const s = server();
    const account = await newAccount(s);
    await addPasskey(s, account);

    let { ceremony, options } = await signInOptions(s);
    const elsewhere = account.authenticator.assert(options, { ...HERE, origin: 'https://evil.example' });
    expectApiError(await signIn(s, { ceremony, response: elsewhere }), 400, 'passkey_wrong_origin');

    ({ ceremony, options } = await signInOptions(s));
    const otherRp = account.authenticator.assert(options, { ...HERE, rpId: 'evil.example' });
    expectApiError(await signIn(s, { ceremony, response: otherRp }), 400, 'passkey_wrong_rp_id');
    // The desktop shell's pages are not an origin of these passkeys.
    ({ ceremony, options } = await signInOptions(s));
    const desktop = account.authenticator.assert(options, { ...HERE, origin: 'app://portal' });
    expectApiError(await signIn(s, { ceremony, response: desktop }), 400, 'passkey_wrong_origin');
    const failures = await securityEvents(s, { type: 'login_failed', userId: account.id });
    expect(failures.map((row) => JSON.parse(row.details ?? '{}').reason)).toEqual([
      'passkey_wrong_origin',
      'passkey_wrong_rp_id',
      'passkey_wrong_origin',
    ]);

    for (const [place, code] of [
      [{ ...HERE, origin: 'https://evil.example' }, 'passkey_wrong_origin'],
      [{ ...HERE, rpId: 'evil.example' }, 'passkey_wrong_rp_id'],
    ] as const) {
      const registration = await registrationOptions(s, account);
      const { response } = account.authenticator.register(
        registration.options as { challenge: string; user: { id: string } },
        place,
      );
      expectApiError(
        await finishRegistration(s, account, { ceremony: registration.ceremony, name: 'Bad', response }),
        400,
        code,
      );
    }
    expect(await listPasskeys(s, account)).toHaveLength(1);
  });

  it('uses a ceremony once: a replayed challenge is refused, and of two concurrent uses one wins', async () => {
    const s = server();
    const account = await newAccount(s);
    await addPasskey(s, account);
    const { ceremony, options } = await signInOptions(s);
    expectTokens(await signIn(s, { ceremony, response: account.authenticator.assert(options, HERE) }));
    // The same ceremony again, even with a fresh signature over its challenge.
    expectApiError(
      await signIn(s, { ceremony, response: account.authenticator.assert(options, HERE) }),
      400,
      'passkey_ceremony_expired',
    );

    const race = await signInOptions(s);
    const first = account.authenticator.assert(race.options, HERE);
    const second = account.authenticator.assert(race.options, HERE);
    const answers = await Promise.all([
      signIn(s, { ceremony: race.ceremony, response: first }),
      signIn(s, { ceremony: race.ceremony, response: second }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);

    // A ceremony expires with time too.
    const late = await signInOptions(s);
    s.clock.advance(6 * 60_000);
    expectApiError(
      await signIn(s, {
        ceremony: late.ceremony,
        response: account.authenticator.assert(late.options, HERE),
      }),
      400,
      'passkey_ceremony_expired',
    );
  });

  it('refuses a counter that does not move forward, with a critical event', async () => {
    const s = server();
    const account = await newAccount(s);
    const passkey = await addPasskey(s, account, 'Key', 5);
    let { ceremony, options } = await signInOptions(s);
    expectTokens(await signIn(s, { ceremony, response: account.authenticator.assert(options, HERE) })); // 6

    for (const counter of [3, 6]) {
      ({ ceremony, options } = await signInOptions(s));
      const cloned = account.authenticator.assert(options, HERE, { counter });
      expectApiError(await signIn(s, { ceremony, response: cloned }), 401, 'passkey_counter_not_increased');
    }
    const events = await securityEvents(s, { type: 'passkey_counter_regressed', userId: account.id });
    expect(events.map((row) => [row.severity, JSON.parse(row.details ?? '{}')])).toEqual([
      ['critical', { passkey_id: passkey.id, stored_counter: 6, received_counter: 3 }],
      ['critical', { passkey_id: passkey.id, stored_counter: 6, received_counter: 6 }],
    ]);
    ({ ceremony, options } = await signInOptions(s));
    expectTokens(
      await signIn(s, { ceremony, response: account.authenticator.assert(options, HERE, { counter: 7 }) }),
    );
  });

  it('completes a password sign-in as its second factor, only with that account’s own passkey', async () => {
    const s = server();
    const owner = await newAccount(s);
    const stranger = await newAccount(s);
    await addPasskey(s, owner);
    await addPasskey(s, stranger);
    const challenge = await secondFactorChallenge(s, owner);

    const { ceremony, options } = await signInOptions(s, { challenge });
    const allowed = options.allowCredentials as { id: string }[];
    expect(allowed.map((credential) => credential.id)).toEqual([
      owner.authenticator.credentials[0]?.id.toString('base64url'),
    ]);
    // The stranger's passkey signs this ceremony's challenge: still not the owner's factor.
    expectApiError(
      await signIn(s, { challenge, ceremony, response: stranger.authenticator.assert(options, HERE) }),
      401,
      'passkey_not_recognised',
    );

    const again = await signInOptions(s, { challenge });
    const tokens = expectTokens(
      await signIn(s, {
        challenge,
        ceremony: again.ceremony,
        response: owner.authenticator.assert(again.options, HERE),
      }),
    );
    expect(tokens.user.id).toBe(owner.id);
    expect(JSON.parse((await familiesOf(s, owner.id)).at(-1)?.methods ?? '[]')).toEqual(['pwd', 'webauthn']);

    // The second-factor challenge is spent.
    expectApiError(
      await s.api({ method: 'POST', path: '/auth/passkeys/options', body: { challenge } }),
      401,
      'challenge_expired',
    );
    // A passwordless ceremony cannot stand in for a second factor's (nor the reverse).
    const passwordless = await signInOptions(s);
    const fresh = await secondFactorChallenge(s, owner);
    expectApiError(
      await signIn(s, {
        challenge: fresh,
        ceremony: passwordless.ceremony,
        response: owner.authenticator.assert(passwordless.options, HERE),
      }),
      400,
      'passkey_ceremony_expired',
    );
  });

  it('renames and removes a passkey; a removed passkey signs in no more; others cannot touch it', async () => {
    const s = server();
    const account = await newAccount(s);
    const other = await newAccount(s);
    const passkey = await addPasskey(s, account);

    const renamed = await s.api({
      method: 'PATCH',
      path: `/users/me/passkeys/${passkey.id}`,
      token: account.token,
      body: { name: '  Phone  ' },
    });
    expect(renamed.json<Passkey>().name).toBe('Phone');
    expectApiError(
      await s.api({
        method: 'PATCH',
        path: `/users/me/passkeys/${passkey.id}`,
        token: account.token,
        body: { name: ' ' },
      }),
      400,
      'validation_error',
    );
    expectApiError(
      await s.api({ method: 'DELETE', path: `/users/me/passkeys/${passkey.id}`, token: other.token }),
      404,
      'passkey_not_found',
    );

    const removed = await s.api({
      method: 'DELETE',
      path: `/users/me/passkeys/${passkey.id}`,
      token: account.token,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await listPasskeys(s, account)).toEqual([]);
    expect(await securityEvents(s, { type: 'passkey_removed', userId: account.id })).toHaveLength(1);

    const { ceremony, options } = await signInOptions(s);
    expectApiError(
      await signIn(s, { ceremony, response: account.authenticator.assert(options, HERE) }),
      401,
      'passkey_not_recognised',
    );
  });

  it('asks the authenticator not to make a second passkey, and refuses a disabled or unconfirmed account like the password sign-in', async () => {
    const s = server();
    const account = await newAccount(s);
    await addPasskey(s, account);
    const { ceremony, options } = await registrationOptions(s, account);
    expect((options.excludeCredentials as unknown[]).length).toBe(1);

    await s.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', account.id).execute();
    const signInAttempt = await signInOptions(s);
    expectApiError(
      await signIn(s, {
        ceremony: signInAttempt.ceremony,
        response: account.authenticator.assert(signInAttempt.options, HERE),
      }),
      403,
      'account_disabled',
    );
    await s.app.db
      .updateTable('users')
      .set({ status: 'active', email_verified_at: null })
      .where('id', '=', account.id)
      .execute();
    const unconfirmed = await signInOptions(s);
    expectApiError(
      await signIn(s, {
        ceremony: unconfirmed.ceremony,
        response: account.authenticator.assert(unconfirmed.options, HERE),
      }),
      403,
      'email_not_verified',
    );
    expect(ceremony).not.toBe('');
  });

  it('counts failed passkey answers against the account’s sign-in throttle', async () => {
    const s = server();
    const account = await newAccount(s);
    await addPasskey(s, account);
    const user = await userByEmail(s, account.email);
    const ip = '203.0.113.77';
    // The lockout threshold is 5 failures per account and address.
    for (let attempt = 0; attempt < 5; attempt++) {
      const { ceremony, options } = await signInOptions(s);
      const wrong = account.authenticator.assert(options, { ...HERE, origin: 'https://evil.example' });
      expectApiError(await signIn(s, { ceremony, response: wrong }, ip), 400, 'passkey_wrong_origin');
    }
    const { ceremony, options } = await signInOptions(s);
    expectApiError(
      await signIn(s, { ceremony, response: account.authenticator.assert(options, HERE) }, ip),
      429,
      'account_locked',
    );
    expect(await securityEvents(s, { type: 'account_locked', userId: user.id })).not.toHaveLength(0);
  });

  it('proves a session again with a passkey (step-up)', async () => {
    const s = server();
    const account = await newAccount(s);
    expectApiError(
      await s.api({ method: 'POST', path: '/auth/step-up/passkey-options', token: account.token }),
      400,
      'no_passkeys',
    );
    await addPasskey(s, account);
    const started = await s.api({
      method: 'POST',
      path: '/auth/step-up/passkey-options',
      token: account.token,
    });
    const { ceremony, options } = started.json<PasskeyCeremony>();
    const done = await s.api({
      method: 'POST',
      path: '/auth/step-up/passkey',
      token: account.token,
      body: { ceremony, response: account.authenticator.assert(options, HERE) },
    });
    expect(done.statusCode, done.body).toBe(200);
    const families = await familiesOf(s, account.id);
    expect(families.some((family) => family.stepped_up_at !== null)).toBe(true);
  });

  it('removes a passkey only after a recent sign-in or step-up, which a passkey can give', async () => {
    const s = server();
    const account = await newAccount(s);
    const passkey = await addPasskey(s, account);
    const remove = () =>
      s.api({ method: 'DELETE', path: `/users/me/passkeys/${passkey.id}`, token: account.token });
    // The sign-in was eleven minutes ago: longer than a sensitive change allows.
    await s.app.db
      .updateTable('refresh_token_families')
      .set({ authenticated_at: new Date(s.clock.now().getTime() - 11 * 60_000).toISOString() })
      .where('user_id', '=', account.id)
      .execute();
    expectApiError(await remove(), 403, 'step_up_required');

    const started = await s.api({
      method: 'POST',
      path: '/auth/step-up/passkey-options',
      token: account.token,
    });
    const { ceremony, options } = started.json<PasskeyCeremony>();
    const stepped = await s.api({
      method: 'POST',
      path: '/auth/step-up/passkey',
      token: account.token,
      body: { ceremony, response: account.authenticator.assert(options, HERE) },
    });
    expect(stepped.statusCode, stepped.body).toBe(200);
    expect((await remove()).statusCode).toBe(204);
  });
});
