import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  await showLanguage('de');
});
afterEach(async () => {
  await showLanguage('en');
  return api.close();
});

describe('the admin console in German', { timeout: 90_000 }, () => {
  it('shows the users list with its title, columns and empty state translated', async () => {
    api.on('GET /admin/users', () => ({ json: { data: [], total: 0, page: 1, perPage: 10 } }));
    const services = await servicesFor(api, 'admin');
    renderApp(services, '/admin/users');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Benutzer' }, { timeout: 30_000 }),
    ).toBeTruthy();
    expect(await screen.findByText('Noch keine Benutzer', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Neuer Benutzer' })).toBeTruthy();
  });
});
