import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, expect, it } from 'vitest';
import { organisationDomainSchema } from '../../../src/shared/api/organisation-domains.js';
import {
  organisationSsoAnswerSchema,
  ssoDiscoverySchema,
  ssoRedirectSchema,
  ssoSignInSchema,
} from '../../../src/shared/api/organisation-sso.js';
import { startDnsServer } from '../../support/dns-server.js';
import {
  type SamlPost,
  startSamlIdentityProvider,
  type TestSamlIdentityProvider,
} from '../../support/saml-identity-provider.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import { type Member, member } from '../helpers/license-helpers.js';
import { join, membershipOf, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

// A real DNS server and two real SAML identity providers on loopback, each signing its assertions
// with a key and certificate of its own: the server proves domains through the one and signs
// people in through the others, and the bad answers are the providers' own, signed or not.
const PORTAL = 'http://portal.test';
const dns = await startDnsServer();
const idpA = await startSamlIdentityProvider();
const idpB = await startSamlIdentityProvider();
afterAll(async () => {
  await Promise.all([dns.close(), idpA.close(), idpB.close()]);
});
afterEach(() => {
  for (const idp of [idpA, idpB]) {
    idp.answerWith = undefined;
    idp.signInAs = undefined;
  }
});

const uniqueDomain = () => `saml-${randomBytes(4).toString('hex')}.example`;

interface SamlOrganisation {
  id: string;
  name: string;
  owner: Member;
  domain: string;
}

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

const putSaml = (s: TestServer, who: Member, organisationId: string, body: Record<string, unknown>) =>
  s.api({ method: 'PUT', path: `/organisations/${organisationId}/sso/saml`, token: who.token, body });

const samlBody = (idp: TestSamlIdentityProvider, more: Record<string, unknown> = {}) => ({
  metadata_xml: idp.metadataXml,
  group_attribute: 'groups',
  role_mapping: [{ group: 'portal-admins', role: 'admin' }],
  ...more,
});

async function samlOrganisation(
  s: TestServer,
  idp: TestSamlIdentityProvider,
  { seats = 3 } = {},
): Promise<SamlOrganisation> {
  const owner = await member(s);
  const org = await seatOrganisation(s, owner, seats);
  const domain = uniqueDomain();
  await verifyDomain(s, owner, org.id, domain);
  const put = await putSaml(s, owner, org.id, samlBody(idp));
  expect(put.statusCode, put.body).toBe(200);
  return { id: org.id, name: org.name, owner, domain };
}

const cookieOf = (response: LightMyRequestResponse) => {
  const cookie = response.cookies.find((candidate) => candidate.name.endsWith('dap_sso_browser'));
  expect(cookie, 'the start sets the browser cookie').toBeDefined();
  return `${cookie!.name}=${cookie!.value}`;
};

async function start(s: TestServer, body: Record<string, unknown>) {
  const response = await s.api({ method: 'POST', path: '/auth/sso/start', body });
  expect(response.statusCode, response.body).toBe(200);
  return { url: ssoRedirectSchema.parse(response.json()).authorization_url, cookie: cookieOf(response) };
}

/** The form the provider's page posts, as the browser posts it (no API key, no cookie: cross-site). */
async function post(s: TestServer, form: SamlPost) {
  const action = new URL(form.action);
  expect(action.origin).toBe(PORTAL);
  const response = await s.api({
    method: 'POST',
    path: action.pathname.replace('/api/v1', ''),
    withoutApiKey: true,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: form.SAMLResponse, RelayState: form.RelayState }).toString(),
  });
  expect(response.statusCode, response.body).toBe(303);
  return new URL(response.headers.location as string);
}

/** The browser following a redirect to the callback, with its cookie. */
async function follow(s: TestServer, location: URL, cookie: string | undefined) {
  expect(location.pathname).toBe('/api/v1/auth/sso/callback');
  const response = await s.api({
    path: `/auth/sso/callback${location.search}`,
    withoutApiKey: true,
    ...(cookie ? { headers: { cookie } } : {}),
  });
  expect(response.statusCode, response.body).toBe(302);
  return new URL(response.headers.location as string);
}

const fragmentOf = (url: URL) => new URLSearchParams(url.hash.slice(1));

