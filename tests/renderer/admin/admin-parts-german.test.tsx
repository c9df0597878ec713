import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import type { AdminRelease } from '../../../src/shared/api/distribution';
import type { AdminSupportRequest } from '../../../src/shared/api/support';
import type { WebhookDelivery, WebhookEndpoint } from '../../../src/shared/api/webhooks';
import { FakeApi } from '../support/fake-api';
import { renderAppInLanguage } from '../support/render-app';

// The admin console's code and its German catalogs load first: on a busy machine that takes a while.
configure({ asyncUtilTimeout: 30_000 });

const ENDPOINT_ID = '5f0c2a7e-1b3d-4c5e-8f9a-0b1c2d3e4f5a';

const supportRequest: AdminSupportRequest = {
  id: 'handled-one',
  reference: 'SR-HANDLED1',
  user_id: null,
  email: 'customer@example.com',
  topic: 'Billing and payments',
  subject: 'Invoice address',
  message: 'Please change the address on my invoice.',
  diagnostics: null,
  state: 'handled',
  handled_at: '2026-01-02T10:00:00.000Z',
  handled_by_email: 'ada@example.com',
  created_at: '2026-01-01T10:00:00.000Z',
};

const release: AdminRelease = {
  id: '8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  platform: 'linux',
  channel: 'stable',
  version: '1.5.0',
  file_name: 'Assistant-1.5.0.AppImage',
  size_bytes: 1000,
  sha256: 'ab',
  sha512: 'cd',
  rollout_percent: 20,
  state: 'rolling_out',
  paused_at: null,
  yanked_at: null,
  release_notes: 'Faster start.',
  checks: 1200,
  downloads: 180,
  installs: 150,
  published_at: '2026-01-01T10:00:00.000Z',
};

/** An endpoint the delivery worker turned off, in the worker's own English words. */
const endpoint: WebhookEndpoint = {
  id: ENDPOINT_ID,
  url: 'https://hooks.example.com/in',
  description: '',
  event_types: ['license.created'],
  enabled: false,
  disabled_at: '2026-01-03T10:00:00.000Z',
  disabled_reason: 'Disabled automatically after 5 failed deliveries in a row',
  consecutive_failures: 5,
  failing_since: '2026-01-02T10:00:00.000Z',
  previous_secret_expires_at: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-03T10:00:00.000Z',
};

const delivery: WebhookDelivery = {
  id: 'd-1',
  endpoint_id: ENDPOINT_ID,
  event_id: 'msg_1',
  event_type: 'license.created',
  redelivery_of: null,
  status: 'failed',
  attempts: 3,
  next_attempt_at: null,
  last_status_code: 500,
  last_error: null,
  created_at: '2026-01-02T10:00:00.000Z',
  completed_at: '2026-01-02T12:00:00.000Z',
};

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  await showLanguage('de');
});
afterEach(async () => {
  await showLanguage('en');
  await api.close();
});

/** `path` for a signed-in administrator whose account chose German (the account's language wins). */
const openInGerman = (path: string) => renderAppInLanguage(api, path, 'de', undefined, 'admin');

describe('the admin console’s support, releases, webhooks and usage in German', { timeout: 120_000 }, () => {
  it('a support request’s drawer: its fields, state, handling and the missing information', async () => {
    api.on('GET /admin/support-requests', () => ({
      json: { data: [supportRequest], total: 1, page: 1, perPage: 10 },
    }));
    await openInGerman(`/admin/support-requests?request=${supportRequest.id}`);

    const drawer = within(await screen.findByRole('dialog', { name: 'Supportanfrage SR-HANDLED1' }));
    expect(drawer.getByText('Thema')).toBeTruthy();
    expect(drawer.getByText('Das Konto wurde inzwischen gelöscht')).toBeTruthy();
    expect(drawer.getByText(/von ada@example\.com$/)).toBeTruthy();
    expect(drawer.getByText('Der Kunde hat sich entschieden, sie nicht zu senden.')).toBeTruthy();
    expect(drawer.getByRole('button', { name: 'Wieder öffnen: SR-HANDLED1' })).toBeTruthy();
    expect(drawer.queryByText('Reopen')).toBeNull();
  });

  it('a release’s dialog: rollout, notes and yanking, with the channel in German', async () => {
    api.on('GET /admin/releases', () => ({ json: { releases: [release] } }));
    await openInGerman('/admin/releases');

    await userEvent.click(await screen.findByRole('button', { name: '1.5.0 (Linux, stabil) verwalten' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Release 1.5.0' }));
    expect(dialog.getByLabelText('Versionshinweise')).toBeTruthy();
    expect(dialog.getByText('Dieses Release zurückziehen')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Speichern' })).toBeTruthy();
  });

  it('a webhook endpoint the worker turned off, and its deliveries counted in German', async () => {
    api.on('GET /admin/webhooks', () => ({ json: { data: [endpoint], total: 1, page: 1, perPage: 10 } }));
    api.on(`GET /admin/webhooks/${ENDPOINT_ID}/deliveries`, () => ({
      json: { data: [delivery], total: 1, page: 1, perPage: 20 },
    }));
    await openInGerman('/admin/webhooks');

    expect(await screen.findByText('Deaktiviert (fehlerhaft)')).toBeTruthy();
    expect(
      screen.getByText('Automatisch deaktiviert nach 5 fehlgeschlagenen Zustellungen in Folge'),
    ).toBeTruthy();

    await userEvent.click(
      screen.getByRole('button', { name: 'Zustellungen an https://hooks.example.com/in' }),
    );
    const drawer = within(await screen.findByRole('dialog', { name: 'Zustellungen' }));
    expect(await drawer.findByText(/^3 Versuche · HTTP 500 · /)).toBeTruthy();
    // The filter's choice and the delivery's state.
    expect(drawer.getAllByText('Fehlgeschlagen')).toHaveLength(2);
    expect(drawer.queryByText('Failed')).toBeNull();
  });

  it('a failed read without the server’s words shows the call’s fallback in German', async () => {
    api.on('GET /admin/usage', () => ({
      status: 502,
      body: '',
      offContract: 'a proxy’s empty error page, which the portal answers with its own words',
    }));
    await openInGerman('/admin/usage');

    expect(await screen.findByText('Die Nutzung konnte nicht geladen werden')).toBeTruthy();
  });
});
