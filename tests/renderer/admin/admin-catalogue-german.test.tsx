import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminActivation, AdminLicense } from '../../../src/shared/api/admin';
import type { Coupon } from '../../../src/shared/api/coupons';
import type { Feature } from '../../../src/shared/api/features';
import type { Plan } from '../../../src/shared/api/plans';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { FakeApi } from '../support/fake-api';
import { renderAppInLanguage } from '../support/render-app';
import { withOwnPrice } from '../support/plan-prices';

// The page is lazy, the session gate runs first and the German catalogs load: that takes a while.
configure({ asyncUtilTimeout: 10_000 });

const NOW = '2025-01-01T00:00:00.000Z';

const chat: Feature = {
  feature_id: 'f-chat',
  key: 'ai_chat',
  name: 'AI chat',
  description: '',
  kind: 'metered',
  period: 'month',
  unit: 'messages',
  created_at: NOW,
  updated_at: NOW,
};

const pro: Plan = withOwnPrice({
  id: 'plan-pro',
  code: 'pro-monthly',
  name: 'Pro',
  description: '',
  price_minor: 99_900,
  currency: 'INR',
  billing_interval: 'month',
  max_activations: 3,
  seat_based: false,
  trial_days: 0,
  deactivations_per_30_days: 3,
  fingerprint_threshold: 3,
  is_public: true,
  is_active: true,
  is_draft: true,
  sort_order: 0,
  update_months: null,
  renews_updates_of: null,
  floating: null,
  features: [],
  archived_at: null,
  created_at: NOW,
  updated_at: NOW,
});

const welcome: Coupon = {
  id: 'welcome',
  code: 'WELCOME',
  description: null,
  percent_off: 20,
  amount_off_minor: null,
  currency: null,
  duration: 'once',
  expires_at: null,
  max_redemptions: 50,
  redeemed_count: 12,
  archived: false,
  created_at: NOW,
};

const KEY = 'KEY01-AAAAA-BBBBB-CCCCC-DDDDD';

const license: AdminLicense = {
  license_id: 'L1',
  license_key: KEY,
  user_id: '00000000-0000-4000-8000-000000000001',
  user_email: 'ada@example.com',
  plan_id: 'plan-pro',
  plan: { id: 'plan-pro', code: 'pro-monthly', name: 'Pro', billing_interval: 'month' },
  subscription_id: null,
  status: 'active',
  expires_at: '2099-01-31T23:59:59.999Z',
  renews: false,
  paused_until: null,
  updates_until: null,
  update_window_ended: false,
  max_activations: 3,
  activations_used: 1,
  revoked_reason: null,
  revoked_at: null,
  created_at: NOW,
  updated_at: NOW,
  floating: false,
  organisation: null,
  trial: null,
  seats: null,
  usage_info: { features: [] },
};

const laptop: AdminActivation = {
  activation_id: 'A1',
  license_id: 'L1',
  hardware_id: 'hw-A1-0123456789abcdef',
  label: null,
  device_name: 'Laptop A1',
  platform: 'linux',
  app_version: '2.0.0',
  activated_at: '2025-01-02T00:00:00.000Z',
  last_seen_at: '2025-01-03T00:00:00.000Z',
  deactivated_at: null,
  deactivated_reason: null,
  components: null,
  component_changes: [],
};

const paged = <T,>(data: T[]) => ({ json: { data, total: data.length, page: 1, perPage: 100 } });

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /payments/config', () => ({
    json: { provider: 'sandbox', key_id: 'sandbox', sandbox: true, currency: 'INR', currencies: ['INR'] },
  }));
  api.on('GET /plans', () => paged([pro]));
  api.on('GET /plans/plan-pro', () => ({ json: pro }));
  api.on('GET /admin/features', () => paged([chat]));
  api.on('GET /admin/coupons', () => ({ json: { data: [welcome] } }));
  api.on('GET /admin/licenses', () => paged([license]));
  // The license's detail carries its machines without their fingerprints (only the machines list has them).
  const { components: _components, component_changes: _changes, ...machine } = laptop;
  api.on('GET /admin/licenses/L1', () => ({ json: { ...license, activations: [machine] } }));
  api.on('GET /admin/licenses/L1/activations', () => ({ json: [laptop] }));
});
afterEach(async () => {
  await showLanguage('en');
  await api.close();
});

/** `path` for a signed-in administrator whose account chose German (the account's language wins). */
const openInGerman = (path: string) => renderAppInLanguage(api, path, 'de', undefined, 'admin');

const heading = (name: string) => screen.findByRole('heading', { level: 1, name }, { timeout: 60_000 });

