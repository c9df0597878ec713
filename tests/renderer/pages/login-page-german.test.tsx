import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import type { FakeApi } from '../support/fake-api';
import { openPortalPage, startFakeApi } from '../components/portal-page';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
  await showLanguage('de');
});
afterEach(async () => {
  api.close();
  await showLanguage('en');
});

describe('the sign-in page in German (issue 34)', () => {
  it('shows its title, fields, links and its own checks in German, and sends nothing', async () => {
    await openPortalPage(api, '/login');
    expect(await screen.findByRole('heading', { name: 'Anmelden' }, { timeout: 10_000 })).toBeTruthy();
    expect(
      screen.getByText(
        'Willkommen zurück. Melden Sie sich an, um Ihre Lizenzen, Geräte und Ihren Tarif zu verwalten.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Passwort vergessen?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    // The card's way to registration, under the form (the header has its own).
    const newHere = screen.getByText(/^Neu hier\?/);
    expect(within(newHere).getByRole('link', { name: 'Konto erstellen' }).getAttribute('href')).toBe(
      '/register',
    );
    expect(screen.getByLabelText(/^Passwort/, { selector: 'input[type=password]' })).toHaveProperty(
      'autocomplete',
      'current-password',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('Geben Sie Ihre E-Mail-Adresse ein')).toBeTruthy();
    expect(screen.getByText('Passwort ist erforderlich')).toBeTruthy();
    expect(api.calls('POST /auth/login')).toHaveLength(0);
  });
});
