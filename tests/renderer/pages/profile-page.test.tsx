import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPasswordRule } from '../../../src/renderer/src/features/auth/password-strength';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';

import { FakeApi, problem, testUser } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

const SLOW = { timeout: 8000 };

let api: FakeApi;
let profile: Record<string, unknown>;

// The strength meter loads its rule (zxcvbn) on first use; loading it once here keeps that
// one-off cost out of the time each test allows.
beforeAll(async () => {
  await loadPasswordRule();
}, 30_000);
beforeEach(async () => {
  api = await new FakeApi().start();
  profile = { ...testUser, full_name: 'Ada Lovelace', company: 'Analytical Engines', role: 'user' };
  api.on('GET /users/me', (request) =>
    request.authorization ? { json: profile } : problem(401, 'Not authenticated', 'not_authenticated'),
  );
  api.on('PUT /users/me', (request) => {
    profile = { ...profile, ...(JSON.parse(request.body) as object), updated_at: '2025-02-02T00:00:00.000Z' };
    return { json: profile };
  });
  api.on('PUT /users/me/preferences', (request) => {
    const change = JSON.parse(request.body) as { theme?: string; notifications?: object };
    const current = profile['preferences'] as { notifications: object };
    const preferences = {
      ...current,
      ...change,
      notifications: { ...current.notifications, ...change.notifications },
    };
    profile = { ...profile, preferences };
    return { json: preferences };
  });
});
afterEach(async () => {
  document.documentElement.removeAttribute('data-mantine-color-scheme');
  await api.close();
});

async function openProfile() {
  const services = await servicesFor(api, 'user');
  const view = renderApp(services, '/profile');
  await screen.findByRole('heading', { level: 1, name: 'Profile' }, { timeout: 10_000 });
  await screen.findByRole('region', { name: 'Personal details' }, SLOW);
  return view;
}

const body = (route: string, index = -1) => JSON.parse(api.calls(route).at(index)?.body ?? 'null') as unknown;
const input = (label: RegExp | string) => screen.getByLabelText(label) as HTMLInputElement;

describe('profile page: details', () => {
  it('shows the live profile and saves name and company with PUT /users/me', async () => {
    const { store } = await openProfile();
    await waitFor(() => expect(input('Full name').value).toBe('Ada Lovelace'), SLOW);
    expect(input('Company').value).toBe('Analytical Engines');
    expect(input('E-mail').value).toBe(testUser.email);
    expect(input('E-mail').readOnly).toBe(true);
    const save = screen.getByRole('button', { name: 'Save profile' });
    expect(save.hasAttribute('disabled')).toBe(true);

    await userEvent.clear(input('Company'));
    await userEvent.type(input('Full name'), ' King');
    await userEvent.click(save);
    expect(await screen.findByText('Profile saved', {}, SLOW)).toBeTruthy();
    expect(body('PUT /users/me')).toEqual({ full_name: 'Ada Lovelace King', company: null });
    // A profile update also updates the auth user.
    expect(store.getState().auth.user?.full_name).toBe('Ada Lovelace King');
  });

  it('refuses a name over 100 characters before sending, and shows a server refusal', async () => {
    await openProfile();
    await waitFor(() => expect(input('Full name').value).toBe('Ada Lovelace'), SLOW);
    await userEvent.type(input('Company'), 'x'.repeat(100));
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Must be at most 100 characters', {}, SLOW)).toBeTruthy();
    expect(api.calls('PUT /users/me')).toHaveLength(0);

    api.on('PUT /users/me', () => problem(400, 'Profile is locked by an administrator', 'locked'));
    await userEvent.clear(input('Company'));
    await userEvent.type(input('Company'), 'Babbage & Co');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toContain(
      'Profile is locked by an administrator',
    );
  });
});

