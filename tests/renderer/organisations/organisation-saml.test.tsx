import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganisationDomain } from '../../../src/shared/api/organisation-domains';
import type {
  OrganisationOidc,
  OrganisationSaml,
  OrganisationSsoAnswer,
} from '../../../src/shared/api/organisation-sso';
import type { Organisation } from '../../../src/shared/api/organisations';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { makeInvitation, makeOrganisation, MEMBERS, NOW, ORG_ID } from './fixtures';

const BASE = `/organisations/${ORG_ID}`;
const REDIRECT_URI = 'http://portal.test/api/v1/auth/sso/callback';
const SAML_SP = {
  entity_id: `http://portal.test/api/v1/auth/sso/saml/${ORG_ID}/metadata`,
  acs_url: `http://portal.test/api/v1/auth/sso/saml/${ORG_ID}/acs`,
  metadata_url: `http://portal.test/api/v1/auth/sso/saml/${ORG_ID}/metadata`,
};
const METADATA =
  '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.acme.example"/>';

const verified: OrganisationDomain = {
  id: '5b1f7a1e-7c1a-4b8e-9d9e-1f2a3b4c5d6e',
  domain: 'acme.example',
  status: 'verified',
  record_name: '_desktop-ai-verification.acme.example',
  record_value: 'desktop-ai-domain-verification=Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4',
  created_at: NOW,
  verified_at: NOW,
  checked_at: NOW,
  check_failure: null,
};

const configured = (extra: Partial<OrganisationSaml> = {}): OrganisationSaml => ({
  protocol: 'saml',
  idp_entity_id: 'https://idp.acme.example',
  idp_sso_url: 'https://idp.acme.example/sso',
  idp_certificates: [
    {
      subject: 'CN=Acme identity provider',
      not_after: '2027-11-27T10:00:00.000Z',
      sha256_fingerprint:
        'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89',
    },
  ],
  metadata_url: null,
  group_attribute: 'groups',
  role_mapping: [{ group: 'portal-admins', role: 'admin' }],
  require_sso: false,
  updated_at: NOW,
  last_test: null,
  ...extra,
});

let api: FakeApi;
let organisation: Organisation;
let sso: OrganisationSaml | OrganisationOidc | null;

const answer = (): OrganisationSsoAnswer => ({ sso, redirect_uri: REDIRECT_URI, saml: SAML_SP });

beforeEach(async () => {
  api = await new FakeApi().start();
  organisation = makeOrganisation();
  sso = null;
  api.on('GET /organisations', () => ({ json: [organisation] }));
  api.on(`GET ${BASE}`, () => ({ json: organisation }));
  api.on(`GET ${BASE}/members`, () => ({ json: MEMBERS }));
  api.on(`GET ${BASE}/invitations`, () => ({ json: [makeInvitation()] }));
  api.on(`GET ${BASE}/domains`, () => ({ json: { domains: [verified] } }));
  api.on(`GET ${BASE}/provisioning`, () => ({
    json: { base_url: 'http://portal.test/scim/v2', token: null, users: 0, active_users: 0, groups: [] },
  }));
  api.on(`GET ${BASE}/sso`, () => ({ json: answer() }));
});
afterEach(async () => {
  await api.close();
});

async function openSso(path = BASE) {
  const services = await servicesFor(api, 'user');
  const view = renderApp(services, path);
  const heading = await screen.findByRole('heading', { name: 'Single sign-on' }, { timeout: 30_000 });
  return { section: within(heading.closest('section') as HTMLElement), view };
}

const lastPut = () => JSON.parse(api.calls(`PUT ${BASE}/sso/saml`).at(-1)!.body) as Record<string, unknown>;

