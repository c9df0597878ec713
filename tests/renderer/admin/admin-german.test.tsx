import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { FakeApi, testUser } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(async () => {
  await showLanguage('en');
  return api.close();
});

describe('the admin console in German', { timeout: 120_000 }, () => {
  it('shows the users list with its title, columns and empty state translated', async () => {
    api.on('GET /admin/users', () => ({ json: { data: [], total: 0, page: 1, perPage: 10 } }));
    api.on('PUT /users/me/preferences', () => ({ json: { ...testUser.preferences, language: 'de' } }));
    const services = await servicesFor(api, 'admin');
    renderApp(services, '/admin/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' }, { timeout: 60_000 });
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'Deutsch');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Benutzer' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(await screen.findByText('Noch keine Benutzer', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Neuer Benutzer' }).length).toBeGreaterThan(0);
  });

  it('the New user form says what the shared e-mail rule refuses in German', async () => {
    api.on('GET /admin/users', () => ({ json: { data: [], total: 0, page: 1, perPage: 10 } }));
    api.on('PUT /users/me/preferences', () => ({ json: { ...testUser.preferences, language: 'de' } }));
    renderApp(await servicesFor(api, 'admin'), '/admin/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' }, { timeout: 60_000 });
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'Deutsch');
    await screen.findByRole('heading', { level: 1, name: 'Benutzer' }, { timeout: 10_000 });
    await userEvent.click(screen.getAllByRole('button', { name: 'Neuer Benutzer' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Neuer Benutzer' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^E-Mail/ }), 'not-an-address');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Benutzer anlegen' }));
    expect(await within(dialog).findByText('Geben Sie eine gültige E-Mail-Adresse ein')).toBeTruthy();
    expect(within(dialog).queryByText('Enter a valid e-mail address')).toBeNull();
    expect(api.calls('POST /admin/users')).toHaveLength(0);
  });
});
