import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { organisationDomainSchema } from '../../../src/shared/api/organisation-domains.js';
import { authMessages } from '../../../src/shared/messages.js';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import {
  organisationSsoAnswerSchema,
  ssoDiscoverySchema,
  ssoRedirectSchema,
  ssoSecondFactorSchema,
  ssoSignInSchema,
} from '../../../src/shared/api/organisation-sso.js';
import type { PasskeyCeremony } from '../../../src/shared/api/passkeys.js';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import { startDnsServer } from '../../support/dns-server.js';
import { tokenFromMail } from '../../support/outbox.js';
import { createSoftAuthenticator, type SoftAuthenticator } from '../identity/soft-authenticator.js';
import { startOidcProvider, type TestOidcProvider } from '../../support/oidc-provider.js';
import { describeOnEveryDatabase, STRONG_PASSWORD, type TestServer } from '../../support/test-server.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import { enrolTotp, secondStep, toNextStep, totpCode } from '../helpers/two-factor-helpers.js';
import { createPlan, machine, type Member, member } from '../helpers/license-helpers.js';
import { join, membershipOf, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

// A real DNS server and two real OpenID providers (oidc-provider) on loopback: the server proves
// domains through the one and signs people in through the others as it would through any.
const CALLBACK = 'http://portal.test/api/v1/auth/sso/callback';
const dns = await startDnsServer();
const providerA = await startOidcProvider({ redirectUris: [CALLBACK] });
const providerB = await startOidcProvider({ redirectUris: [CALLBACK], clientId: 'portal-b' });
afterAll(async () => {
  await Promise.all([dns.close(), providerA.close(), providerB.close()]);
});

const uniqueDomain = () => `corp-${randomBytes(4).toString('hex')}.example`;

interface SsoOrganisation {
  id: string;
  name: string;
  owner: Member;
  domain: string;
}

/** Proves `domain` for the organisation through the test DNS server, as its owner. */
async function verifyDomain(s: TestServer, owner: Member, organisationId: string, domain: string) {
  const added = await s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/domains`,
    token: owner.token,
    body: { domain },
  });
  const claim = organisationDomainSchema.parse(added.json());
  dns.setTxt(claim.record_name, [[claim.record_value]]);
  const checked = await s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/domains/${claim.id}/verify`,
    token: owner.token,
  });
  expect(organisationDomainSchema.parse(checked.json()).status).toBe('verified');
}

const putSso = (s: TestServer, who: Member, organisationId: string, body: Record<string, unknown>) =>
  s.api({ method: 'PUT', path: `/organisations/${organisationId}/sso`, token: who.token, body });

const ssoBody = (provider: TestOidcProvider, more: Record<string, unknown> = {}) => ({
  issuer: provider.issuer,
  client_id: provider.clientId,
  client_secret: provider.clientSecret,
  scopes: 'openid email profile groups',
  group_claim: 'groups',
  role_mapping: [{ group: 'portal-admins', role: 'admin' }],
  ...more,
});

/** An organisation with `seats` seats (the owner holds one), a verified domain and `provider` set up. */
async function ssoOrganisation(
  s: TestServer,
  provider: TestOidcProvider,
  { seats = 3, requireSso = false, plan }: { seats?: number; requireSso?: boolean; plan?: PlanRow } = {},
): Promise<SsoOrganisation> {
  const owner = await member(s);
  const org = await seatOrganisation(s, owner, seats, plan);
  const domain = uniqueDomain();
  await verifyDomain(s, owner, org.id, domain);
  const put = await putSso(s, owner, org.id, ssoBody(provider, { require_sso: requireSso }));
  expect(put.statusCode, put.body).toBe(200);
  return { id: org.id, name: org.name, owner, domain };
}

const cookieOf = (response: LightMyRequestResponse) => {
  const cookie = response.cookies.find((candidate) => candidate.name.endsWith('dap_sso_browser'));
  expect(cookie, 'the start sets the browser cookie').toBeDefined();
  return `${cookie!.name}=${cookie!.value}`;
};