describe('organisation page: single sign-on through SAML', () => {
  it('sets up a SAML provider from pasted metadata: our details to copy, its metadata checked before sending, the rules', async () => {
    api.on(`PUT ${BASE}/sso/saml`, (request) => {
      const body = JSON.parse(request.body) as Record<string, unknown>;
      sso = configured({
        group_attribute: body.group_attribute as string | null,
        role_mapping: body.role_mapping as OrganisationSaml['role_mapping'],
        require_sso: body.require_sso as boolean,
        updated_at: '2026-11-27T10:05:00.000Z',
      });
      return { json: answer() };
    });
    const { section } = await openSso();
    // OpenID Connect until SAML is chosen.
    expect(section.getByRole('textbox', { name: /^Issuer/ })).toBeTruthy();
    await userEvent.click(section.getByRole('radio', { name: 'SAML 2.0' }));
    expect(await section.findByText(SAML_SP.acs_url)).toBeTruthy();
    // The same section and form: the choice keeps its focus.
    expect(document.activeElement).toBe(section.getByRole('radio', { name: 'SAML 2.0' }));
    expect(section.getAllByText(SAML_SP.entity_id).length).toBeGreaterThan(0);
    expect(section.getByRole('button', { name: /Copy the assertion consumer service url/i })).toBeTruthy();
    expect(section.queryByRole('button', { name: 'Test sign-in' })).toBeNull();

    // Nothing sent without metadata.
    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText('Paste the identity provider’s metadata')).toBeTruthy();
    expect(document.activeElement).toBe(section.getByRole('textbox', { name: /^Metadata XML/ }));
    expect(api.calls(`PUT ${BASE}/sso/saml`)).toHaveLength(0);

    await userEvent.paste(METADATA);
    section.getByRole('textbox', { name: /^Group attribute/ }).focus();
    await userEvent.paste('groups');
    await userEvent.click(section.getByRole('button', { name: 'Add a rule' }));
    section.getByRole('textbox', { name: 'Group 1' }).focus();
    await userEvent.paste('portal-admins');
    await userEvent.click(section.getByRole('switch', { name: /^Require single sign-on/ }));
    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(`PUT ${BASE}/sso/saml`)).toHaveLength(1));
    expect(lastPut()).toEqual({
      metadata_xml: METADATA,
      group_attribute: 'groups',
      role_mapping: [{ group: 'portal-admins', role: 'admin' }],
      require_sso: true,
    });
    // Saved: what the metadata said is shown back, and the test and removal are offered.
    const idp = await section.findByTestId('saml-identity-provider');
    expect(idp.textContent).toContain('https://idp.acme.example/sso');
    expect(idp.textContent).toContain('CN=Acme identity provider');
    expect(idp.textContent).toContain('SHA-256 AB:CD:EF');
    expect(section.getByRole('button', { name: 'Test sign-in' })).toBeTruthy();
    expect(section.getByRole('button', { name: 'Remove' })).toBeTruthy();
  }, 90_000);

  it('reads the metadata from a URL, keeps the provider when none is given, and shows the server’s refusal', async () => {
    sso = configured();
    let refuse = true;
    api.on(`PUT ${BASE}/sso/saml`, () => {
      if (refuse)
        return problem(
          400,
          'The identity provider’s metadata cannot be used: it has no signing certificate (KeyDescriptor with an X509Certificate).',
          'saml_metadata_invalid',
        );
      return { json: answer() };
    });
    const { section } = await openSso();
    // The saved protocol is the one shown.
    expect(await section.findByTestId('saml-identity-provider')).toBeTruthy();
    await userEvent.click(section.getByRole('radio', { name: 'From a URL' }));
    const url = section.getByRole('textbox', { name: /^Metadata URL/ });
    url.focus();
    await userEvent.paste('idp.acme.example/metadata');
    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText(/metadata_url must be an https:\/\/ URL/)).toBeTruthy();
    expect(api.calls(`PUT ${BASE}/sso/saml`)).toHaveLength(0);

    await userEvent.clear(url);
    await userEvent.paste('https://idp.acme.example/metadata');
    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText(/it has no signing certificate/)).toBeTruthy();
    expect(lastPut()).toMatchObject({ metadata_url: 'https://idp.acme.example/metadata' });

    // Emptied: the saved provider is kept, and only the rest is sent.
    refuse = false;
    await userEvent.clear(url);
    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(`PUT ${BASE}/sso/saml`)).toHaveLength(2));
    expect(lastPut()).not.toHaveProperty('metadata_url');
    expect(lastPut()).not.toHaveProperty('metadata_xml');
  }, 90_000);

  it('starts a SAML test sign-in through the same button, and warns that saving the other protocol replaces it', async () => {
    sso = configured({
      last_test: {
        ok: true,
        at: NOW,
        message: 'Signed in as tess@acme.example through https://idp.acme.example.',
        email: 'tess@acme.example',
        groups: ['portal-admins'],
        role: 'admin',
      },
    });
    api.on(`POST ${BASE}/sso/test`, () =>
      problem(404, 'This organization has not set up single sign-on.', 'sso_not_configured'),
    );
    const { section } = await openSso(`${BASE}#sso_test=ok`);
    const result = await section.findByTestId('sso-test-result');
    expect(within(result).getByText('Test sign-in succeeded')).toBeTruthy();
    expect(result.textContent).toContain('tess@acme.example');
    await userEvent.click(section.getByRole('button', { name: 'Test sign-in' }));
    expect(await section.findByText('The test sign-in did not start')).toBeTruthy();
    expect(api.calls(`POST ${BASE}/sso/test`)).toHaveLength(1);

    await userEvent.click(section.getByRole('radio', { name: 'OpenID Connect' }));
    expect(await section.findByText('Saving replaces the SAML identity provider')).toBeTruthy();
  }, 90_000);
});
