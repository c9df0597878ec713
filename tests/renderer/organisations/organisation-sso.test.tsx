import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganisationDomain } from '../../../src/shared/api/organisation-domains';
import type { OrganisationOidc, OrganisationSsoAnswer } from '../../../src/shared/api/organisation-sso';
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

const configured = (extra: Partial<OrganisationOidc> = {}): OrganisationOidc => ({
  protocol: 'oidc',
  issuer: 'https://login.acme.example',
  client_id: 'portal',
  client_secret_set: true,
  scopes: 'openid email profile groups',
  group_claim: 'groups',
  role_mapping: [{ group: 'portal-admins', role: 'admin' }],
  require_sso: false,
  redirect_uri: REDIRECT_URI,
  updated_at: NOW,
  last_test: null,
  ...extra,
});

let api: FakeApi;
let organisation: Organisation;
let domains: OrganisationDomain[];
let sso: OrganisationOidc | null;

beforeEach(async () => {
  api = await new FakeApi().start();
  organisation = makeOrganisation();
  domains = [verified];
  sso = null;
  api.on('GET /organisations', () => ({ json: [organisation] }));
  api.on(`GET ${BASE}`, () => ({ json: organisation }));
  api.on(`GET ${BASE}/members`, () => ({ json: MEMBERS }));
  api.on(`GET ${BASE}/invitations`, () => ({ json: [makeInvitation()] }));
  api.on(`GET ${BASE}/domains`, () => ({ json: { domains } }));
  api.on(`GET ${BASE}/provisioning`, () => ({
    json: { base_url: 'http://portal.test/scim/v2', token: null, users: 0, active_users: 0, groups: [] },
  }));
  api.on(`GET ${BASE}/sso`, () => ({
    json: { sso, redirect_uri: REDIRECT_URI, saml: SAML_SP } satisfies OrganisationSsoAnswer,
  }));
});
afterEach(async () => {
  await api.close();
});

async function openSso(path = BASE) {
  const services = await servicesFor(api, 'user');
  const view = renderApp(services, path);
  // The first page of a run waits for its lazy chunks on a busy machine.
  const heading = await screen.findByRole('heading', { name: 'Single sign-on' }, { timeout: 30_000 });
  return { section: within(heading.closest('section') as HTMLElement), view };
}

const lastPut = () => JSON.parse(api.calls(`PUT ${BASE}/sso`).at(-1)!.body) as Record<string, unknown>;