describe('profile page: preferences', () => {
  it('applies the theme at once and saves it with PUT /users/me/preferences', async () => {
    const { store } = await openProfile();
    const theme = screen.getByRole('radiogroup', { name: 'Theme' });
    expect((within(theme).getByRole('radio', { name: /System/ }) as HTMLInputElement).checked).toBe(true);

    await userEvent.click(within(theme).getByRole('radio', { name: /Dark/ }));
    await waitFor(() =>
      expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark'),
    );
    expect(await screen.findByText('Preferences saved', {}, SLOW)).toBeTruthy();
    expect(body('PUT /users/me/preferences')).toEqual({ theme: 'dark' });
    expect(store.getState().user.preferences.theme).toBe('dark');
  });

  it('saves one notification choice at a time', async () => {
    await openProfile();
    const updates = screen.getByRole('switch', { name: /Product updates/ }) as HTMLInputElement;
    expect(updates.checked).toBe(true);
    await userEvent.click(updates);
    await waitFor(() => expect(api.calls('PUT /users/me/preferences')).toHaveLength(1), SLOW);
    expect(body('PUT /users/me/preferences')).toEqual({ notifications: { product_updates: false } });
    await waitFor(() => expect(updates.checked).toBe(false));
    expect((screen.getByRole('switch', { name: /Security alerts/ }) as HTMLInputElement).checked).toBe(true);
    // The save ends with its toast: waited for here, so it cannot appear in the next test's page.
    expect(await screen.findByText('Preferences saved', {}, SLOW)).toBeTruthy();
  });

  it('puts the old value back and says why when the server refuses', async () => {
    api.on('PUT /users/me/preferences', () => problem(500, 'Preferences store is down'));
    await openProfile();
    const billing = screen.getByRole('switch', { name: /Billing and receipts/ }) as HTMLInputElement;
    await userEvent.click(billing);
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toContain('Preferences store is down');
    expect(billing.checked).toBe(true);

    await userEvent.click(screen.getByRole('radio', { name: /Light/ }));
    await waitFor(() => expect(api.calls('PUT /users/me/preferences')).toHaveLength(2), SLOW);
    // The refused theme does not stay applied: the saved 'system' is Mantine's 'auto' again.
    await waitFor(() => expect(localStorage.getItem('mantine-color-scheme-value')).toBe('auto'), SLOW);
    expect((screen.getByRole('radio', { name: /System/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows a chosen language at once and saves it with PUT /users/me/preferences', async () => {
    try {
      const services = await servicesFor(api, 'user');
      const { store } = renderApp(services, '/profile');
      await screen.findByRole('region', { name: 'Personal details' }, { timeout: 10_000 });
      const preferences = screen.getByRole('region', { name: 'Preferences' });
      await userEvent.selectOptions(within(preferences).getByLabelText('Language'), 'Deutsch');
      expect(await screen.findByRole('heading', { level: 1, name: 'Profil' }, SLOW)).toBeTruthy();
      expect(screen.getByRole('region', { name: 'Persönliche Angaben' })).toBeTruthy();
      await waitFor(() => expect(api.calls('PUT /users/me/preferences')).toHaveLength(1), SLOW);
      expect(body('PUT /users/me/preferences')).toEqual({ language: 'de' });
      await waitFor(() => expect(store.getState().user.preferences.language).toBe('de'), SLOW);
      // The user kept for the next page load reads German too, or that load would restore English.
      await waitFor(
        async () =>
          expect(
            (await services.tokens.getUser<{ preferences: { language: string } }>())?.preferences.language,
          ).toBe('de'),
        SLOW,
      );
    } finally {
      await showLanguage('en');
    }
  });
});

describe('profile page: password and sessions', () => {
  const fillPassword = async (current: string, next: string, confirm = next) => {
    await userEvent.type(input(/^Current password/), current);
    await userEvent.type(input(/^New password/), next);
    await userEvent.type(input(/^Confirm new password/), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
  };

  it('shows the strength meter and checks the form before sending', async () => {
    await openProfile();
    const section = within(screen.getByRole('region', { name: 'Change password' }));
    expect(section.getByRole('list', { name: 'Rules for a new password' })).toBeTruthy();
    await userEvent.type(input(/^New password/), 'password');
    expect(await section.findByText('Weak', {}, SLOW)).toBeTruthy();
    await userEvent.clear(input(/^New password/));
    await fillPassword('old secret words', 'short', 'other');
    expect(await section.findByText('Password must be at least 8 characters', {}, SLOW)).toBeTruthy();
    expect(section.getByText('The passwords do not match')).toBeTruthy();
    expect(api.calls('PUT /users/me/password')).toHaveLength(0);
  });

  it('marks a wrong current password on its field', async () => {
    api.on('PUT /users/me/password', () =>
      problem(400, 'The current password is incorrect', 'invalid_current_password'),
    );
    await openProfile();
    await fillPassword('not my password', 'a brand new passphrase');
    const current = input(/^Current password/);
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'), SLOW);
    expect(screen.getAllByText('The current password is incorrect').length).toBeGreaterThan(0);
    expect(document.activeElement).toBe(current);
  });

  it('changes the password with PUT /users/me/password, then signs out to the sign-in page', async () => {
    api.on('PUT /users/me/password', () => ({
      json: { message: 'Password changed. Every session was signed out.' },
    }));
    const { router, store } = await openProfile();
    await fillPassword('old secret words', 'a brand new passphrase');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    expect(body('PUT /users/me/password')).toEqual({
      current_password: 'old secret words',
      new_password: 'a brand new passphrase',
    });
    expect(api.calls('POST /auth/logout')).toHaveLength(1);
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(await screen.findByText('Password changed', {}, SLOW)).toBeTruthy();
  });

  it('signs out of this device', async () => {
    const { router, store } = await openProfile();
    const sessions = within(screen.getByRole('region', { name: 'Sessions' }));
    await userEvent.click(sessions.getByRole('button', { name: 'Sign out of this device' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    expect(api.calls('POST /auth/logout')).toHaveLength(1);
    expect(store.getState().auth.isAuthenticated).toBe(false);
  });

  it('signs out of every device with POST /auth/logout-all after a confirmation, then leaves', async () => {
    api.on('POST /auth/logout-all', () => ({ json: { message: 'Signed out on every device' } }));
    const { router, store } = await openProfile();
    const sessions = within(screen.getByRole('region', { name: 'Sessions' }));
    await userEvent.click(sessions.getByRole('button', { name: 'Sign out of all devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of all devices?' }, SLOW);
    // Nothing is sent until the user confirms.
    expect(api.calls('POST /auth/logout-all')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    expect(api.calls('POST /auth/logout-all')).toHaveLength(1);
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(await screen.findByText('Signed out on every device', {}, SLOW)).toBeTruthy();
  });

  it('stays signed in and shows the server’s message when signing out everywhere is refused', async () => {
    api.on('POST /auth/logout-all', () => problem(503, 'The session store is unavailable', 'unavailable'));
    const { router, store } = await openProfile();
    await userEvent.click(
      within(screen.getByRole('region', { name: 'Sessions' })).getByRole('button', {
        name: 'Sign out of all devices',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of all devices?' }, SLOW);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await within(dialog).findByText('The session store is unavailable', {}, SLOW)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
    expect(store.getState().auth.isAuthenticated).toBe(true);
  });
});
