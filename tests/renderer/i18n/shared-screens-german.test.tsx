import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authMessages, renderErrorMessages, unreachableMessages } from '../../../src/shared/messages';
import { RouteErrorFallback } from '../../../src/renderer/src/app/route-error-fallback';
import { ListPagination } from '../../../src/renderer/src/components/data-table/list-pagination';
import { toSubmitFailure } from '../../../src/renderer/src/components/forms/submit-failure';
import { failureMessage, type ApiFailure } from '../../../src/renderer/src/lib/api-errors';
import { formatDate } from '../../../src/renderer/src/lib/format-date';
import { formatAmount, formatMoney } from '../../../src/renderer/src/lib/format-money';
import { KNOWN_MESSAGES } from '../../../src/renderer/src/lib/i18n/known-messages';
import { portalI18n, showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';

const failure = (message: string): ApiFailure => ({ message, fieldErrors: {} });

describe('the known English messages', () => {
  it('hold SPEC’s English as it is, each once, under a key of its own', () => {
    const ids = new Set<string>();
    for (const [english, descriptor] of KNOWN_MESSAGES) {
      expect(descriptor.message).toBe(english);
      expect(descriptor.id).not.toBe(english);
      ids.add(descriptor.id);
    }
    expect(ids.size).toBe(KNOWN_MESSAGES.size);
    expect(KNOWN_MESSAGES.has(authMessages.loginFailed)).toBe(true);
    expect(KNOWN_MESSAGES.has(unreachableMessages.message)).toBe(true);
  });

  it('show as they are in English', () => {
    expect(failureMessage(failure('Incorrect e-mail or password'), 'x')).toBe('Incorrect e-mail or password');
    expect(failureMessage(undefined, authMessages.loginFailed)).toBe(authMessages.loginFailed);
  });
});

describe('shared screens in German', () => {
  beforeEach(async () => {
    await showLanguage('de');
  });
  afterEach(async () => {
    await showLanguage('en');
  });

  it('shows a server message it knows in German, and one it does not as sent', () => {
    expect(failureMessage(failure('Incorrect e-mail or password'), 'x')).toBe(
      'E-Mail-Adresse oder Passwort ist falsch',
    );
    expect(failureMessage(failure('Try again in 3 minutes, or reset your password.'), 'x')).toBe(
      'Try again in 3 minutes, or reset your password.',
    );
    // The portal's own fallbacks (SPEC's English) too, and in a form's alert.
    expect(failureMessage(undefined, authMessages.loginFailed)).toBe(
      'Anmeldung fehlgeschlagen. Bitte überprüfen Sie Ihre Zugangsdaten.',
    );
    expect(toSubmitFailure(failure(unreachableMessages.message), 'x').message).toBe(
      'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es dann erneut.',
    );
  });

  it('writes money, "Free" and dates the German way', () => {
    expect(formatAmount(0, 'INR')).toBe('Kostenlos');
    expect(formatAmount(149950, 'INR')).toBe('1.499,50\u00a0₹');
    expect(formatMoney(0, 'EUR')).toBe('0\u00a0€');
    expect(formatDate('2025-06-01T12:00:00Z')).toBe('01.06.2025');
  });

  it('shows the pagination and the failure screen in German', () => {
    render(
      <I18nProvider i18n={portalI18n}>
        <MantineProvider>
          <ListPagination
            noun="Benutzer"
            total={240}
            page={2}
            perPage={25}
            onPage={() => {}}
            onPerPage={() => {}}
          />
          <RouteErrorFallback error={new Error('boom')} onReload={() => {}} />
        </MantineProvider>
      </I18nProvider>,
    );
    expect(screen.getByText('26–50 von 240 Benutzer')).toBeTruthy();
    expect(screen.getByLabelText('Zeilen pro Seite')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Etwas ist schiefgelaufen' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Seite neu laden' })).toBeTruthy();
    expect(screen.queryByText(renderErrorMessages.title)).toBeNull();
  });
});