describe('organisation page: single sign-on', () => {
  it('sets up the provider from the keyboard: issuer, client, secret, scopes, group rules and the requirement', async () => {
    api.on(`PUT ${BASE}/sso`, (request) => {
      const body = JSON.parse(request.body) as Record<string, unknown>;
      sso = configured({
        issuer: body.issuer as string,
        client_id: body.client_id as string,
        scopes: body.scopes as string,
        group_claim: body.group_claim as string | null,
        role_mapping: body.role_mapping as OrganisationOidc['role_mapping'],
        require_sso: body.require_sso as boolean,
        updated_at: '2026-11-27T10:05:00.000Z',
      });
      return { json: { sso, redirect_uri: REDIRECT_URI, saml: SAML_SP } };
    });
    const { section } = await openSso();
    expect(section.getByText(REDIRECT_URI)).toBeTruthy();
    // Nothing to test or remove before it is saved.
    expect(section.queryByRole('button', { name: 'Test sign-in' })).toBeNull();
    expect(section.queryByRole('button', { name: 'Remove' })).toBeNull();

    // Checked here before anything is sent: an issuer that is no URL, and no secret.
    await userEvent.type(section.getByRole('textbox', { name: /^Issuer/ }), 'login.acme{Enter}');
    expect(await section.findByText(/issuer must be an https:\/\/ URL/)).toBeTruthy();
    expect(section.getByText('Give the client secret the provider issued')).toBeTruthy();
    expect(document.activeElement).toBe(section.getByRole('textbox', { name: /^Issuer/ }));
    expect(api.calls(`PUT ${BASE}/sso`)).toHaveLength(0);

    // Long values pasted (typing them key by key is slow on a busy machine); moving on by the keyboard.
    await userEvent.clear(section.getByRole('textbox', { name: /^Issuer/ }));
    await userEvent.paste('https://login.acme.example/');
    await userEvent.tab();
    await userEvent.paste('portal');
    await userEvent.tab();
    expect(document.activeElement).toBe(section.getByLabelText(/^Client secret/));
    await userEvent.paste('s3cret-of-the-client');
    section.getByRole('textbox', { name: /^Scopes/ }).focus();
    await userEvent.keyboard('{End} groups');
    section.getByRole('textbox', { name: /^Group claim/ }).focus();
    await userEvent.paste('groups');
    await userEvent.click(section.getByRole('button', { name: 'Add a rule' }));
    section.getByRole('textbox', { name: 'Group 1' }).focus();
    await userEvent.paste('portal-admins');
    expect((section.getByRole('combobox', { name: 'Role 1' }) as HTMLSelectElement).value).toBe('admin');
    const require = section.getByRole('switch', { name: /^Require single sign-on/ });
    expect((require as HTMLInputElement).disabled).toBe(false);
    require.focus();
    await userEvent.keyboard(' ');
    await userEvent.click(section.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls(`PUT ${BASE}/sso`)).toHaveLength(1));
    expect(lastPut()).toEqual({
      issuer: 'https://login.acme.example/',
      client_id: 'portal',
      client_secret: 's3cret-of-the-client',
      scopes: 'openid email profile groups',
      group_claim: 'groups',
      role_mapping: [{ group: 'portal-admins', role: 'admin' }],
      require_sso: true,
    });
    // Saved: the secret is only said to be set, and the test and removal are offered.
    expect(await section.findByTestId('sso-secret-set')).toBeTruthy();
    expect(section.queryByLabelText(/Client secret/, { selector: 'input' })).toBeNull();
    expect(section.getByRole('button', { name: 'Test sign-in' })).toBeTruthy();
    expect(section.getByRole('button', { name: 'Remove' })).toBeTruthy();
  }, 90_000);

  it('keeps the stored secret unless it is replaced, and shows every refusal with the server’s message', async () => {
    sso = configured();
    let answer: 'unreachable' | 'field' | 'ok' = 'unreachable';
    api.on(`PUT ${BASE}/sso`, () => {
      if (answer === 'unreachable')
        return problem(
          502,
          'The provider at https://login.acme.example did not answer its discovery document.',
          'sso_provider_unreachable',
        );
      if (answer === 'field')
        return {
          status: 400,
          json: {
            detail: 'Invalid request body',
            message: 'Invalid request body',
            code: 'validation_error',
            errors: [{ field: 'client_id', message: 'client_id is too long' }],
          },
        };
      return { json: { sso, redirect_uri: REDIRECT_URI, saml: SAML_SP } };
    });
    const { section } = await openSso();
    expect((section.getByRole('textbox', { name: /^Issuer/ }) as HTMLInputElement).value).toBe(
      'https://login.acme.example',
    );
    expect(section.getByTestId('sso-secret-set').textContent).toContain('Set');

    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText(/did not answer its discovery document/)).toBeTruthy();
    expect(lastPut()).not.toHaveProperty('client_secret');

    answer = 'field';
    await userEvent.click(section.getByRole('button', { name: 'Replace secret' }));
    await waitFor(() => expect(document.activeElement).toBe(section.getByLabelText(/New client secret/)));
    await userEvent.paste('a-new-secret');
    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText('client_id is too long')).toBeTruthy();
    expect(lastPut()).toMatchObject({ client_secret: 'a-new-secret' });

    // Changed back: the stored secret is kept again.
    answer = 'ok';
    await userEvent.click(section.getByRole('button', { name: 'Keep the current secret' }));
    await userEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(`PUT ${BASE}/sso`)).toHaveLength(3));
    expect(lastPut()).not.toHaveProperty('client_secret');
  }, 90_000);

  it('offers the requirement only once a domain is verified, and says why', async () => {
    domains = [{ ...verified, status: 'pending', verified_at: null }];
    const { section } = await openSso();
    const require = section.getByRole('switch', { name: /^Require single sign-on/ }) as HTMLInputElement;
    await waitFor(() => expect(require.disabled).toBe(true));
    expect(section.getByText(/Verify a domain under Sign-in domains first/)).toBeTruthy();
  });

  it('starts a test sign-in, shows why it could not start, and shows the result it came back with', async () => {
    sso = configured();
    let tests = 0;
    api.on(`POST ${BASE}/sso/test`, () => {
      tests += 1;
      return problem(
        502,
        'The provider at https://login.acme.example did not answer.',
        'sso_provider_unreachable',
      );
    });
    const first = await openSso();
    await userEvent.click(first.section.getByRole('button', { name: 'Test sign-in' }));
    expect(await first.section.findByText('The test sign-in did not start')).toBeTruthy();
    expect(first.section.getByText(/did not answer\./)).toBeTruthy();
    expect(tests).toBe(1);
    // An edited form tests nothing until it is saved.
    first.section.getByRole('textbox', { name: /^Client ID/ }).focus();
    await userEvent.keyboard('2');
    expect((first.section.getByRole('button', { name: 'Test sign-in' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(first.section.getByText('Save your changes to test them.')).toBeTruthy();
    first.view.unmount();

    // The provider sent the browser back here: the result is in view, with what came back.
    sso = configured({
      last_test: {
        ok: false,
        at: NOW,
        message: 'Your e-mail address is not at a domain this organization has verified.',
        email: 'tess@elsewhere.example',
        groups: ['portal-admins'],
        role: null,
      },
    });
    const back = await openSso(`${BASE}#sso_test=failed`);
    const result = await back.section.findByTestId('sso-test-result');
    expect(within(result).getByText('Test sign-in failed')).toBeTruthy();
    expect(result.textContent).toContain('not at a domain this organization has verified');
    expect(result.textContent).toContain('tess@elsewhere.example');
    await waitFor(() => expect(document.activeElement).toBe(result.parentElement));
    await waitFor(() => expect(back.view.router.state.location.hash).toBe(''));
  }, 90_000);

  it('removes single sign-on after asking, and shows a refusal in the dialog', async () => {
    sso = configured();
    let refuse = true;
    api.on(`DELETE ${BASE}/sso`, () => {
      if (refuse)
        return problem(
          403,
          'Only the owner and admins manage single sign-on.',
          'organisation_admin_required',
        );
      sso = null;
      return { status: 204 };
    });
    const { section } = await openSso();
    await userEvent.click(section.getByRole('button', { name: 'Remove' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove single sign-on?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Remove single sign-on' }));
    expect(await dialog.findByText(/Only the owner and admins manage/)).toBeTruthy();
    refuse = false;
    await userEvent.click(dialog.getByRole('button', { name: 'Remove single sign-on' }));
    await waitFor(() => expect(api.calls(`DELETE ${BASE}/sso`)).toHaveLength(2));
    await waitFor(() => expect(section.queryByRole('button', { name: 'Test sign-in' })).toBeNull());
    expect((section.getByRole('textbox', { name: /^Issuer/ }) as HTMLInputElement).value).toBe('');
  }, 90_000);

  it('shows a member nothing of it', async () => {
    organisation = { ...makeOrganisation(), role: 'member' };
    const services = await servicesFor(api, 'user');
    renderApp(services, BASE);
    expect(await screen.findByRole('heading', { name: 'Acme Studio' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Single sign-on' })).toBeNull();
    expect(api.calls(`GET ${BASE}/sso`)).toHaveLength(0);
  });
});
