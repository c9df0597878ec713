import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DataExport } from '../../../src/shared/api/account-data';
import { FakeApi, problem, testUser } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

const SLOW = { timeout: 8000 };
const DUE = '2026-12-19T10:00:00.000Z';

let api: FakeApi;
let profile: Record<string, unknown>;
let latest: DataExport | null;

const exportOf = (change: Partial<DataExport>): DataExport => ({
  id: 'E1',
  status: 'queued',
  progress: 0,
  requested_at: '2026-12-05T10:00:00.000Z',
  ready_at: null,
  expires_at: null,
  size_bytes: null,
  ...change,
});

beforeEach(async () => {
  api = await new FakeApi().start();
  profile = { ...testUser, role: 'user' };
  latest = null;
  api.on('GET /users/me', () => ({ json: profile }));
  api.on('GET /users/me/data-export', () => ({ json: { export: latest } }));
  api.on('POST /users/me/data-export', () => {
    latest = exportOf({ status: 'building', progress: 40 });
    return { status: 202, json: latest };
  });
  api.on('POST /users/me/deletion', () => {
    profile = { ...profile, deletion_due_at: DUE };
    return { status: 202, json: { deletion_due_at: DUE, grace_days: 14 } };
  });
  api.on('DELETE /users/me/deletion', () => {
    const { deletion_due_at: _dropped, ...kept } = profile;
    profile = kept;
    return { json: { deletion_due_at: null, grace_days: 14 } };
  });
});
afterEach(async () => {
  await api.close();
});

async function openProfile() {
  const services = await servicesFor(api, 'user');
  const view = renderApp(services, '/profile');
  await screen.findByRole('heading', { level: 1, name: 'Profile' }, { timeout: 10_000 });
  return view;
}

const region = (name: string) => screen.findByRole('region', { name }, SLOW);

describe('profile: your data', () => {
  it('asks for the archive, shows it being prepared, then ready', async () => {
    await openProfile();
    const card = await region('Your data');
    await userEvent.click(within(card).getByRole('button', { name: 'Download my data' }));
    expect(await within(card).findByText('Preparing your archive… 40%', {}, SLOW)).toBeTruthy();
    expect(api.calls('POST /users/me/data-export')).toHaveLength(1);
    expect(within(card).getByRole('button', { name: 'Download my data' }).hasAttribute('disabled')).toBe(
      true,
    );

    // The card polls while the archive is made.
    latest = exportOf({
      status: 'ready',
      progress: 100,
      ready_at: '2026-12-05T10:01:00.000Z',
      expires_at: '2026-12-06T10:01:00.000Z',
      size_bytes: 2048,
    });
    expect(await within(card).findByText('Your archive is ready', {}, SLOW)).toBeTruthy();
    expect(within(card).getByText(/We e-mailed you a download link/)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Ask for a new archive' }).hasAttribute('disabled')).toBe(
      false,
    );
  }, 15_000);

  it('says an expired link is over, and shows a refusal', async () => {
    latest = exportOf({ status: 'expired', progress: 100, expires_at: '2026-12-01T00:00:00.000Z' });
    await openProfile();
    const card = await region('Your data');
    expect(await within(card).findByText(/link to your last archive has expired/, {}, SLOW)).toBeTruthy();
    api.on('POST /users/me/data-export', () => problem(503, 'The server is busy', 'busy'));
    await userEvent.click(within(card).getByRole('button', { name: 'Ask for a new archive' }));
    expect((await within(card).findByRole('alert', {}, SLOW)).textContent).toContain('The server is busy');
  });
});

describe('profile: delete account', () => {
  it('lists the consequences, needs the confirmation, then shows the deletion with a way to cancel it', async () => {
    await openProfile();
    const card = await region('Delete account');
    await userEvent.click(within(card).getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' }, SLOW);
    for (const text of [
      /subscriptions are cancelled/,
      /licenses end/,
      /next check/,
      /Invoices and credit notes are kept/,
    ])
      expect(within(dialog).getByText(text)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /I understand/ }));
    await userEvent.click(confirm);
    await waitFor(() => expect(api.calls('POST /users/me/deletion')).toHaveLength(1), SLOW);
    expect(JSON.parse(api.calls('POST /users/me/deletion')[0]!.body)).toEqual({ confirm: true });

    // The profile now says when; the banner over the page offers to cancel too.
    const banner = await screen.findByRole('region', { name: 'Account deletion' }, SLOW);
    expect(within(card).getByText(/It will be erased on/)).toBeTruthy();
    await userEvent.click(within(banner).getByRole('button', { name: 'Cancel deletion' }));
    await waitFor(() => expect(api.calls('DELETE /users/me/deletion')).toHaveLength(1), SLOW);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Account deletion' })).toBeNull(), SLOW);
    expect(within(card).getByRole('button', { name: 'Delete my account' })).toBeTruthy();
  }, 15_000);

  it('shows why the server refused (an organization’s owner), and deletes nothing', async () => {
    api.on('POST /users/me/deletion', () =>
      problem(
        409,
        'Transfer the ownership of Acme to another member before deleting your account',
        'organisation_owner',
      ),
    );
    await openProfile();
    const card = await region('Delete account');
    await userEvent.click(within(card).getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' }, SLOW);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /I understand/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toContain(
      'Transfer the ownership of Acme',
    );
    expect(screen.queryByRole('region', { name: 'Account deletion' })).toBeNull();
  });

  it('greets a returning account whose deletion is pending with the banner on the first page', async () => {
    // The sign-in's answer carries the profile with its deletion date, as the server's does.
    profile = { ...profile, deletion_due_at: DUE };
    const services = await servicesFor(api, 'user');
    const issued = api.issue();
    await services.tokens.save({
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      user: { ...testUser, role: 'user', deletion_due_at: DUE },
    });
    renderApp(services, '/dashboard');
    const banner = await screen.findByRole('region', { name: 'Account deletion' }, { timeout: 10_000 });
    expect(within(banner).getByText(/It will be erased on/)).toBeTruthy();
  });
});