/** POST /auth/sso/start: where to send the browser, and the cookie it now holds. */
async function start(s: TestServer, body: Record<string, unknown>, cookie?: string) {
  const response = await s.api({
    method: 'POST',
    path: '/auth/sso/start',
    body,
    ...(cookie ? { headers: { cookie } } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return { url: ssoRedirectSchema.parse(response.json()).authorization_url, cookie: cookieOf(response) };
}

/** The provider's redirect back, as the browser follows it (no API key; its cookie when given). */
async function callback(s: TestServer, back: URL, cookie: string | undefined) {
  const response = await s.api({
    path: `/auth/sso/callback${back.search}`,
    withoutApiKey: true,
    ...(cookie ? { headers: { cookie } } : {}),
  });
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(response.headers.location as string);
  return { location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

/** A whole sign-in through `provider` for `email`: start, provider, callback; the hand-over code. */
async function signInThrough(
  s: TestServer,
  provider: TestOidcProvider,
  email: string,
  startWith: Record<string, unknown> = { email },
) {
  const begun = await start(s, startWith);
  const back = await provider.authorize(begun.url);
  return { ...(await callback(s, back, begun.cookie)), back, cookie: begun.cookie };
}

const complete = (s: TestServer, code: string) =>
  s.api({ method: 'POST', path: '/auth/sso/complete', body: { code } });

// The passkeys' relying party: the test server's public URL.
const HERE = { origin: 'http://portal.test', rpId: 'portal.test' };

/** An account of `email` (made directly), signed in, with a passkey of its own authenticator. */
async function accountWithPasskey(s: TestServer, email: string, role: 'user' | 'admin' = 'user') {
  const user = await s.app.authService.createAccount({
    email,
    password: STRONG_PASSWORD,
    role,
    verified: true,
  });
  const token = (await s.login(email, STRONG_PASSWORD)).access_token;
  const authenticator = createSoftAuthenticator();
  const options = await s.api({ method: 'POST', path: '/users/me/passkeys/options', token });
  const { ceremony, options: creation } = options.json<PasskeyCeremony>();
  const { response } = authenticator.register(
    creation as { challenge: string; user: { id: string } },
    HERE,
    0,
  );
  const added = await s.api({
    method: 'POST',
    path: '/users/me/passkeys',
    token,
    body: { ceremony, name: 'Laptop', response },
  });
  expect(added.statusCode, added.body).toBe(201);
  return { id: user.id, email, authenticator };
}

/** A usernameless passkey sign-in with the authenticator's passkey. */
async function passkeySignIn(s: TestServer, authenticator: SoftAuthenticator) {
  const started = await s.api({ method: 'POST', path: '/auth/passkeys/options', body: {} });
  const { ceremony, options } = started.json<PasskeyCeremony>();
  return s.api({
    method: 'POST',
    path: '/auth/passkeys/login',
    body: { ceremony, response: authenticator.assert(options, HERE) },
  });
}

/** Asks for a reset link for `email` and answers the token mailed for it. */
async function resetToken(s: TestServer, email: string): Promise<string> {
  const asked = await s.api({ method: 'POST', path: '/auth/forgot-password', body: { email } });
  expect(asked.statusCode).toBe(202);
  return tokenFromMail(await s.lastMailTo(email));
}

const resetPassword = (s: TestServer, token: string) =>
  s.api({
    method: 'POST',
    path: '/auth/reset-password',
    body: { token, new_password: 'a completely different passphrase 2026' },
  });

describeOnEveryDatabase(
  'Single sign-on through an organisation’s OpenID provider',
  (server) => {
    it('is set up by owners and admins once a domain is verified; the secret is kept encrypted and never answered', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 3);
      const admin = await join(s, org, { role: 'admin' });
      const plain = await join(s, org, { role: 'member' });
      const outsider = await member(s);

      expectApiError(await putSso(s, owner, org.id, ssoBody(providerA)), 409, 'domain_not_verified');
      await verifyDomain(s, owner, org.id, uniqueDomain());

      expectApiError(await putSso(s, plain, org.id, ssoBody(providerA)), 403, 'organisation_admin_required');
      expectApiError(await putSso(s, outsider, org.id, ssoBody(providerA)), 404, 'organisation_not_found');
      // Bad input: a clear 400 each, nothing saved.
      for (const body of [
        ssoBody(providerA, { issuer: 'not a url' }),
        ssoBody(providerA, { issuer: 'ftp://idp.example' }),
        ssoBody(providerA, { scopes: 'email profile' }),
        ssoBody(providerA, { role_mapping: [{ group: 'x', role: 'owner' }] }),
        ssoBody(providerA, { client_id: '' }),
        { ...ssoBody(providerA), unknown: 1 },
      ])
        expectApiError(await putSso(s, admin, org.id, body), 400, 'validation_error');
      const { client_secret: _secret, ...withoutSecret } = ssoBody(providerA);
      expectApiError(await putSso(s, admin, org.id, withoutSecret), 400, 'client_secret_required');
      // A provider that does not answer is told before anything is saved.
      expectApiError(
        await putSso(s, admin, org.id, ssoBody(providerA, { issuer: 'http://127.0.0.1:9' })),
        502,
        'sso_provider_unreachable',
      );
      const before = await s.api({ path: `/organisations/${org.id}/sso`, token: admin.token });
      expect(organisationSsoAnswerSchema.parse(before.json())).toMatchObject({
        sso: null,
        redirect_uri: CALLBACK,
      });

      const saved = await putSso(s, admin, org.id, ssoBody(providerA, { require_sso: true }));
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.body).not.toContain(providerA.clientSecret);
      expect(organisationSsoAnswerSchema.parse(saved.json()).sso).toMatchObject({
        issuer: providerA.issuer,
        client_id: providerA.clientId,
        client_secret_set: true,
        require_sso: true,
        role_mapping: [{ group: 'portal-admins', role: 'admin' }],
        redirect_uri: CALLBACK,
      });
      const row = await s.app.db
        .selectFrom('organisation_sso')
        .selectAll()
        .where('organisation_id', '=', org.id)
        .executeTakeFirstOrThrow();
      expect(row.client_secret_encrypted).not.toContain(providerA.clientSecret);
      // A change without the secret keeps it; the members cannot read the settings.
      const changed = await putSso(s, owner, org.id, { ...withoutSecret, require_sso: false });
      expect(changed.statusCode, changed.body).toBe(200);
      expectApiError(
        await s.api({ path: `/organisations/${org.id}/sso`, token: plain.token }),
        403,
        'organisation_admin_required',
      );

      const events = (await securityEvents(s, { type: 'sso_settings_changed' })).filter((event) =>
        event.details?.includes(org.id),
      );
      expect(events.map((event) => event.actor_id)).toEqual([admin.id, owner.id]);
      for (const event of events) expect(event.details).not.toContain(providerA.clientSecret);

      const removed = await s.api({
        method: 'DELETE',
        path: `/organisations/${org.id}/sso`,
        token: owner.token,
      });
      expect(removed.statusCode).toBe(204);
      expectApiError(
        await s.api({ method: 'DELETE', path: `/organisations/${org.id}/sso`, token: owner.token }),
        404,
        'sso_not_configured',
      );
    });

    it('signs a new person of the domain in: account, membership with the mapped role and a seat, a session as a password gives', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const email = `ada@${org.domain}`;
      providerA.accounts.set(email, { email, groups: ['staff', 'portal-admins'], name: 'Ada Lovelace' });

      const discovery = await s.api({ method: 'POST', path: '/auth/sso/discover', body: { email } });
      expect(ssoDiscoverySchema.parse(discovery.json())).toEqual({ sso: true, required: false });

      const begun = await start(s, { email });
      const authorization = new URL(begun.url);
      expect(authorization.origin).toBe(providerA.issuer);
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
      for (const name of ['state', 'nonce', 'code_challenge'])
        expect(authorization.searchParams.get(name)?.length).toBeGreaterThanOrEqual(32);
      // The state is kept as its hash only, with the nonce and verifier, server-side.
      const kept = await s.app.db.selectFrom('sso_sign_ins').selectAll().execute();
      expect(JSON.stringify(kept)).not.toContain(authorization.searchParams.get('state'));

      const back = await providerA.authorize(begun.url);
      const { location, fragment } = await callback(s, back, begun.cookie);
      expect(location.origin + location.pathname).toBe('http://portal.test/login');
      const code = fragment.get('sso_code')!;
      expect(code).toBeTruthy();

      const answer = await complete(s, code);
      expect(answer.statusCode, answer.body).toBe(200);
      const signedIn = ssoSignInSchema.parse(answer.json());
      expect(signedIn.user.email).toBe(email);
      expect(signedIn.sso).toMatchObject({ organisation_id: org.id, joined: true, has_seat: true });
      // The web session is bound to its browser, as after a password sign-in.
      expect(s.bindingCookieOf(signedIn.refresh_token)).toBeDefined();
      const me = await s.api({ path: '/users/me', token: signedIn.access_token });
      expect(me.statusCode).toBe(200);
      const refreshed = await s.api({
        method: 'POST',
        path: '/auth/refresh',
        body: { refresh_token: signedIn.refresh_token },
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);

      const account = await s.app.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(account.email_verified_at).not.toBeNull();
      expect(account.full_name).toBe('Ada Lovelace');
      expect(await membershipOf(s, org.id, account.id)).toMatchObject({ role: 'admin' });
      expect((await membershipOf(s, org.id, account.id))?.seat_assigned_at).not.toBeNull();

      const ssoEvents = (await securityEvents(s, { type: 'sso_sign_in' })).filter(
        (event) => event.user_id === account.id,
      );
      expect(ssoEvents).toHaveLength(1);
      expect(ssoEvents[0]).toMatchObject({ actor_id: account.id });
      const logins = (await securityEvents(s, { type: 'login_succeeded' })).filter(
        (event) => event.user_id === account.id,
      );
      expect(logins.map((event) => JSON.parse(event.details ?? '{}').methods)).toEqual([['fed']]);

      // The hand-over code works once.
      expectApiError(await complete(s, code), 401, 'sso_code_invalid');
      // A second sign-in finds the member: no second membership, the same role.
      const again = await signInThrough(s, providerA, email);
      const second = ssoSignInSchema.parse((await complete(s, again.fragment.get('sso_code')!)).json());
      expect(second.sso).toMatchObject({ joined: false, has_seat: true });
    });

    it('answers the e-mail-first lookup with only whether to go to a provider; unknown domains as domains without one', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA, { requireSso: true });
      // An organisation with a verified domain and no provider.
      const plainOwner = await member(s);
      const plain = await seatOrganisation(s, plainOwner, 2);
      const plainDomain = uniqueDomain();
      await verifyDomain(s, plainOwner, plain.id, plainDomain);
      const discover = (body: unknown, remoteAddress = '192.0.2.61') =>
        s.api({ method: 'POST', path: '/auth/sso/discover', body, remoteAddress });

      const found = await discover({ email: `ada@${org.domain}` });
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toEqual({ sso: true, required: true });
      // Nothing of the organisation or its provider.
      for (const secret of [org.id, org.name, providerA.issuer, providerA.clientId])
        expect(found.body).not.toContain(secret);
      // The address's case does not matter.
      expect((await discover({ email: `  Ada@${org.domain.toUpperCase()} ` })).json()).toEqual({
        sso: true,
        required: true,
      });
      // A domain without a provider and a domain nobody holds are answered byte for byte alike.
      const withoutSso = await discover({ email: `ada@${plainDomain}` });
      const unknown = await discover({ email: `ada@${uniqueDomain()}` });
      expect(withoutSso.statusCode).toBe(200);
      expect(withoutSso.json()).toEqual({ sso: false, required: false });
      expect(unknown.body).toBe(withoutSso.body);
      // A subdomain of a verified domain is not that domain.
      expect((await discover({ email: `ada@eu.${org.domain}` })).body).toBe(withoutSso.body);

      // Bad input: a clear 400 each.
      for (const body of [
        {},
        { email: '' },
        { email: 'not-an-address' },
        { email: `@${org.domain}` },
        { email: 'ada@' },
        { email: 42 },
        { email: `ada@${org.domain}`, organisation_id: org.id },
      ])
        expectApiError(await discover(body), 400, 'validation_error');
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/sso/discover',
          headers: { 'content-type': 'text/plain' },
          body: `ada@${org.domain}`,
          remoteAddress: '192.0.2.62',
        }),
        415,
        'unsupported_media_type',
      );
    });

    it('binds the desktop app’s sign-in to its verifier instead of a cookie, and sends it back to its loopback', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const email = `dee@${org.domain}`;
      providerA.accounts.set(email, { email });
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const desktop = { code_challenge: challenge, port: 41234 };

      // Bad input: a clear 400 each.
      for (const bad of [
        { code_challenge: 'short', port: 41234 },
        { code_challenge: challenge, port: 80 },
        { code_challenge: challenge, port: 41234, redirect_uri: 'https://evil.example/' },
      ])
        expectApiError(
          await s.api({ method: 'POST', path: '/auth/sso/start', body: { email, desktop: bad } }),
          400,
          'validation_error',
        );

      const started = await s.api({ method: 'POST', path: '/auth/sso/start', body: { email, desktop } });
      expect(started.statusCode, started.body).toBe(200);
      // No cookie: the system browser that finishes it never saw this call.
      expect(started.cookies).toEqual([]);
      const back = await providerA.authorize(ssoRedirectSchema.parse(started.json()).authorization_url);
      const { location } = await callback(s, back, undefined);
      expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:41234/sso');
      expect(location.hash).toBe('');
      const code = location.searchParams.get('sso_code')!;
      expect(code).toBeTruthy();

      // Without the verifier, or with another, the code is refused and stays for the app.
      const trade = (body: Record<string, unknown>) =>
        s.api({ method: 'POST', path: '/auth/sso/complete', body: { code, ...body } });
      expectApiError(await trade({}), 401, 'sso_code_invalid');
      expectApiError(
        await trade({ code_verifier: randomBytes(32).toString('base64url') }),
        401,
        'sso_code_invalid',
      );
      expectApiError(await trade({ code_verifier: 'not a verifier' }), 400, 'validation_error');
      const signedIn = await trade({ code_verifier: verifier });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json<{ user: { email: string }; refresh_token: string }>()).toMatchObject({
        user: { email },
        refresh_token: expect.any(String),
      });
      expectApiError(await trade({ code_verifier: verifier }), 401, 'sso_code_invalid');

      // A refusal goes back to the app too, with its code and words.
      const other = await s.api({
        method: 'POST',
        path: '/auth/sso/start',
        body: { email, desktop },
      });
      const errorUrl = await providerA.authorize(ssoRedirectSchema.parse(other.json()).authorization_url);
      errorUrl.searchParams.delete('code');
      errorUrl.searchParams.set('error', 'access_denied');
      const refused = await callback(s, errorUrl, undefined);
      expect(refused.location.host).toBe('127.0.0.1:41234');
      expect(refused.location.searchParams.get('sso_error')).toBe('sso_provider_refused');
      expect(refused.location.searchParams.get('message')).toContain('did not sign you in');

      // A web sign-in still wants its browser's cookie.
      const web = await start(s, { email });
      const webBack = await providerA.authorize(web.url);
      const { fragment } = await callback(s, webBack, undefined);
      expect(fragment.get('sso_error')).toBe('sso_browser_mismatch');
    });

    it('still asks an account with a second factor of its own for it after the provider vouched for the person', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const email = `tina@${org.domain}`;
      providerA.accounts.set(email, { email, groups: ['staff'] });
      const tina = await s.app.authService.createAccount({
        email,
        password: STRONG_PASSWORD,
        role: 'user',
        verified: true,
      });
      const { secret } = await enrolTotp(s, (await s.login(email, STRONG_PASSWORD)).access_token);

      const { fragment } = await signInThrough(s, providerA, email);
      const answer = await complete(s, fragment.get('sso_code')!);
      expect(answer.statusCode, answer.body).toBe(200);
      const pending = ssoSecondFactorSchema.parse(answer.json());
      expect(pending).toMatchObject({ second_factor_required: true, methods: ['totp', 'recovery_code'] });
      expect(pending.sso).toMatchObject({ organisation_id: org.id, joined: true, has_seat: true });
      expect(answer.body).not.toContain('access_token');
      expect(answer.body).not.toContain('refresh_token');

      // A wrong code is refused; the right one gives the session, its methods the provider's and the code.
      expectApiError(
        await secondStep(s, { challenge: pending.challenge, code: '000000' }),
        401,
        'invalid_code',
      );
      toNextStep(s);
      const signedIn = await secondStep(s, {
        challenge: pending.challenge,
        code: totpCode(secret, s.clock.now()),
      });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json<{ user: { email: string } }>().user.email).toBe(email);
      const logins = (await securityEvents(s, { type: 'login_succeeded' })).filter(
        (event) => event.user_id === tina.id,
      );
      expect(logins.map((event) => JSON.parse(event.details ?? '{}').methods).at(-1)).toEqual(['fed', 'otp']);
      // The challenge is spent, and a password's second step is not a federated one; the refusal
      // sends the person back to the provider, not to a password they may not have.
      const spent = expectApiError(
        await secondStep(s, { challenge: pending.challenge, code: totpCode(secret, s.clock.now()) }),
        401,
        'challenge_expired',
      );
      expect(spent.message).toBe(authMessages.signInExpiredSso);

      // Left waiting past its five minutes, the second step says the same.
      const again = await signInThrough(s, providerA, email);
      const late = ssoSecondFactorSchema.parse((await complete(s, again.fragment.get('sso_code')!)).json());
      s.clock.advance(5 * 60 * 1000 + 1000);
      const expired = expectApiError(
        await secondStep(s, { challenge: late.challenge, code: totpCode(secret, s.clock.now()) }),
        401,
        'challenge_expired',
      );
      expect(expired.message).toBe(authMessages.signInExpiredSso);
      // And so does a passkey offered as that second step.
      const options = await s.api({
        method: 'POST',
        path: '/auth/passkeys/options',
        body: { challenge: late.challenge },
      });
      expect(expectApiError(options, 401, 'challenge_expired').message).toBe(authMessages.signInExpiredSso);
    });

    it('asks a passkey of an account that has one, after the provider', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const kim = await accountWithPasskey(s, `kim@${org.domain}`);
      providerA.accounts.set(kim.email, { email: kim.email });
      const { fragment } = await signInThrough(s, providerA, kim.email);
      const pending = ssoSecondFactorSchema.parse((await complete(s, fragment.get('sso_code')!)).json());
      expect(pending.methods).toEqual(['passkey']);

      const options = await s.api({
        method: 'POST',
        path: '/auth/passkeys/options',
        body: { challenge: pending.challenge },
      });
      expect(options.statusCode, options.body).toBe(200);
      const { ceremony, options: request } = options.json<PasskeyCeremony>();
      const signedIn = await s.api({
        method: 'POST',
        path: '/auth/passkeys/login',
        body: { ceremony, challenge: pending.challenge, response: kim.authenticator.assert(request, HERE) },
      });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const logins = (await securityEvents(s, { type: 'login_succeeded' })).filter(
        (event) => event.user_id === kim.id,
      );
      expect(logins.map((event) => JSON.parse(event.details ?? '{}').methods).at(-1)).toEqual([
        'fed',
        'webauthn',
      ]);
    });

    it('signs in without a seat when none is free, and says so', async () => {
      const s = server();
      // One seat, which the owner holds.
      const org = await ssoOrganisation(s, providerA, { seats: 1 });
      const email = `bob@${org.domain}`;
      providerA.accounts.set(email, { email, groups: ['staff'] });
      const { fragment } = await signInThrough(s, providerA, email);
      const answer = ssoSignInSchema.parse((await complete(s, fragment.get('sso_code')!)).json());
      expect(answer.sso).toMatchObject({ joined: true, has_seat: false });
      expect(answer.sso.message).toContain('no seat is free');
      const membership = await membershipOf(s, org.id, answer.user.id);
      expect(membership).toMatchObject({ role: 'member', seat_assigned_at: null });
    });

    it('on a floating plan joins a new person to share the pool: no named seat, and not told none is free', async () => {
      const s = server();
      const plan = await createPlan(s, {
        price: 99_900,
        interval: 'month',
        features: { ai_chat: 100 },
        floating: { seats: 50, leaseMinutes: 15, borrowDays: 0 },
      });
      // One floating seat at a time, and already more members than that.
      const org = await ssoOrganisation(s, providerA, { seats: 1, plan });
      const email = `fay@${org.domain}`;
      providerA.accounts.set(email, { email, groups: ['staff'] });
      const { fragment } = await signInThrough(s, providerA, email);
      const answer = ssoSignInSchema.parse((await complete(s, fragment.get('sso_code')!)).json());
      expect(answer.sso).toMatchObject({ joined: true, has_seat: true });
      expect(answer.sso.message).toContain('floating seats');
      expect(await membershipOf(s, org.id, answer.user.id)).toMatchObject({
        role: 'member',
        seat_assigned_at: null,
      });
      // Signing in again does not say a seat is missing either.
      const again = await signInThrough(s, providerA, email);
      const second = ssoSignInSchema.parse((await complete(s, again.fragment.get('sso_code')!)).json());
      expect(second.sso).toMatchObject({ joined: false, has_seat: true });
      // The pool is theirs to use: the machine checks a seat out signed in.
      const seat = await s.api({
        method: 'POST',
        path: `/organisations/${org.id}/floating/checkout`,
        token: second.access_token,
        body: { hardware_id: machine('fay') },
      });
      expect(seat.statusCode, seat.body).toBe(201);
    });

    it('refuses a wrong state, another browser’s callback, a replayed callback and a wrong nonce', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const email = `eve@${org.domain}`;
      providerA.accounts.set(email, { email });

      // A state the server never gave.
      const begun = await start(s, { email });
      const back = await providerA.authorize(begun.url);
      const forged = new URL(back);
      forged.searchParams.set('state', randomBytes(32).toString('base64url'));
      expect((await callback(s, forged, begun.cookie)).fragment.get('sso_error')).toBe('sso_state_invalid');
      expect((await callback(s, new URL(`${CALLBACK}?code=x`), begun.cookie)).fragment.get('sso_error')).toBe(
        'sso_state_invalid',
      );
      // The right state from a browser without the cookie (a link planted on someone).
      expect((await callback(s, back, undefined)).fragment.get('sso_error')).toBe('sso_browser_mismatch');
      const stranger = (await start(s, { email })).cookie;
      const other = await start(s, { email });
      expect(
        (await callback(s, await providerA.authorize(other.url), stranger)).fragment.get('sso_error'),
      ).toBe('sso_browser_mismatch');

      // Replayed: the first callback signs in, the same one again is refused.
      const replayed = await signInThrough(s, providerA, email);
      expect(replayed.fragment.get('sso_code')).toBeTruthy();
      expect((await callback(s, replayed.back, replayed.cookie)).fragment.get('sso_error')).toBe(
        'sso_state_used',
      );

      // A nonce that is not this sign-in's: the ID token carries the other one.
      const first = await start(s, { email });
      const second = await start(s, { email }, first.cookie);
      const tampered = new URL(first.url);
      tampered.searchParams.set('nonce', new URL(second.url).searchParams.get('nonce')!);
      const nonceBack = await providerA.authorize(tampered.href);
      expect((await callback(s, nonceBack, first.cookie)).fragment.get('sso_error')).toBe(
        'sso_nonce_mismatch',
      );

      // The provider refusing is said as such.
      const unknown = await start(s, { email: `nobody@${org.domain}` });
      const refused = await providerA.authorize(unknown.url);
      expect((await callback(s, refused, unknown.cookie)).fragment.get('sso_error')).toBe(
        'sso_provider_refused',
      );

      const refusals = (await securityEvents(s, { type: 'sso_sign_in_refused' })).filter((event) =>
        event.details?.includes(org.id),
      );
      expect(refusals.map((event) => JSON.parse(event.details ?? '{}').reason)).toEqual(
        expect.arrayContaining(['sso_browser_mismatch', 'sso_state_used', 'sso_nonce_mismatch']),
      );
    });

    it('refuses a callback carrying another organisation’s provider’s answer, and an address outside the verified domain', async () => {
      const s = server();
      const orgA = await ssoOrganisation(s, providerA);
      const orgB = await ssoOrganisation(s, providerB);
      const emailA = `ann@${orgA.domain}`;
      const emailB = `ben@${orgB.domain}`;
      providerA.accounts.set(emailA, { email: emailA });
      providerB.accounts.set(emailB, { email: emailB });

      // A's sign-in, answered with B's provider's code (and issuer).
      const forA = await start(s, { email: emailA });
      const forB = await start(s, { email: emailB }, forA.cookie);
      const answerOfB = await providerB.authorize(forB.url);
      const mixed = new URL(answerOfB);
      mixed.searchParams.set('state', new URL(forA.url).searchParams.get('state')!);
      const { fragment } = await callback(s, mixed, forA.cookie);
      expect(fragment.get('sso_error')).toBe('sso_token_refused');
      expect(
        await s.app.db.selectFrom('users').select('id').where('email', '=', emailB).executeTakeFirst(),
      ).toBeUndefined();

      // A's provider vouching for an address at B's domain: not A's to sign in.
      providerA.accounts.set(emailB, { email: emailB });
      providerA.signInAs = emailB;
      try {
        const wrongDomain = await signInThrough(s, providerA, emailB, { organisation_id: orgA.id });
        expect(wrongDomain.fragment.get('sso_error')).toBe('sso_domain_mismatch');
      } finally {
        providerA.signInAs = undefined;
      }
      // Nor an address the provider says it has not verified.
      const unverified = `uma@${orgA.domain}`;
      providerA.accounts.set(unverified, { email: unverified, emailVerified: false });
      expect((await signInThrough(s, providerA, unverified)).fragment.get('sso_error')).toBe(
        'sso_email_unverified',
      );
      expect(
        await s.app.db.selectFrom('users').select('id').where('email', '=', emailB).executeTakeFirst(),
      ).toBeUndefined();

      // An address no organisation signs in: nothing to start.
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/sso/start', body: { email: 'x@unclaimed.example' } }),
        404,
        'sso_not_configured',
      );
      expectApiError(
        await s.api({ method: 'POST', path: '/auth/sso/start', body: {} }),
        400,
        'validation_error',
      );
      expectApiError(await complete(s, randomBytes(32).toString('base64url')), 401, 'sso_code_invalid');
    });

    it('refuses passwords to the domain once SSO is required; a platform administrator keeps a logged break-glass', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA, { requireSso: true });
      const email = `carol@${org.domain}`;
      await s.app.authService.createAccount({
        email,
        password: STRONG_PASSWORD,
        role: 'user',
        verified: true,
      });

      const refused = expectApiError(
        await s.api({ method: 'POST', path: '/auth/login/json', body: { email, password: STRONG_PASSWORD } }),
        403,
        'sso_required',
      );
      expect(refused.message).toContain(org.name);
      // Whatever the password: the refusal comes before it is tried, and the form route says the same.
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/login/json',
          body: { email, password: 'wrong password!!' },
        }),
        403,
        'sso_required',
      );
      expect(
        ssoDiscoverySchema.parse(
          (await s.api({ method: 'POST', path: '/auth/sso/discover', body: { email } })).json(),
        ),
      ).toMatchObject({ sso: true, required: true });

      // Another domain's people keep their passwords.
      const elsewhere = await member(s);
      expect(elsewhere.token).toBeTruthy();

      const operator = `root@${org.domain}`;
      const admin = await s.app.authService.createAccount({
        email: operator,
        password: STRONG_PASSWORD,
        role: 'admin',
        verified: true,
      });
      const glass = await s.api({
        method: 'POST',
        path: '/auth/login/json',
        body: { email: operator, password: STRONG_PASSWORD },
      });
      expect(glass.statusCode, glass.body).toBe(200);
      const logged = (await securityEvents(s, { type: 'sso_break_glass' })).filter(
        (event) => event.user_id === admin.id,
      );
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ severity: 'critical', actor_id: admin.id });
      // A wrong password of the administrator is still wrong, and no break-glass is logged for it.
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/login/json',
          body: { email: operator, password: 'not it at all!' },
        }),
        401,
        'invalid_credentials',
      );
      expect(
        (await securityEvents(s, { type: 'sso_break_glass' })).filter((event) => event.user_id === admin.id),
      ).toHaveLength(1);

      // Taking the requirement off lets the password in again.
      const { client_secret: _secret, ...body } = ssoBody(providerA, { require_sso: false });
      expect((await putSso(s, org.owner, org.id, body)).statusCode).toBe(200);
      expect(
        (
          await s.api({
            method: 'POST',
            path: '/auth/login/json',
            body: { email, password: STRONG_PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
    });

    it('refuses passkey sign-ins and password resets to the domain once SSO is required; administrators’ are logged break-glass', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const carol = await accountWithPasskey(s, `carol@${org.domain}`);
      const root = await accountWithPasskey(s, `root@${org.domain}`, 'admin');
      // Asked for before the requirement: a link already in a mailbox is refused all the same.
      const carolsLink = await resetToken(s, carol.email);
      const { client_secret: _secret, ...body } = ssoBody(providerA);
      expect((await putSso(s, org.owner, org.id, { ...body, require_sso: true })).statusCode).toBe(200);

      const refused = expectApiError(await passkeySignIn(s, carol.authenticator), 403, 'sso_required');
      expect(refused.message).toContain(org.name);
      expectApiError(await resetPassword(s, carolsLink), 403, 'sso_required');
      // A reset asked for now is answered alike, and the mail says where to sign in instead of
      // carrying a link that would be refused.
      const asked = await s.api({
        method: 'POST',
        path: '/auth/forgot-password',
        body: { email: carol.email },
      });
      expect(asked.statusCode).toBe(202);
      const instead = await s.lastMailTo(carol.email);
      expect(instead.subject).toBe(`Sign in to ${PRODUCT_NAME} through ${org.name}`);
      expect(instead.text).toContain('no password to reset');
      expect(instead.text).not.toMatch(/reset-password/);

      // The platform administrator of the domain keeps both ways in, each one logged.
      expect((await passkeySignIn(s, root.authenticator)).statusCode).toBe(200);
      expect((await resetPassword(s, await resetToken(s, root.email))).statusCode).toBe(200);
      const glass = (await securityEvents(s, { type: 'sso_break_glass' })).filter(
        (event) => event.user_id === root.id,
      );
      expect(glass.map((event) => JSON.parse(event.details ?? '{}').via).sort()).toEqual([
        'passkey',
        'password_reset',
      ]);
      expect(glass.every((event) => event.severity === 'critical' && event.actor_id === root.id)).toBe(true);

      // Another domain's people keep their passkeys; taking the requirement off lets Carol in again,
      // and her link (refused, not spent) still works.
      expect((await putSso(s, org.owner, org.id, { ...body, require_sso: false })).statusCode).toBe(200);
      expect((await passkeySignIn(s, carol.authenticator)).statusCode).toBe(200);
      expect((await resetPassword(s, carolsLink)).statusCode).toBe(200);
    });

    it('gives a member the role their groups map to at every sign-in, not only the first', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const email = `dora@${org.domain}`;
      providerA.accounts.set(email, { email, groups: ['portal-admins'] });
      const signInNow = async () => {
        const { fragment } = await signInThrough(s, providerA, email);
        const answer = await complete(s, fragment.get('sso_code')!);
        expect(answer.statusCode, answer.body).toBe(200);
        return ssoSignInSchema.parse(answer.json());
      };
      const first = await signInNow();
      expect(await membershipOf(s, org.id, first.user.id)).toMatchObject({ role: 'admin' });

      // Moved out of the admins' group at the provider: a member at the next sign-in, and logged.
      providerA.accounts.set(email, { email, groups: ['staff'] });
      await signInNow();
      expect(await membershipOf(s, org.id, first.user.id)).toMatchObject({ role: 'member' });
      const changes = (await securityEvents(s, { type: 'organisation_role_changed' })).filter(
        (event) => event.user_id === first.user.id,
      );
      expect(changes).toHaveLength(1);
      expect(JSON.parse(changes[0]?.details ?? '{}')).toMatchObject({
        from: 'admin',
        to: 'member',
        via: 'sso',
      });
      // The same groups again change nothing and log nothing.
      await signInNow();
      expect(
        (await securityEvents(s, { type: 'organisation_role_changed' })).filter(
          (event) => event.user_id === first.user.id,
        ),
      ).toHaveLength(1);

      // Without a group claim the provider says nothing of groups: the role set here stays.
      providerA.accounts.set(email, { email, groups: ['portal-admins'] });
      const { client_secret: _secret, ...body } = ssoBody(providerA, { group_claim: null });
      expect((await putSso(s, org.owner, org.id, body)).statusCode).toBe(200);
      await signInNow();
      expect(await membershipOf(s, org.id, first.user.id)).toMatchObject({ role: 'member' });
    });

    it('runs a test sign-in for a manager: reports what came back and signs nobody in', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const email = `tess@${org.domain}`;
      providerA.accounts.set(email, { email, groups: ['portal-admins'] });
      providerA.signInAs = email;
      try {
        const started = await s.api({
          method: 'POST',
          path: `/organisations/${org.id}/sso/test`,
          token: org.owner.token,
        });
        expect(started.statusCode, started.body).toBe(200);
        const back = await providerA.authorize(ssoRedirectSchema.parse(started.json()).authorization_url);
        const { location, fragment } = await callback(s, back, cookieOf(started));
        expect(location.pathname).toBe(`/organisations/${org.id}`);
        expect(fragment.get('sso_test')).toBe('ok');
      } finally {
        providerA.signInAs = undefined;
      }
      const settings = organisationSsoAnswerSchema.parse(
        (await s.api({ path: `/organisations/${org.id}/sso`, token: org.owner.token })).json(),
      );
      expect(settings.sso?.last_test).toMatchObject({
        ok: true,
        email,
        groups: ['portal-admins'],
        role: 'admin',
      });
      expect(
        await s.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
      ).toBeUndefined();
      const tests = (await securityEvents(s, { type: 'sso_test_sign_in' })).filter((event) =>
        event.details?.includes(org.id),
      );
      expect(tests).toHaveLength(1);
      expect(tests[0]).toMatchObject({ actor_id: org.owner.id });
    });

    it('sends a test sign-in refused at the callback back to the organisation’s page with the refusal, not to the sign-in page', async () => {
      const s = server();
      const org = await ssoOrganisation(s, providerA);
      const startTest = async () => {
        const started = await s.api({
          method: 'POST',
          path: `/organisations/${org.id}/sso/test`,
          token: org.owner.token,
        });
        expect(started.statusCode, started.body).toBe(200);
        return { url: ssoRedirectSchema.parse(started.json()).authorization_url, cookie: cookieOf(started) };
      };
      const lastTest = async () =>
        organisationSsoAnswerSchema.parse(
          (await s.api({ path: `/organisations/${org.id}/sso`, token: org.owner.token })).json(),
        ).sso?.last_test;

      // The provider knows nobody by that name: it answers with an error.
      providerA.signInAs = `ghost@${org.domain}`;
      try {
        const refusedTest = await startTest();
        const back = await providerA.authorize(refusedTest.url);
        expect(back.searchParams.get('error')).toBeTruthy();
        const { location, fragment } = await callback(s, back, refusedTest.cookie);
        expect(location.pathname).toBe(`/organisations/${org.id}`);
        expect(fragment.get('sso_test')).toBe('failed');
        expect(fragment.get('sso_error')).toBeNull();
        expect(await lastTest()).toMatchObject({
          ok: false,
          message: expect.stringContaining('did not sign you in'),
        });
      } finally {
        providerA.signInAs = undefined;
      }

      // Come back in another browser than the one that started it.
      const email = `tess@${org.domain}`;
      providerA.accounts.set(email, { email });
      providerA.signInAs = email;
      try {
        const elsewhere = await startTest();
        const back = await providerA.authorize(elsewhere.url);
        const { location, fragment } = await callback(s, back, undefined);
        expect(location.pathname).toBe(`/organisations/${org.id}`);
        expect(fragment.get('sso_test')).toBe('failed');
        expect(await lastTest()).toMatchObject({
          ok: false,
          message: expect.stringContaining('another browser'),
        });
        // The browser that started it may still finish it; replayed once spent, the answer changes
        // no result and goes to the sign-in page as any replay does.
        expect((await callback(s, back, elsewhere.cookie)).fragment.get('sso_test')).toBe('ok');
        const replay = await callback(s, back, elsewhere.cookie);
        expect(replay.fragment.get('sso_error')).toBe('sso_state_used');
        expect(await lastTest()).toMatchObject({ ok: true, email });
      } finally {
        providerA.signInAs = undefined;
      }
      expect(
        await s.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
      ).toBeUndefined();
    });
  },
  { env: { DNS_RESOLVER: dns.address, SSO_ALLOW_HTTP_ISSUERS: 'true' } },
);

describeOnEveryDatabase(
  'The e-mail-first lookup’s rate limit (3 per minute)',
  (server) => {
    it('answers the 4th lookup within a minute from one address with 429 rate_limited; another address goes on', async () => {
      const s = server();
      const discover = (email: string, remoteAddress: string) =>
        s.api({ method: 'POST', path: '/auth/sso/discover', body: { email }, remoteAddress });
      for (let attempt = 0; attempt < 3; attempt += 1)
        expect((await discover(`probe${attempt}@${uniqueDomain()}`, '192.0.2.71')).statusCode).toBe(200);
      expectApiError(await discover('ada@example.com', '192.0.2.71'), 429, 'rate_limited');
      expect((await discover('ada@example.com', '192.0.2.72')).statusCode).toBe(200);
    });
  },
  { env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } },
);