/** Start, provider, ACS: where the ACS sends the browser, and what the provider posted. */
async function answerFor(s: TestServer, idp: TestSamlIdentityProvider, email: string) {
  const begun = await start(s, { email });
  const form = await idp.authorize(begun.url);
  return { begun, form, next: await post(s, form) };
}

/** The reason a refused answer is told with (the ACS sends the browser straight to /login). */
async function refusedWith(s: TestServer, idp: TestSamlIdentityProvider, email: string) {
  const { next } = await answerFor(s, idp, email);
  expect(next.pathname).toBe('/login');
  return fragmentOf(next).get('sso_error');
}

const complete = (s: TestServer, code: string) =>
  s.api({ method: 'POST', path: '/auth/sso/complete', body: { code } });

const refusalsOf = async (s: TestServer, organisationId: string) =>
  (await securityEvents(s, { type: 'sso_sign_in_refused' }))
    .filter((event) => event.details?.includes(organisationId))
    .map((event) => JSON.parse(event.details ?? '{}').reason as string);

describeOnEveryDatabase(
  'Single sign-on through an organisation’s SAML identity provider',
  (server) => {
    it('reads a metadata URL again when the provider rotated its signing key (at most every five minutes), so the organisation is not locked out', async () => {
      const s = server();
      // A provider of its own: its key changes here.
      const idp = await startSamlIdentityProvider();
      try {
        const owner = await member(s);
        const org = await seatOrganisation(s, owner, 3);
        const domain = uniqueDomain();
        await verifyDomain(s, owner, org.id, domain);
        const put = await putSaml(
          s,
          owner,
          org.id,
          samlBody(idp, { metadata_xml: undefined, metadata_url: idp.metadataUrl }),
        );
        expect(put.statusCode, put.body).toBe(200);
        const email = `rota@${domain}`;
        idp.accounts.set(email, { email });
        const kept = async () =>
          s.app.db
            .selectFrom('organisation_sso')
            .select(['saml_certificates', 'saml_metadata_read_at'])
            .where('organisation_id', '=', org.id)
            .executeTakeFirstOrThrow();
        const before = await kept();
        expect(before.saml_metadata_read_at).not.toBeNull();

        idp.rotateKey();
        // Read minutes ago: not read again (forged answers make no fetch each), and refused.
        expect(await refusedWith(s, idp, email)).toBe('saml_signature_invalid');
        expect(await kept()).toEqual(before);

        s.clock.advance(5 * 60 * 1000 + 1000);
        const { begun, next } = await answerFor(s, idp, email);
        const back = await follow(s, next, begun.cookie);
        const code = fragmentOf(back).get('sso_code');
        expect(code, back.href).toBeTruthy();
        const signedIn = await complete(s, code!);
        expect(signedIn.statusCode, signedIn.body).toBe(200);
        const after = await kept();
        expect(after.saml_certificates).not.toBe(before.saml_certificates);
        expect(JSON.parse(after.saml_certificates ?? '[]')).toHaveLength(1);
        expect(after.saml_metadata_read_at! > before.saml_metadata_read_at!).toBe(true);
        const rereads = (await securityEvents(s, { type: 'sso_settings_changed' })).filter(
          (event) => event.details?.includes(org.id) && event.details.includes('metadata_reread'),
        );
        expect(rereads).toHaveLength(1);

        // An answer signed by a key the provider does not publish stays refused, the metadata read
        // again (the five minutes passed) and left as it was.
        s.clock.advance(5 * 60 * 1000 + 1000);
        const published = (await kept()).saml_certificates;
        const rogue = await startSamlIdentityProvider();
        try {
          rogue.accounts.set(email, { email });
          const started = await start(s, { email });
          const form = await idp.authorize(started.url);
          const forged = await rogue.authorize(started.url.replace(idp.ssoUrl, rogue.ssoUrl));
          const refused = await post(s, { ...form, SAMLResponse: forged.SAMLResponse });
          expect(fragmentOf(refused).get('sso_error')).not.toBeNull();
          expect((await kept()).saml_certificates).toBe(published);
        } finally {
          await rogue.close();
        }
      } finally {
        await idp.close();
      }
    });

    it('is set up from metadata, pasted or fetched, by owners and admins of a verified domain; bad metadata is a clear 400', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 3);
      const admin = await join(s, org, { role: 'admin' });
      const plain = await join(s, org, { role: 'member' });

      expectApiError(await putSaml(s, owner, org.id, samlBody(idpA)), 409, 'domain_not_verified');
      await verifyDomain(s, owner, org.id, uniqueDomain());
      expectApiError(await putSaml(s, plain, org.id, samlBody(idpA)), 403, 'organisation_admin_required');

      const broken = [
        ['not xml at all', 'saml_metadata_invalid'],
        ['<a><b></a>', 'saml_metadata_invalid'],
        [
          '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>',
          'saml_metadata_invalid',
        ],
        [
          idpA.metadataXml.replace(/<ds:X509Certificate>[^<]*</, '<ds:X509Certificate>bm90IGEgY2VydA==<'),
          'saml_metadata_invalid',
        ],
        [
          idpA.metadataXml.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ''),
          'saml_metadata_invalid',
        ],
        [
          idpA.metadataXml.replace(/<md:SingleSignOnService[^>]*HTTP-Redirect[^>]*\/>/, ''),
          'saml_metadata_invalid',
        ],
        [
          `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${idpA.metadataXml.replace('<?xml version="1.0"?>', '')}`,
          'saml_metadata_invalid',
        ],
      ] as const;
      for (const [xml, code] of broken) {
        const refused = expectApiError(
          await putSaml(s, admin, org.id, samlBody(idpA, { metadata_xml: xml })),
          400,
          code,
        );
        expect(refused.message).toMatch(/metadata cannot be used: .+/);
      }
      for (const body of [
        samlBody(idpA, { metadata_url: idpA.metadataUrl }),
        samlBody(idpA, { metadata_xml: undefined, metadata_url: 'ftp://idp.example/metadata' }),
        samlBody(idpA, { role_mapping: [{ group: 'x', role: 'owner' }] }),
        { ...samlBody(idpA), unknown: 1 },
      ])
        expectApiError(await putSaml(s, admin, org.id, body), 400, 'validation_error');
      expectApiError(
        await putSaml(s, admin, org.id, samlBody(idpA, { metadata_xml: undefined })),
        400,
        'saml_metadata_required',
      );
      expectApiError(
        await putSaml(
          s,
          admin,
          org.id,
          samlBody(idpA, { metadata_xml: undefined, metadata_url: 'http://127.0.0.1:9/metadata' }),
        ),
        502,
        'saml_metadata_unreachable',
      );
      const before = organisationSsoAnswerSchema.parse(
        (await s.api({ path: `/organisations/${org.id}/sso`, token: admin.token })).json(),
      );
      expect(before.sso).toBeNull();
      expect(before.saml).toEqual({
        entity_id: `${PORTAL}/api/v1/auth/sso/saml/${org.id}/metadata`,
        acs_url: `${PORTAL}/api/v1/auth/sso/saml/${org.id}/acs`,
        metadata_url: `${PORTAL}/api/v1/auth/sso/saml/${org.id}/metadata`,
      });

      // Fetched once from its URL: what it says is shown back.
      const fetched = await putSaml(
        s,
        admin,
        org.id,
        samlBody(idpA, { metadata_xml: undefined, metadata_url: idpA.metadataUrl, require_sso: true }),
      );
      expect(fetched.statusCode, fetched.body).toBe(200);
      const shown = organisationSsoAnswerSchema.parse(fetched.json()).sso;
      expect(shown).toMatchObject({
        protocol: 'saml',
        idp_entity_id: idpA.entityId,
        idp_sso_url: idpA.ssoUrl,
        metadata_url: idpA.metadataUrl,
        group_attribute: 'groups',
        require_sso: true,
      });
      expect(shown?.protocol === 'saml' && shown.idp_certificates).toEqual([
        expect.objectContaining({ subject: expect.stringContaining('Test SAML identity provider') }),
      ]);
      // A change without metadata keeps the provider; pasted metadata replaces it.
      const kept = await putSaml(s, owner, org.id, { group_attribute: null, role_mapping: [] });
      expect(organisationSsoAnswerSchema.parse(kept.json()).sso).toMatchObject({
        idp_entity_id: idpA.entityId,
        metadata_url: idpA.metadataUrl,
        group_attribute: null,
      });
      const pasted = await putSaml(s, owner, org.id, samlBody(idpB));
      expect(organisationSsoAnswerSchema.parse(pasted.json()).sso).toMatchObject({
        idp_entity_id: idpB.entityId,
        metadata_url: null,
      });

      const events = (await securityEvents(s, { type: 'sso_settings_changed' })).filter((event) =>
        event.details?.includes(org.id),
      );
      expect(events.map((event) => event.actor_id)).toEqual([admin.id, owner.id, owner.id]);

      // Our metadata, for the provider to read: no API key, our entity id and ACS.
      const metadata = await s.api({ path: `/auth/sso/saml/${org.id}/metadata`, withoutApiKey: true });
      expect(metadata.statusCode).toBe(200);
      expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
      expect(metadata.body).toContain(`entityID="${before.saml.entity_id}"`);
      expect(metadata.body).toContain(`Location="${before.saml.acs_url}"`);
      expect(metadata.body).toContain('WantAssertionsSigned="true"');
      const unknown = await s.api({
        path: `/auth/sso/saml/${randomBytes(8).toString('hex')}/metadata`,
        withoutApiKey: true,
      });
      expect([400, 404]).toContain(unknown.statusCode);
    });

    it('signs a new person of the domain in: account, membership with the role of their group, a seat, a session', async () => {
      const s = server();
      const org = await samlOrganisation(s, idpA);
      const email = `ada@${org.domain}`;
      idpA.accounts.set(email, { email, groups: ['staff', 'portal-admins'], name: 'Ada Lovelace' });

      expect(
        ssoDiscoverySchema.parse(
          (await s.api({ method: 'POST', path: '/auth/sso/discover', body: { email } })).json(),
        ),
      ).toEqual({ sso: true, required: false });

      const begun = await start(s, { email });
      const redirect = new URL(begun.url);
      expect(redirect.origin + redirect.pathname).toBe(idpA.ssoUrl);
      const relayState = redirect.searchParams.get('RelayState')!;
      expect(relayState.length).toBeGreaterThanOrEqual(32);
      expect(redirect.searchParams.get('SAMLRequest')).toBeTruthy();
      // The RelayState is kept as its hash only, with the AuthnRequest's ID.
      const kept = await s.app.db
        .selectFrom('sso_sign_ins')
        .selectAll()
        .where('organisation_id', '=', org.id)
        .execute();
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({ protocol: 'saml', purpose: 'sign_in' });
      expect(JSON.stringify(kept)).not.toContain(relayState);

      const form = await idpA.authorize(begun.url);
      expect(form.action).toBe(`${PORTAL}/api/v1/auth/sso/saml/${org.id}/acs`);
      const next = await post(s, form);
      const back = await follow(s, next, begun.cookie);
      expect(back.origin + back.pathname).toBe(`${PORTAL}/login`);
      const code = fragmentOf(back).get('sso_code')!;
      expect(code).toBeTruthy();

      const answer = await complete(s, code);
      expect(answer.statusCode, answer.body).toBe(200);
      const signedIn = ssoSignInSchema.parse(answer.json());
      expect(signedIn.user.email).toBe(email);
      expect(signedIn.sso).toMatchObject({ organisation_id: org.id, joined: true, has_seat: true });
      expect((await s.api({ path: '/users/me', token: signedIn.access_token })).statusCode).toBe(200);
      const account = await s.app.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(account.full_name).toBe('Ada Lovelace');
      expect(account.email_verified_at).not.toBeNull();
      const membership = await membershipOf(s, org.id, account.id);
      expect(membership).toMatchObject({ role: 'admin' });
      expect(membership?.seat_assigned_at).not.toBeNull();
      const signIns = (await securityEvents(s, { type: 'sso_sign_in' })).filter(
        (event) => event.user_id === account.id,
      );
      expect(signIns).toHaveLength(1);
      expect(signIns[0]).toMatchObject({ actor_id: account.id });
      expect(JSON.parse(signIns[0]?.details ?? '{}')).toMatchObject({ protocol: 'saml', joined: true });

      // The same answer posted again is refused: its sign-in is answered, and its assertion known.
      const again = await post(s, form);
      expect(fragmentOf(again).get('sso_error')).toBe('sso_state_used');
      // The callback once more: spent.
      expect(fragmentOf(await follow(s, next, begun.cookie)).get('sso_error')).toBe('sso_state_used');
    });

    it('refuses a tampered, an unsigned, an expired and a wrong-audience assertion, each logged', async () => {
      const s = server();
      const org = await samlOrganisation(s, idpA);
      const email = `mallory@${org.domain}`;
      idpA.accounts.set(email, { email, groups: ['staff'] });

      // Signed, then the group changed to one that makes an admin.
      idpA.answerWith = {
        tamper: (xml) => xml.replace('<saml:AttributeValue>staff<', '<saml:AttributeValue>portal-admins<'),
      };
      expect(await refusedWith(s, idpA, email)).toBe('saml_signature_invalid');
      idpA.answerWith = { unsigned: true };
      expect(await refusedWith(s, idpA, email)).toBe('saml_signature_invalid');
      idpA.answerWith = { validForSeconds: -3600 };
      expect(await refusedWith(s, idpA, email)).toBe('saml_assertion_expired');
      idpA.answerWith = { audience: 'https://another-service.example/saml' };
      expect(await refusedWith(s, idpA, email)).toBe('saml_audience_mismatch');
      idpA.answerWith = { recipient: `${PORTAL}/api/v1/auth/sso/saml/someone-else/acs` };
      expect(await refusedWith(s, idpA, email)).toBe('saml_recipient_mismatch');

      const refused = fragmentOf((await answerFor(s, idpA, email)).next);
      expect(refused.get('sso_code')).toBeNull();
      expect(
        await s.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
      ).toBeUndefined();
      expect(await refusalsOf(s, org.id)).toEqual(
        expect.arrayContaining([
          'saml_signature_invalid',
          'saml_assertion_expired',
          'saml_audience_mismatch',
          'saml_recipient_mismatch',
        ]),
      );
    });

    it('refuses an unsolicited answer, one for another request, a replayed assertion and a refused answer’s sign-in', async () => {
      const s = server();
      const org = await samlOrganisation(s, idpA);
      const email = `trudy@${org.domain}`;
      idpA.accounts.set(email, { email });

      // Unsolicited (IdP-initiated): it answers nothing we asked.
      idpA.answerWith = { inResponseTo: null };
      expect(await refusedWith(s, idpA, email)).toBe('saml_request_unknown');
      // For another request than the RelayState's.
      idpA.answerWith = { inResponseTo: `_${randomBytes(16).toString('hex')}` };
      expect(await refusedWith(s, idpA, email)).toBe('saml_request_unknown');

      // An assertion accepted once is refused in any later answer, even to a new request.
      idpA.answerWith = undefined;
      const first = await answerFor(s, idpA, email);
      expect(first.next.pathname).toBe('/api/v1/auth/sso/callback');
      idpA.answerWith = { assertionId: idpA.assertionIds.at(-1)! };
      expect(await refusedWith(s, idpA, email)).toBe('saml_assertion_replayed');
      // The same answer with the RelayState of a new sign-in: it answers the old request.
      idpA.answerWith = undefined;
      const fresh = await start(s, { email });
      const reused = await post(s, {
        ...first.form,
        RelayState: new URL(fresh.url).searchParams.get('RelayState')!,
      });
      expect(fragmentOf(reused).get('sso_error')).toBe('saml_request_unknown');

      // The same answer posted twice at once (two instances, two tabs): never both go on. (A refused
      // one ends the sign-in, so when they interleave both may be refused: the safe side.)
      const raced = await idpA.authorize((await start(s, { email })).url);
      const both = await Promise.all([post(s, raced), post(s, raced)]);
      const onward = both.filter((next) => next.pathname === '/api/v1/auth/sso/callback');
      expect(onward.length).toBeLessThanOrEqual(1);
      for (const next of both.filter((candidate) => candidate.pathname === '/login'))
        expect(['sso_state_used', 'saml_assertion_replayed']).toContain(fragmentOf(next).get('sso_error'));
      expect(both.filter((next) => next.pathname === '/login').length).toBeGreaterThanOrEqual(1);

      // A RelayState we never gave, and none.
      const forged = await post(s, { ...first.form, RelayState: randomBytes(32).toString('base64url') });
      expect(fragmentOf(forged).get('sso_error')).toBe('sso_state_invalid');
      expect(fragmentOf(await post(s, { ...first.form, RelayState: '' })).get('sso_error')).toBe(
        'sso_state_invalid',
      );

      // A refused answer ends its sign-in: the right answer afterwards is refused too.
      const begun = await start(s, { email });
      idpA.answerWith = { unsigned: true };
      const bad = await idpA.authorize(begun.url);
      idpA.answerWith = undefined;
      expect(fragmentOf(await post(s, bad)).get('sso_error')).toBe('saml_signature_invalid');

      // The verified answer reached from another browser (no cookie, or another's): refused at the callback.
      const planted = await answerFor(s, idpA, email);
      expect(fragmentOf(await follow(s, planted.next, undefined)).get('sso_error')).toBe(
        'sso_browser_mismatch',
      );
      const stranger = (await start(s, { email })).cookie;
      const other = await answerFor(s, idpA, email);
      expect(fragmentOf(await follow(s, other.next, stranger)).get('sso_error')).toBe('sso_browser_mismatch');

      expect(await refusalsOf(s, org.id)).toEqual(
        expect.arrayContaining(['saml_request_unknown', 'saml_assertion_replayed', 'sso_browser_mismatch']),
      );
    });

    it('refuses another organisation’s identity provider, and an answer posted to another organisation’s ACS', async () => {
      const s = server();
      const orgA = await samlOrganisation(s, idpA);
      const orgB = await samlOrganisation(s, idpB);
      const email = `oscar@${orgA.domain}`;
      idpA.accounts.set(email, { email });
      idpB.accounts.set(email, { email });

      // Organisation A's AuthnRequest answered by B's provider (its own key, its own issuer).
      const begun = await start(s, { organisation_id: orgA.id });
      idpB.signInAs = email;
      const fromB = await idpB.authorize(begun.url.replace(idpA.ssoUrl, idpB.ssoUrl));
      const next = await post(s, fromB);
      expect(fragmentOf(next).get('sso_error')).toBe('saml_signature_invalid');

      // A's answer posted to B's ACS: the RelayState names a sign-in of A.
      const forA = await start(s, { email });
      const form = await idpA.authorize(forA.url);
      const toB = await post(s, { ...form, action: form.action.replace(orgA.id, orgB.id) });
      expect(fragmentOf(toB).get('sso_error')).toBe('sso_state_invalid');

      // An address outside A's verified domains, signed by A's provider.
      const outsider = `oscar@${orgB.domain}`;
      idpA.accounts.set(outsider, { email: outsider });
      // Started by organisation (the address's domain would have named B).
      const byOrg = await start(s, { organisation_id: orgA.id });
      idpA.signInAs = outsider;
      const outside = await post(s, await idpA.authorize(byOrg.url));
      expect(fragmentOf(await follow(s, outside, byOrg.cookie)).get('sso_error')).toBe('sso_domain_mismatch');
    });

    it('runs a test sign-in for a manager through SAML: reports what came back and signs nobody in', async () => {
      const s = server();
      const org = await samlOrganisation(s, idpA);
      const email = `tess@${org.domain}`;
      idpA.accounts.set(email, { email, groups: ['portal-admins'] });
      idpA.signInAs = email;
      const started = await s.api({
        method: 'POST',
        path: `/organisations/${org.id}/sso/test`,
        token: org.owner.token,
      });
      expect(started.statusCode, started.body).toBe(200);
      const form = await idpA.authorize(ssoRedirectSchema.parse(started.json()).authorization_url);
      const back = await follow(s, await post(s, form), cookieOf(started));
      expect(back.pathname).toBe(`/organisations/${org.id}`);
      expect(fragmentOf(back).get('sso_test')).toBe('ok');
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

      // A test whose answer is refused reports it on the page too.
      const again = await s.api({
        method: 'POST',
        path: `/organisations/${org.id}/sso/test`,
        token: org.owner.token,
      });
      idpA.answerWith = { validForSeconds: -3600 };
      const refused = await post(
        s,
        await idpA.authorize(ssoRedirectSchema.parse(again.json()).authorization_url),
      );
      expect(refused.pathname).toBe(`/organisations/${org.id}`);
      expect(fragmentOf(refused).get('sso_test')).toBe('failed');
      const after = organisationSsoAnswerSchema.parse(
        (await s.api({ path: `/organisations/${org.id}/sso`, token: org.owner.token })).json(),
      );
      expect(after.sso?.last_test).toMatchObject({ ok: false });
      expect(after.sso?.last_test?.message).toContain('expired');
    });
  },
  { env: { DNS_RESOLVER: dns.address, SSO_ALLOW_HTTP_ISSUERS: 'true' } },
);
