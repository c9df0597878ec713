import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LicenseTroubleshooter } from '../../../src/renderer/src/features/licenses/components/license-troubleshooter';
import { loadPasswordRule } from '../../../src/renderer/src/features/auth/password-strength';
import { portalI18n, showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import type { LicenseCheckResult } from '../../../src/shared/bridge';
import { passwordFeedbackTexts } from '../../../src/shared/password-feedback';
import { FakeApi } from '../support/fake-api';
import { openPortalPage } from '../components/portal-page';
import { renderAppInLanguage } from '../support/render-app';

const SLOW = { timeout: 30_000 };

let api: FakeApi;
beforeAll(async () => {
  // zxcvbn loads on first use: loaded up front, so the test's time is the page's.
  await loadPasswordRule();
}, 30_000);
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
  await showLanguage('de');
});
afterEach(async () => {
  await showLanguage('en');
  await api.close();
});

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

describe('text from src/shared, in German', () => {
  it('register: the shared schemas’ errors and zxcvbn’s feedback', { timeout: 90_000 }, async () => {
    await openPortalPage(api, '/register');
    await screen.findByRole('heading', { name: 'Konto erstellen' }, SLOW);

    await userEvent.type(field(/^E-Mail/), 'not-an-address');
    await userEvent.type(field(/^Passwort\s*\*?$/), 'aaaaaaa');
    // zxcvbn's warning for a repeat, in German (shared/password-feedback.ts holds its English).
    expect(
      await screen.findByText(/Wiederholte Zeichen wie „aaa“ sind leicht zu erraten\./, {}, SLOW),
    ).toBeTruthy();
    expect(screen.queryByText(new RegExp(passwordFeedbackTexts.warnings.simpleRepeat))).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Konto erstellen' }));
    // shared/api/common.ts's English, shown in German.
    expect(await screen.findByText('Geben Sie eine gültige E-Mail-Adresse ein', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('Das Passwort muss mindestens 8 Zeichen lang sein')).toBeTruthy();
    expect(screen.queryByText('Enter a valid e-mail address')).toBeNull();
    expect(screen.queryByText(/^Password must be at least/)).toBeNull();
  });

  it('contact support: the shared topics and the schema’s errors', { timeout: 90_000 }, async () => {
    api.on('GET /health', () => ({
      json: { status: 'ok', database: 'ok', version: '1.4.2', uptime_seconds: 10 },
    }));
    api.on('GET /licenses', () => ({ json: [] }));
    await renderAppInLanguage(api, '/support', 'de');
    const card = within(
      await screen.findByRole('region', { name: 'Support kontaktieren' }, { timeout: 60_000 }),
    );
    const topics = within(card.getByLabelText('Thema'));
    // The value sent stays the English (support's mail is sorted by it); the label is German.
    expect(
      (topics.getByRole('option', { name: 'Lizenzierung und Aktivierung' }) as HTMLOptionElement).value,
    ).toBe('Licensing and activation');
    expect(topics.queryByRole('option', { name: 'Licensing and activation' })).toBeNull();

    await userEvent.click(card.getByRole('button', { name: 'Anfrage senden' }));
    expect(await card.findByText('Schreiben Sie einen kurzen Betreff', {}, SLOW)).toBeTruthy();
    expect(
      card.getByText('Beschreiben Sie das Problem in ein paar Worten (mindestens 20 Zeichen)'),
    ).toBeTruthy();
    expect(card.queryByText('Write a short subject')).toBeNull();
  });

  it('the license check: what is left of the offline grace period', () => {
    const result: LicenseCheckResult = {
      valid: true,
      status: 'active',
      message: 'License is valid',
      offline: {
        grace_remaining_seconds: 6 * 86_400 + 3600,
        lease_expires_at: '2026-12-12T10:00:00Z',
      },
    };
    render(
      <I18nProvider i18n={portalI18n}>
        <MantineProvider>
          <MemoryRouter>
            <LicenseTroubleshooter result={result} checking={false} onCheck={() => {}} kind="desktop" />
          </MemoryRouter>
        </MantineProvider>
      </I18nProvider>,
    );
    expect(screen.getByText(/noch 6 Tage Offline-Nutzung übrig/)).toBeTruthy();
    expect(screen.queryByText(/6 days/)).toBeNull();
  });
});
