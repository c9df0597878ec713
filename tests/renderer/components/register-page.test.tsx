import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { problem } from '../support/fake-api';
import { openPortalPage, usePasswordPageApi } from './portal-page';

const fakeApi = usePasswordPageApi();

async function openRegister() {
  const view = await openPortalPage(fakeApi(), '/register');
  await screen.findByRole('heading', { name: 'Create your account' }, { timeout: 10_000 });
  return view;
}

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Create account' }));

async function fill(values: { email: string; password: string; confirm: string; name?: string }) {
  await userEvent.type(field(/^E-mail/), values.email);
  if (values.name) await userEvent.type(field(/^Full name/), values.name);
  await userEvent.type(field(/^Password/), values.password);
  await userEvent.type(field(/^Confirm password/), values.confirm);
}

describe('register page', () => {
  it("shows the server's password rules before anything is submitted", async () => {
    await openRegister();
    const rules = screen.getByRole('list', { name: 'Rules for a new password' });
    expect(rules.textContent).toContain('8 to 128 characters');
    expect(rules.textContent).toContain('Does not contain your e-mail address');
    expect(rules.textContent).toContain('Hard to guess');
    expect(field(/^Password/).autocomplete).toBe('new-password');
    expect(field(/^Confirm password/).autocomplete).toBe('new-password');
    expect(field(/^E-mail/).autocomplete).toBe('email');
  });

  it('the strength meter follows the typed password', async () => {
    await openRegister();
    await userEvent.type(field(/^Password/), 'password');
    // The strength rule loads on first use, so the verdict may follow the typing by a moment.
    expect(await screen.findByText('Weak')).toBeTruthy();
    await userEvent.clear(field(/^Password/));
    await userEvent.type(field(/^Password/), 'correct horse battery staple');
    expect(await screen.findByText('Strong')).toBeTruthy();
  });

  it('shows the zod errors of every field at once and sends nothing', async () => {
    await openRegister();
    await fill({ email: 'not-an-address', password: 'short', confirm: 'different' });
    await submit();
    expect(await screen.findByText('Enter a valid e-mail address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(fakeApi().calls('POST /auth/register')).toHaveLength(0);
  });

  it('refuses a password that contains the email address before the server has to', async () => {
    await openRegister();
    await fill({ email: 'dana@example.com', password: 'Dana@Example.com', confirm: 'Dana@Example.com' });
    await submit();
    expect(
      await screen.findByText('Choose a password that does not contain your e-mail address'),
    ).toBeTruthy();
    expect(fakeApi().calls('POST /auth/register')).toHaveLength(0);
  });

  it("a refused registration shows the server's message in an alert", async () => {
    fakeApi().on('POST /auth/register', () =>
      problem(
        400,
        'This password is too common or too easy to guess. Choose a longer phrase that is unique to this account.',
        'password_too_common',
      ),
    );
    await openRegister();
    await fill({ email: 'dana@example.com', password: 'iloveyou123', confirm: 'iloveyou123' });
    await submit();
    expect((await screen.findByRole('alert')).textContent).toContain('This password is too common');
  });

  it('registration does not sign in; it asks to confirm the email and offers a new link', async () => {
    fakeApi().on('POST /auth/register', () => ({
      status: 202,
      json: { message: 'Check your inbox: we sent a link to confirm your email address.' },
    }));
    fakeApi().on('POST /auth/resend-verification', () => ({
      status: 202,
      json: { message: 'If that address has an account waiting for confirmation, we sent a new link.' },
    }));
    const { router, store } = await openRegister();
    await fill({
      email: ' Dana@Example.com ',
      name: 'Dana Whitfield',
      password: 'violet harbour lamp 42',
      confirm: 'violet harbour lamp 42',
    });
    await submit();
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeTruthy();
    expect(screen.getByText('Check your inbox: we sent a link to confirm your email address.')).toBeTruthy();
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(router.state.location.pathname).toBe('/register');
    expect(JSON.parse(fakeApi().calls('POST /auth/register')[0]?.body ?? '{}')).toEqual({
      email: 'dana@example.com',
      password: 'violet harbour lamp 42',
      full_name: 'Dana Whitfield',
      // The language the page was shown in, which the new account starts with.
      language: 'en',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Send a new confirmation link' }));
    expect(await screen.findByText(/we sent a new link/)).toBeTruthy();
    await waitFor(() => expect(fakeApi().calls('POST /auth/resend-verification')).toHaveLength(1));
    expect(JSON.parse(fakeApi().calls('POST /auth/resend-verification')[0]?.body ?? '{}')).toEqual({
      email: 'dana@example.com',
    });
    expect(screen.getByRole('button', { name: /Send again in \d+ s/ })).toHaveProperty('disabled', true);
  });
});
