import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganisationDomain } from '../../../src/shared/api/organisation-domains';
import type { Organisation } from '../../../src/shared/api/organisations';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { makeInvitation, makeOrganisation, MEMBERS, ORG_ID } from './fixtures';

const BASE = `/organisations/${ORG_ID}`;
const DOMAIN_ID = '5b1f7a1e-7c1a-4b8e-9d9e-1f2a3b4c5d6e';

const pending = (domain = 'acme.example'): OrganisationDomain => ({
  id: DOMAIN_ID,
  domain,
  status: 'pending',
  record_name: `_desktop-ai-verification.${domain}`,
  record_value: 'desktop-ai-domain-verification=Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4',
  created_at: '2026-12-01T10:00:00.000Z',
  verified_at: null,
  checked_at: null,
  check_failure: null,
});

let api: FakeApi;
let organisation: Organisation;
let domains: OrganisationDomain[];

beforeEach(async () => {
  api = await new FakeApi().start();
  organisation = makeOrganisation();
  domains = [];
  api.on('GET /organisations', () => ({ json: [organisation] }));
  api.on(`GET ${BASE}`, () => ({ json: organisation }));
  api.on(`GET ${BASE}/members`, () => ({ json: MEMBERS }));
  api.on(`GET ${BASE}/invitations`, () => ({ json: [makeInvitation()] }));
  api.on(`GET ${BASE}/domains`, () => ({ json: { domains } }));
  api.on(`GET ${BASE}/sso`, () => ({
    json: {
      sso: null,
      redirect_uri: 'http://portal.test/api/v1/auth/sso/callback',
      saml: {
        entity_id: `http://portal.test/api/v1/auth/sso/saml/${ORG_ID}/metadata`,
        acs_url: `http://portal.test/api/v1/auth/sso/saml/${ORG_ID}/acs`,
        metadata_url: `http://portal.test/api/v1/auth/sso/saml/${ORG_ID}/metadata`,
      },
    },
  }));
  api.on(`GET ${BASE}/provisioning`, () => ({
    json: { base_url: 'http://portal.test/scim/v2', token: null, users: 0, active_users: 0, groups: [] },
  }));
});
afterEach(async () => {
  await api.close();
});

async function openDomains() {
  const services = await servicesFor(api, 'user');
  renderApp(services, BASE);
  // The first page of a run waits for its lazy chunks on a busy machine.
  const heading = await screen.findByRole('heading', { name: 'Sign-in domains' }, { timeout: 30_000 });
  return within(heading.closest('form, .mantine-Card-root, section') as HTMLElement);
}

describe('organisation page: sign-in domains', () => {
  it('lets the owner add a domain from the keyboard, shows the TXT record, and checks DNS until it is verified', async () => {
    api.on(`POST ${BASE}/domains`, (request) => {
      const added = pending((JSON.parse(request.body) as { domain: string }).domain);
      domains = [added];
      return { status: 201, json: added };
    });
    let checks = 0;
    api.on(`POST ${BASE}/domains/${DOMAIN_ID}/verify`, () => {
      checks += 1;
      domains = [
        checks === 1
          ? {
              ...domains[0]!,
              checked_at: '2026-12-01T10:05:00.000Z',
              check_failure: 'No TXT record at _desktop-ai-verification.acme.example',
            }
          : {
              ...domains[0]!,
              status: 'verified',
              verified_at: '2026-12-01T10:10:00.000Z',
              check_failure: null,
            },
      ];
      return { json: domains[0] };
    });
    const section = await openDomains();
    expect(section.getByText(/No domains yet/)).toBeTruthy();

    // A malformed domain is refused before anything is sent.
    const field = section.getByRole('textbox', { name: 'Domain' });
    await userEvent.type(field, 'https://acme.example{Enter}');
    expect(await section.findByText(/without https:\/\//)).toBeTruthy();
    expect(api.calls(`POST ${BASE}/domains`)).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.type(field, 'acme.example{Enter}');
    await waitFor(() => expect(api.calls(`POST ${BASE}/domains`)).toHaveLength(1));
    expect(JSON.parse(api.calls(`POST ${BASE}/domains`)[0]!.body)).toEqual({ domain: 'acme.example' });
    const card = within(await screen.findByTestId('organisation-domain'));
    expect(card.getByText('Waiting for DNS')).toBeTruthy();
    expect(card.getByText('_desktop-ai-verification.acme.example')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Copy the record value' })).toBeTruthy();

    await userEvent.click(card.getByRole('button', { name: 'Check DNS' }));
    expect((await screen.findByTestId('domain-check-result')).textContent).toContain(
      'No TXT record at _desktop-ai-verification.acme.example',
    );

    await userEvent.click(card.getByRole('button', { name: 'Check DNS' }));
    expect(await card.findByText('Verified')).toBeTruthy();
    expect(card.queryByRole('button', { name: 'Check DNS' })).toBeNull();
    // Typed key by key, with the page's first load: slow on a busy machine.
  }, 90_000);

  it('shows a refusal in the form and removes a domain after asking', async () => {
    domains = [pending()];
    api.on(`POST ${BASE}/domains`, () =>
      problem(409, 'Another organization has already verified other.example.', 'domain_claimed'),
    );
    api.on(`DELETE ${BASE}/domains/${DOMAIN_ID}`, () => {
      domains = [];
      return { status: 204 };
    });
    const section = await openDomains();
    await userEvent.type(section.getByRole('textbox', { name: 'Domain' }), 'other.example{Enter}');
    expect(await screen.findByText(/already verified other.example/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remove acme.example' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove acme.example?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Remove domain' }));
    await waitFor(() => expect(api.calls(`DELETE ${BASE}/domains/${DOMAIN_ID}`)).toHaveLength(1));
    expect(await screen.findByText(/No domains yet/)).toBeTruthy();
  });

  it('shows an admin the claims without the owner’s controls', async () => {
    organisation = { ...makeOrganisation(), role: 'admin' };
    domains = [pending()];
    await openDomains();
    const card = within(await screen.findByTestId('organisation-domain'));
    expect(card.getByText('acme.example')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Domain' })).toBeNull();
    expect(card.queryByRole('button', { name: 'Check DNS' })).toBeNull();
    expect(card.queryByRole('button', { name: /Remove/ })).toBeNull();
  });
});
