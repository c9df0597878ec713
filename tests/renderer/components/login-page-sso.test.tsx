import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeApi, problem } from '../support/fake-api';
import { openPortalPage, startFakeApi } from './portal-page';

// The e-mail-first sign-in: an address whose organization signs in through its provider is sent
// there; the password path stays for everyone else, and as the first screen shows it.

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
  // Domains the fake server knows: one offers single sign-on, one requires it.
  api.on('POST /auth/sso/discover', (request) => {
    const { email } = JSON.parse(request.body) as { email: string };
    const domain = email.split('@')[1];
    return {
      json: {
        sso: domain === 'offers.example' || domain === 'requires.example',
        required: domain === 'requires.example',
      },
    };
  });
  api.on('POST /auth/sso/start', () => ({ json: { authorization_url: 'http://idp.invalid/authorize' } }));
});
afterEach(() => {
  api.close();
  window.history.replaceState(null, '', '/');
});

async function openLogin(path = '/login') {
  const view = await openPortalPage(api, path);
  await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 10_000 });
  return view;
}

const emailField = () => screen.getByLabelText(/^E-mail/);
const passwordField = () => screen.queryByLabelText(/^Password/);
const discoveries = () =>
  api.calls('POST /auth/sso/discover').map((call) => JSON.parse(call.body) as unknown);

describe('login page: single sign-on', () => {
  it('offers single sign-on beside the password for an address of a domain that has it, and starts there', async () => {
    await openLogin();
    expect(screen.queryByRole('button', { name: 'Continue with single sign-on' })).toBeNull();
    await userEvent.type(emailField(), 'ada@offers.example');
    const offer = await screen.findByRole('button', { name: 'Continue with single sign-on' });
    expect(screen.getByText('Your organization signs you in through its identity provider.')).toBeTruthy();
    // The password path stays.
    expect(passwordField()).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    // Asked when typing pauses on an address, not for each letter typed; a domain once only.
    expect(discoveries().at(-1)).toEqual({ email: 'ada@offers.example' });
    expect(discoveries().length).toBeLessThan('offers.example'.length);
    await userEvent.click(offer);
    await waitFor(() => expect(api.calls('POST /auth/sso/start')).toHaveLength(1));
    expect(JSON.parse(api.calls('POST /auth/sso/start')[0]!.body)).toEqual({ email: 'ada@offers.example' });
  });

  it('hides the password where single sign-on is required: Enter continues at the provider; an administrator may still use a password', async () => {
    await openLogin();
    await userEvent.type(emailField(), 'bob@requires.example');
    expect(await screen.findByText(/requires single sign-on for this address/)).toBeTruthy();
    expect(passwordField()).toBeNull();
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Continue with single sign-on' }).getAttribute('type')).toBe(
      'submit',
    );
    // Enter in the address field: no password asked, none sent.
    await userEvent.type(emailField(), '{Enter}');
    await waitFor(() => expect(api.calls('POST /auth/sso/start')).toHaveLength(1));
    expect(api.calls('POST /auth/login')).toHaveLength(0);

    // Break-glass: the platform administrator's password path comes back.
    await userEvent.click(
      screen.getByRole('button', { name: 'Platform administrator? Sign in with your password' }),
    );
    expect(passwordField()).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('leaves the form as it is for a domain without single sign-on, and when the lookup fails', async () => {
    api.on('POST /auth/sso/discover', (request) =>
      request.body.includes('limited.example')
        ? problem(429, 'Too many requests. Try again in a minute.', 'rate_limited')
        : { json: { sso: false, required: false } },
    );
    await openLogin();
    const asked = (email: string) =>
      discoveries().some((body) => (body as { email: string }).email === email);
    await userEvent.type(emailField(), 'cy@plain.example');
    await waitFor(() => expect(asked('cy@plain.example')).toBe(true));
    await userEvent.clear(emailField());
    await userEvent.type(emailField(), 'cy@limited.example');
    await waitFor(() => expect(asked('cy@limited.example')).toBe(true));
    expect(passwordField()).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue with single sign-on' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    // Nothing is asked for what is not yet an address.
    await userEvent.clear(emailField());
    await userEvent.type(emailField(), 'not-an-address@');
    await userEvent.click(passwordField()!);
    expect(asked('not-an-address@')).toBe(false);
  });

  it('turns to single sign-on when the server refuses the password with sso_required', async () => {
    api.on('POST /auth/sso/discover', () => ({ json: { sso: false, required: false } }));
    api.on('POST /auth/login', () =>
      problem(
        403,
        'Acme signs you in through its identity provider: continue with single sign-on.',
        'sso_required',
      ),
    );
    await openLogin();
    await userEvent.type(emailField(), 'dee@acme.example');
    await userEvent.type(passwordField()!, 'a password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Acme signs you in through its identity provider',
    );
    expect(passwordField()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Continue with single sign-on' }));
    await waitFor(() => expect(api.calls('POST /auth/sso/start')).toHaveLength(1));
  });

  it('says no seat is free after the provider sent the person back, then goes on', async () => {
    api.on('POST /auth/sso/complete', () => ({
      json: {
        ...api.signInAnswer(),
        sso: {
          organisation_id: 'org_1',
          organisation_name: 'Acme',
          joined: true,
          has_seat: false,
          message: 'You are signed in to Acme, but no seat is free: ask its administrators for one.',
        },
      },
    }));
    window.history.replaceState(null, '', '/login#sso_code=one-time-code-0123456789abcdef0123456789');
    const { router } = await openPortalPage(api, '/login');
    expect(
      await screen.findByText(/no seat is free: ask its administrators for one/, {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Signed in without a seat' })).toBeTruthy();
    expect(window.location.hash).toBe('');
    const goOn = screen.getByRole('button', { name: 'Continue' });
    await waitFor(() => expect(document.activeElement).toBe(goOn));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 5000 });
  });

  it('asks the account’s own second factor after the provider', async () => {
    api.on('POST /auth/sso/complete', () => ({
      json: {
        second_factor_required: true,
        challenge: 'challenge-0123456789abcdef',
        methods: ['totp', 'recovery_code'],
        expires_in: 300,
        sso: {
          organisation_id: 'org_1',
          organisation_name: 'Acme',
          joined: false,
          has_seat: true,
          message: 'Signed in through Acme.',
        },
      },
    }));
    window.history.replaceState(null, '', '/login#sso_code=one-time-code-0123456789abcdef0123456789');
    await openPortalPage(api, '/login');
    expect(
      await screen.findByRole('heading', { name: 'Two-factor sign-in' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByLabelText('Authentication code')).toBeTruthy();
  });
});
