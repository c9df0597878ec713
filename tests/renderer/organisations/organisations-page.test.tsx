import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { FakeApi, problem, testUser } from '../support/fake-api';

import { renderApp, servicesFor } from '../support/render-app';
import { makeOrganisation, MEMBERS, ORG_ID, OTHER_ID } from './fixtures';

let api: FakeApi;

beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(async () => {
  await api.close();
});

async function openList() {
  const services = await servicesFor(api, 'user');
  const view = renderApp(services, '/organisations');
  // The page's code loads on first use: the first test of a busy run waits for it.
  await screen.findByRole('heading', { level: 1, name: 'Organizations' }, { timeout: 10_000 });
  return view;
}

describe('organisations list', () => {
  it('shows each organisation with the caller’s role and the seats used of bought', async () => {
    api.on('GET /organisations', () => ({
      json: [
        makeOrganisation(),
        makeOrganisation({
          id: OTHER_ID,
          name: 'Beta Labs',
          role: 'member',
          members_count: 1,
          seats: null,
          license_id: null,
          subscription_id: null,
        }),
      ],
    }));
    await openList();
    const acme = within(await screen.findByRole('article', { name: 'Acme Studio' }));
    expect(acme.getByText('Owner')).toBeTruthy();
    expect(acme.getByTestId('organisation-seats').textContent).toBe(
      '2 of 3 seats used · 1 pending invitation',
    );
    expect(acme.getByText('3 members')).toBeTruthy();
    expect(acme.getByRole('link', { name: 'Acme Studio' }).getAttribute('href')).toBe(
      `/organisations/${ORG_ID}`,
    );
    const beta = within(screen.getByRole('article', { name: 'Beta Labs' }));
    expect(beta.getByText('Member')).toBeTruthy();
    expect(beta.getByTestId('organisation-seats').textContent).toBe('No seats yet');
    expect(beta.getByText('1 member')).toBeTruthy();
  });

  it('shows the list in German, with German plurals, once German is chosen', async () => {
    api.on('GET /organisations', () => ({ json: [makeOrganisation()] }));
    api.on('PUT /users/me/preferences', () => ({ json: { ...testUser.preferences, language: 'de' } }));
    try {
      await openList();
      await userEvent.selectOptions(screen.getByLabelText('Language'), 'Deutsch');
      await screen.findByRole('heading', { level: 1, name: 'Organisationen' }, { timeout: 10_000 });

      const acme = within(await screen.findByRole('article', { name: 'Acme Studio' }));
      expect(acme.getByText('Inhaber')).toBeTruthy();
      expect(acme.getByTestId('organisation-seats').textContent).toBe(
        '2 von 3 Plätzen belegt · 1 offene Einladung',
      );
      expect(acme.getByText('3 Mitglieder')).toBeTruthy();
    } finally {
      await showLanguage('en');
    }
  });

  it('offers to create the first one, and lands on its page once created', async () => {
    let created = false;
    api.on('GET /organisations', () => ({ json: created ? [makeOrganisation()] : [] }));
    api.on('POST /organisations', () => {
      created = true;
      return {
        status: 201,
        json: makeOrganisation({ members_count: 1, seats: null, license_id: null, subscription_id: null }),
      };
    });
    api.on(`GET /organisations/${ORG_ID}`, () => ({
      json: makeOrganisation({ members_count: 1, seats: null, license_id: null, subscription_id: null }),
    }));
    api.on(`GET /organisations/${ORG_ID}/members`, () => ({ json: [MEMBERS[0]] }));
    api.on(`GET /organisations/${ORG_ID}/invitations`, () => ({ json: [] }));
    const { router } = await openList();
    await screen.findByRole('heading', { name: 'No organization yet' });
    await userEvent.click(screen.getByRole('button', { name: 'Create organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create organization' }));
    // The name is checked before anything is sent.
    await userEvent.click(dialog.getByRole('button', { name: 'Create organization' }));
    expect(await dialog.findByText('Give the organization a name')).toBeTruthy();
    expect(api.calls('POST /organisations')).toHaveLength(0);
    await userEvent.type(dialog.getByRole('textbox', { name: /Name/ }), '  Acme Studio ');
    await userEvent.click(dialog.getByRole('button', { name: 'Create organization' }));
    // Then, optionally, its billing details: skipped here.
    const billing = within(await screen.findByRole('dialog', { name: 'Billing details for Acme Studio' }));
    expect(billing.getByRole('region', { name: 'Billing details' })).toBeTruthy();
    await userEvent.click(billing.getByRole('button', { name: 'Skip for now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organisations/${ORG_ID}`));
    expect(JSON.parse(api.calls('POST /organisations')[0]?.body ?? '{}')).toEqual({ name: 'Acme Studio' });
    expect(api.calls(`PATCH /organisations/${ORG_ID}`)).toHaveLength(0);
    await screen.findByRole('heading', { level: 1, name: 'Acme Studio' });
    // No licence yet: the way to buy the Business plan, the purchase screen opening its checkout.
    expect(screen.getByRole('link', { name: 'Buy the Business plan' }).getAttribute('href')).toBe(
      `/purchase?organisation=${ORG_ID}`,
    );
  });

  it('saves billing details given right after creating, on the organisation', async () => {
    const acme = makeOrganisation({ members_count: 1, seats: null, license_id: null, subscription_id: null });
    api.on('GET /organisations', () => ({ json: [] }));
    api.on('POST /organisations', () => ({ status: 201, json: acme }));
    api.on(`PATCH /organisations/${ORG_ID}`, (request) => ({
      json: {
        ...acme,
        billing_details: {
          ...(JSON.parse(request.body) as { billing_details: object }).billing_details,
          updated_at: '2026-11-27T11:00:00.000Z',
        },
      },
    }));
    api.on(`GET /organisations/${ORG_ID}`, () => ({ json: acme }));
    api.on(`GET /organisations/${ORG_ID}/members`, () => ({ json: [MEMBERS[0]] }));
    api.on(`GET /organisations/${ORG_ID}/invitations`, () => ({ json: [] }));
    const { router } = await openList();
    await userEvent.click(await screen.findByRole('button', { name: 'Create organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create organization' }));
    await userEvent.type(dialog.getByRole('textbox', { name: /Name/ }), 'Acme Studio');
    await userEvent.click(dialog.getByRole('button', { name: 'Create organization' }));
    const billing = within(await screen.findByRole('dialog', { name: 'Billing details for Acme Studio' }));
    await userEvent.type(billing.getByRole('textbox', { name: /Billing name/ }), 'Acme Studio LLP');
    await userEvent.type(billing.getByRole('textbox', { name: /^Address\s*\*?$/ }), '12 MG Road');
    await userEvent.type(billing.getByRole('textbox', { name: /City/ }), 'Bengaluru');
    await userEvent.type(billing.getByRole('textbox', { name: /PIN code/ }), '560001');
    await userEvent.selectOptions(billing.getByRole('combobox', { name: /State/ }), 'Karnataka');
    await userEvent.click(billing.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organisations/${ORG_ID}`));
    expect(JSON.parse(api.calls(`PATCH /organisations/${ORG_ID}`)[0]?.body ?? '{}')).toMatchObject({
      billing_details: { name: 'Acme Studio LLP', city: 'Bengaluru', postal_code: '560001', country: 'IN' },
    });
    expect(api.calls('PUT /billing/details')).toHaveLength(0);
  });

  it('keeps the server’s refusal in the create dialog', async () => {
    api.on('GET /organisations', () => ({ json: [] }));
    api.on('POST /organisations', () =>
      problem(403, 'Your account cannot create organizations', 'forbidden'),
    );
    await openList();
    await userEvent.click(await screen.findByRole('button', { name: 'Create organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create organization' }));
    await userEvent.type(dialog.getByRole('textbox', { name: /Name/ }), 'Acme');
    await userEvent.click(dialog.getByRole('button', { name: 'Create organization' }));
    expect((await dialog.findByRole('alert')).textContent).toContain(
      'Your account cannot create organizations',
    );
  });

  it('says why the list could not be loaded', async () => {
    api.on('GET /organisations', () => problem(500, 'The database is not answering', 'internal'));
    await openList();
    expect((await screen.findByRole('alert')).textContent).toContain('The database is not answering');
  });
});
