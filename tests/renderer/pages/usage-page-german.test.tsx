import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import type { FakeApi } from '../support/fake-api';
import { renderAppInLanguage } from '../support/render-app';
import {
  chat,
  LICENSE_ID,
  license,
  SLOW,
  startLicenseApi,
  THIS_MACHINE,
} from './support-licenses/license-fixtures';

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

/** One license with AI chat (the catalogue's own name and unit, which stay as they are). */
function withChatUsage() {
  api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [chat()] } })] }));
  api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
    json: {
      license_id: LICENSE_ID,
      usage_info: { features: [chat()] },
      currency: 'INR',
      history: [],
      overage: [],
      packs: [],
    },
  }));
}

describe('the usage screens in German', () => {
  it('/usage: the page, a feature’s card and its chart speak German; the catalogue’s words stay', async () => {
    withChatUsage();
    await openInGerman('/usage');

    // The page's code and the German catalogs load first: on a busy machine that takes a while.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Nutzung' }, { timeout: 60_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Credits kaufen' })).toBeTruthy();
    const article = await screen.findByRole('article', { name: 'Nutzung von AI chat' }, SLOW);
    const card = within(article);
    expect(article.textContent).toContain('37 von 100 messages in diesem Monat');
    expect(article.textContent).toMatch(/63 messages übrig · wird am .+ zurückgesetzt/);
    expect(card.getByText('Die Nutzung endet beim Kontingent, bis es zurückgesetzt wird.')).toBeTruthy();
    expect(card.getByRole('progressbar', { name: 'AI chat: 37 von 100 messages genutzt' })).toBeTruthy();
    expect(card.getByTestId('usage-chart-summary').textContent).toBe('AI chat: keine Nutzung.');
    expect(screen.queryByText('Use stops at the allowance until it resets.')).toBeNull();
  }, 90_000);

  it('/dashboard: the tiles, the usage section and the quick actions speak German', async () => {
    withChatUsage();
    await openInGerman('/dashboard');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 60_000 }),
    ).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Nutzung in diesem Zeitraum' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Schnellaktionen' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Lizenzen verwalten/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Tarif upgraden/ })).toBeTruthy();
    expect(screen.queryByText('Quick actions')).toBeNull();
  }, 90_000);
});