describe('the admin catalogue screens in German', { timeout: 120_000 }, () => {
  it('/admin/packages: a draft package’s drawer, its features editor and details speak German', async () => {
    await openInGerman('/admin/packages?package=plan-pro');
    expect(await heading('Pakete')).toBeTruthy();

    const drawer = await screen.findByRole('dialog', { name: 'Paket Pro' });
    const inDrawer = within(drawer);
    expect(inDrawer.getByText('Entwurf: noch nicht im Verkauf')).toBeTruthy();
    expect(inDrawer.getByText('3 Geräte gleichzeitig · Code pro-monthly')).toBeTruthy();
    expect(inDrawer.getByRole('button', { name: 'Paket veröffentlichen' })).toBeTruthy();
    expect(await inDrawer.findByRole('checkbox', { name: 'AI chat einschließen' })).toBeTruthy();
    // The feature's own unit stays as the administrator wrote it.
    expect(inDrawer.getByText('Gemessen · messages pro Monat')).toBeTruthy();
    expect(inDrawer.getByText('0 von 1 Funktion enthalten')).toBeTruthy();
    expect(inDrawer.getByRole('button', { name: 'Funktionen speichern' })).toBeTruthy();

    await userEvent.click(inDrawer.getByRole('tab', { name: 'Details' }));
    expect(await inDrawer.findByLabelText(/^Geräte pro Lizenz/)).toBeTruthy();
    expect(inDrawer.getByRole('option', { name: 'Monatlich' })).toBeTruthy();
    expect(inDrawer.getByRole('button', { name: 'Paket löschen' })).toBeTruthy();
    expect(inDrawer.queryByText('Features and limits')).toBeNull();
  });

  it('/admin/coupons: the list’s discount and duration, and the coupon form, speak German', async () => {
    await openInGerman('/admin/coupons');
    expect(await heading('Gutscheine')).toBeTruthy();
    const row = within((await screen.findByText('WELCOME')).closest('tr') as HTMLElement);
    expect(row.getByText('20 % Rabatt')).toBeTruthy();
    expect(row.getByText('Erste Abbuchung')).toBeTruthy();
    expect(row.getByText('12 von 50')).toBeTruthy();

    await userEvent.click(row.getByRole('button', { name: 'WELCOME bearbeiten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gutschein WELCOME bearbeiten' });
    expect(within(dialog).getByText(/20 % Rabatt · erste Abbuchung\. Code und Rabatt/)).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Einlösungslimit/)).toBeTruthy();
    expect(within(dialog).queryByText('Redemption limit')).toBeNull();
  });

  it('/admin/features: the kind in the list and the feature form speak German', async () => {
    await openInGerman('/admin/features');
    expect(await heading('Funktionen')).toBeTruthy();
    const row = within((await screen.findByText('ai_chat')).closest('tr') as HTMLElement);
    expect(row.getByText('Gemessen')).toBeTruthy();
    expect(row.getByText('messages pro Monat')).toBeTruthy();

    await userEvent.click(screen.getAllByRole('button', { name: 'Neue Funktion' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Neue Funktion' });
    expect(within(dialog).getByLabelText(/^Schlüssel/)).toBeTruthy();
    expect(within(dialog).getByRole('radio', { name: /^Ein\/Aus/ })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Funktion erstellen' })).toBeTruthy();
  });

  it('/admin/licenses: the new-license form and a license’s machines speak German', async () => {
    await openInGerman('/admin/licenses');
    expect(await heading('Lizenzen')).toBeTruthy();

    await userEvent.click(screen.getAllByRole('button', { name: 'Neue Lizenz' })[0] as HTMLElement);
    const form = await screen.findByRole('dialog', { name: 'Neue Lizenz' });
    expect(
      within(form).getByRole('option', { name: 'Ende des Abrechnungszeitraums des Plans' }),
    ).toBeTruthy();
    expect(
      within(form).getByText(
        'Geräte, auf denen sie gleichzeitig aktiv sein darf; leer übernimmt das Limit des Plans.',
      ),
    ).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Abbrechen' }));

    await userEvent.click(await screen.findByRole('button', { name: `Geräte von ${KEY}` }));
    const drawer = await screen.findByRole('dialog', { name: 'Geräte' });
    expect(await within(drawer).findByText('Laptop A1')).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: 'Laptop A1 deaktivieren' })).toBeTruthy();
    expect(within(drawer).getByText(/^Aktiviert .+ · zuletzt gesehen/)).toBeTruthy();
    expect(within(drawer).queryByText(/^Activated/)).toBeNull();
  });
});
