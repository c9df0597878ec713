import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authMessages } from '../../../src/shared/messages';
import { type FakeApi, problem } from '../support/fake-api';
import { openPortalPage, startFakeApi } from './portal-page';

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(() => api.close());

async function openLogin() {
  const view = await openPortalPage(api, '/login');
  await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 10_000 });
  return view;
}

const emailField = () => screen.getByLabelText(/^E-mail/);
const passwordField = () => screen.getByLabelText(/^Password/);
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

describe('login page', () => {
  it('labels its fields with the autocomplete hints password managers need', async () => {
    await openLogin();
    expect(emailField()).toHaveProperty('autocomplete', 'email');
    expect(passwordField()).toHaveProperty('autocomplete', 'current-password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/register');
  });

  it('an empty submit shows the shared schema errors on both fields and sends nothing', async () => {
    await openLogin();
    await submit();
    expect(await screen.findByText('Enter your e-mail address')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(emailField().getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('POST /auth/login')).toHaveLength(0);
  });

  it('leaving the focused e-mail field untouched shows no error, so a first click on a link lands', async () => {
    const { router } = await openLogin();
    await waitFor(() => expect(document.activeElement).toBe(emailField()));
    await userEvent.tab();
    expect(screen.queryByText('Enter your e-mail address')).toBeNull();
    expect(emailField().getAttribute('aria-invalid')).not.toBe('true');
    await userEvent.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
  });

  it('a field the user edited is checked when left; the password emptied after a refusal counts as untouched', async () => {
    api.on('POST /auth/login', () => problem(401, 'Incorrect email or password', 'invalid_credentials'));
    await openLogin();
    await userEvent.type(emailField(), 'a');
    await userEvent.clear(emailField());
    await userEvent.tab();
    expect(await screen.findByText('Enter your e-mail address')).toBeTruthy();
    await userEvent.type(emailField(), 'ada@example.com');
    await userEvent.click(passwordField());
    await userEvent.tab();
    expect(screen.queryByText('Password is required')).toBeNull();
    await userEvent.type(passwordField(), 'not the password');
    await submit();
    await screen.findByRole('alert');
    // The cleared password has focus; leaving it (to click a link) shows no error.
    await userEvent.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(screen.queryByText('Password is required')).toBeNull();
  });

  it("a refused sign-in shows the server's message in an alert", async () => {
    api.on('POST /auth/login', () => problem(401, 'Incorrect email or password', 'invalid_credentials'));
    await openLogin();
    await userEvent.type(emailField(), 'ada@example.com');
    await userEvent.type(passwordField(), 'not the password');
    await submit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Incorrect email or password');
    // The password is cleared for the next try; the address stays.
    expect((passwordField() as HTMLInputElement).value).toBe('');
    expect((emailField() as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('without a server message the catalogue fallback is shown', async () => {
    api.on('POST /auth/login', () => ({ status: 500, json: {}, offContract: 'an error without a message' }));
    await openLogin();
    await userEvent.type(emailField(), 'ada@example.com');
    await userEvent.type(passwordField(), 'secret-secret');
    await submit();
    expect((await screen.findByRole('alert')).textContent).toContain(authMessages.loginFailed);
  });

  it('an HTML answer to the login shows the server configuration error', async () => {
    api.on('POST /auth/login', () => ({
      body: '<!doctype html><html></html>',
      type: 'text/html',
      offContract: 'the web portal’s page, as a misrouted API base answers',
    }));
    await openLogin();
    await userEvent.type(emailField(), 'ada@example.com');
    await userEvent.type(passwordField(), 'secret-secret');
    await submit();
    expect((await screen.findByRole('alert')).textContent).toContain(authMessages.htmlResponse);
  });

  it('a successful sign-in goes to /dashboard', async () => {
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    const { router } = await openLogin();
    await userEvent.type(emailField(), 'ada@example.com');
    await userEvent.type(passwordField(), 'secret-secret');
    await submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 5000 });
    const body = new URLSearchParams(api.calls('POST /auth/login')[0]?.body);
    expect(body.get('username')).toBe('ada@example.com');
  });
});
