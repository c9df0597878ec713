import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { FakeApi, testUser } from '../support/fake-api';
import { renderAppInLanguage } from '../support/render-app';

const SLOW = { timeout: 10_000 };

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /health', () => ({
    json: { status: 'ok', database: 'ok', version: '1.4.2', uptime_seconds: 10 },
  }));
  api.on('GET /licenses', () => ({ json: [] }));
  await showLanguage('de');
});
afterEach(async () => {
  await showLanguage('en');
  await api.close();
});

/** `path` for a signed-in user whose account chose German (the account's language wins). */
const openInGerman = (path: string) => renderAppInLanguage(api, path, 'de');

describe('the account screens in German', () => {
  it('Support: the license check says what it checks and what to do, in German', async () => {
    await openInGerman('/support');

    const check = within(await screen.findByRole('region', { name: 'Lizenzprüfung' }, { timeout: 60_000 }));
    expect(
      check.getByText(
        'Prüft die in diesem Browser gespeicherte Lizenz beim Lizenzserver – genau wie die Desktop-App beim Start.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(check.getByText('Was zu tun ist')).toBeTruthy(), SLOW);
    expect(check.getByRole('link', { name: 'Seite „Lizenzen“' }).getAttribute('href')).toBe('/licenses');
    expect(check.getByRole('button', { name: 'Lizenzstatus prüfen' })).toBeTruthy();
  }, 90_000);

  it('Profile: "Member since" writes its date in German', async () => {
    await openInGerman('/profile');

    const details = await screen.findByRole('region', { name: 'Persönliche Angaben' }, { timeout: 60_000 });
    const since = new Intl.DateTimeFormat('de', { dateStyle: 'long' }).format(new Date(testUser.created_at));
    expect(details.textContent).toContain(since);
    expect(details.textContent).not.toContain('January');
  }, 90_000);
});
