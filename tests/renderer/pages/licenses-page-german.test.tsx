import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import type { FakeApi } from '../support/fake-api';
import { renderAppInLanguage } from '../support/render-app';
import { license, SLOW, startLicenseApi, THIS_MACHINE } from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
  await showLanguage('de');
});
afterEach(async () => {
  await showLanguage('en');
  await api.close();
});

/** `path` for a signed-in user whose account chose German (the account's language wins). */
const openInGerman = (path: string) => renderAppInLanguage(api, path, 'de', THIS_MACHINE);

describe('/licenses in German', () => {
  it('shows the list, a license card, its status, seats and the key form in German', async () => {
    api.on('GET /licenses', () => ({ json: [license({ activations_used: 2 })] }));
    await openInGerman('/licenses');

    // The page's code and the German catalogs load first: on a busy machine that takes a while.
    expect(await screen.findByRole('heading', { name: 'Ihre Lizenzen' }, { timeout: 60_000 })).toBeTruthy();
    const card = within(await screen.findByRole('article', { name: 'Lizenz Pro' }, SLOW));
    expect(card.getByText('Aktiv')).toBeTruthy();
    expect(card.getByText(/Monatlicher Tarif · Läuft am .+ ab/)).toBeTruthy();
    expect(card.getByText('2 von 3 Plätzen belegt')).toBeTruthy();
    expect(card.getByRole('progressbar', { name: 'Belegte Plätze: 2 von 3' })).toBeTruthy();
    expect(card.getByRole('button', { name: 'Schlüssel anzeigen' })).toBeTruthy();
    expect(card.getByRole('link', { name: 'Details zu Lizenz Pro' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Mit Schlüssel aktivieren' })).toBeTruthy();
    expect(screen.queryByText('Your licenses')).toBeNull();
  }, 90_000);
});
