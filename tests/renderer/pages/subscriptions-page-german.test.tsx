import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/shared/api/plans';
import type { Subscription } from '../../../src/shared/api/subscriptions';
import { describeSubscriptionStatus } from '../../../src/renderer/src/features/subscriptions/subscription-format';
import { formatDate } from '../../../src/renderer/src/lib/format-date';
import { formatMoney } from '../../../src/renderer/src/lib/format-money';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { FakeApi, testUser } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { plan as sharedPlan } from '../support/api-answers';

// The Subscriptions page shown in German (issue 34): its sentences, its status words, the plurals
// of a pause's length and the recurring price all come from the German catalog.

const NOW = '2026-11-27T10:00:00.000Z';

const PRO: Plan = sharedPlan('pro-monthly', {
  name: 'Pro',
  description: 'Pro plan',
  price_minor: 99_900,
  billing_interval: 'month',
  max_activations: 3,
  created_at: NOW,
  updated_at: NOW,
});

const subscription = (extra: Partial<Subscription> = {}): Subscription => ({
  id: 'sub-1',
  provider_subscription_id: 'sub_sandbox_abc',
  provider: 'sandbox',
  sandbox: true,
  status: 'active',
  plan: {
    id: 'pro-monthly',
    code: 'pro-monthly',
    name: 'Pro',
    billing_interval: 'month',
    price_minor: 99_900,
    currency: 'INR',
  },
  license_id: 'lic-pro',
  current_period_start: '2026-11-20T10:00:00.000Z',
  current_period_end: '2026-12-20T10:00:00.000Z',
  next_charge: { at: '2026-12-20T10:00:00.000Z', amount_minor: 99_900, currency: 'INR' },
  cancel_at_period_end: false,
  cancel_requested_at: null,
  ended_at: null,
  grace_ends_at: null,
  failed_attempts: 0,
  payment_method: 'Sandbox card •••• 4242',
  sandbox_card: 'succeeds',
  credit_minor: 0,
  cancel_now_refund_minor: 0,
  trial_ends_at: null,
  pause: null,
  cancel_credit_refund_minor: 0,
  created_at: NOW,
  ...extra,
});

// The account's language is German: the portal shows it once signed in (as it would anyway).
const germanUser = { ...testUser, preferences: { ...testUser.preferences, language: 'de' } };

let api: FakeApi;

beforeEach(async () => {
  await showLanguage('de');
  api = await new FakeApi().start();
  api.on('GET /users/me', () => ({ json: germanUser }));
  api.on('GET /plans/public', () => ({ json: [PRO] }));
  api.on('GET /subscriptions', () => ({ json: { data: [subscription()] } }));
  api.on('GET /subscriptions/sub-1', () => ({ json: { ...subscription(), charges: [] } }));
  api.on('GET /billing/invoices', () => ({ json: { data: [], total: 0, page: 1, perPage: 100 } }));
});
afterEach(async () => {
  await api.close();
  await showLanguage('en');
});

describe('subscriptions page in German', () => {
  it('says a planned pause in German, its length a plural', () => {
    const paused = subscription({
      pause: {
        requested_at: '2026-12-01T10:00:00.000Z',
        starts_at: '2026-12-20T10:00:00.000Z',
        resumes_at: '2027-02-20T10:00:00.000Z',
        periods: 2,
      },
    });
    const status = describeSubscriptionStatus(paused);
    expect(status.label).toBe('Pause geplant');
    expect(status.notice?.title).toBe(`Pausiert ab ${formatDate('2026-12-20T10:00:00.000Z')} für 2 Monate`);
  });

  it('shows the card, its terms and the pause dialog in German', async () => {
    const services = await servicesFor(api, 'user');
    await services.tokens.setUser(germanUser);
    renderApp(services, '/subscriptions');
    await screen.findByRole('heading', { level: 1, name: 'Abonnements' }, { timeout: 40_000 });
    const card = within(await screen.findByRole('article', { name: 'Pro' }, { timeout: 10_000 }));
    expect(card.getByTestId('subscription-status').textContent).toBe('Aktiv');
    // German writes "999 ₹" with a no-break space, which the matcher reads as a plain one.
    expect(
      card.getByText(`Monatlich · ${formatMoney(99_900, 'INR').replace(/\s/g, ' ')} / Monat`),
    ).toBeTruthy();
    expect(card.getByText('Nächste Belastung')).toBeTruthy();
    expect(card.getByTestId('kept-credit').textContent).toBe('Keine');
    // The sandbox's card, named by the server in English, in German (its digits as they are).
    expect(card.getByText('Sandbox-Karte •••• 4242')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Abonnement kündigen…' })).toBeTruthy();

    await userEvent.click(card.getByRole('button', { name: 'Pausieren…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Pro pausieren?' }));
    expect(dialog.getByText('Für wie lange?')).toBeTruthy();
    expect(dialog.getByRole('radio', { name: /^1 Monat/ })).toBeTruthy();
    expect(dialog.getByRole('radio', { name: /^3 Monate/ })).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Für 1 Monat pausieren' })).toBeTruthy();
  }, 60_000);
});
