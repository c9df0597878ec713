import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { problem } from '../support/fake-api';
import { openPortalPage, usePasswordPageApi } from './portal-page';

const TOKEN = 'reset-token-0123456789abcdef';
const fakeApi = usePasswordPageApi();

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

async function openReset(path = `/reset-password?token=${TOKEN}`) {
  await openPortalPage(fakeApi(), path);
  await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 });
}

async function chooseNewPassword(password = 'violet harbour lamp 42') {
  await userEvent.type(field(/^New password/), password);
  await userEvent.type(field(/^Confirm new password/), password);
  await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
}

describe('forgot-password page', () => {
  it('always answers with the same neutral words, and sends the address trimmed and lower-cased', async () => {
    fakeApi().on('POST /auth/forgot-password', () => ({
      status: 202,
      json: { message: 'anything the server says' },
    }));
    await openPortalPage(fakeApi(), '/forgot-password');
    await screen.findByRole('heading', { name: 'Reset your password' }, { timeout: 10_000 });
    expect(field(/^E-mail/).autocomplete).toBe('email');
    await userEvent.type(field(/^E-mail/), ' Ada@Example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(
      await screen.findByText('If an account exists for that address, we sent a link to reset the password.'),
    ).toBeTruthy();
    expect(JSON.parse(fakeApi().calls('POST /auth/forgot-password')[0]?.body ?? '{}')).toEqual({
      email: 'ada@example.com',
    });
  });

  it('shows the zod error for a malformed address and sends nothing', async () => {
    await openPortalPage(fakeApi(), '/forgot-password');
    await screen.findByRole('heading', { name: 'Reset your password' }, { timeout: 10_000 });
    await userEvent.type(field(/^E-mail/), 'ada@');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeTruthy();
    expect(fakeApi().calls('POST /auth/forgot-password')).toHaveLength(0);
  });
});

describe('reset-password page', () => {
  it('a link without a token says so and offers a new link', async () => {
    await openReset('/reset-password');
    expect(screen.getByRole('heading', { name: 'This reset link does not work' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });

  it('an expired token answered by the server shows the same dead-link state with its message', async () => {
    fakeApi().on('POST /auth/reset-password', () =>
      problem(400, 'This reset link is invalid or has expired. Ask for a new one.', 'invalid_reset_token'),
    );
    await openReset();
    await chooseNewPassword();
    expect(await screen.findByRole('heading', { name: 'This reset link does not work' })).toBeTruthy();
    expect(screen.getByText('This reset link is invalid or has expired. Ask for a new one.')).toBeTruthy();
  });

  it("puts the server's field errors on the password field", async () => {
    fakeApi().on('POST /auth/reset-password', () => ({
      status: 400,
      json: {
        message: 'The request is not valid',
        detail: 'The request is not valid',
        code: 'validation_error',
        errors: [{ field: 'new_password', message: 'Password is not acceptable here' }],
      },
    }));
    await openReset();
    await chooseNewPassword();
    expect((await screen.findByRole('alert')).textContent).toContain('The request is not valid');
    expect(screen.getByText('Password is not acceptable here')).toBeTruthy();
    expect(field(/^New password/).getAttribute('aria-invalid')).toBe('true');
  });

  it('a common password refused by the server is marked on the password field', async () => {
    fakeApi().on('POST /auth/reset-password', () =>
      problem(400, 'This password is too common or too easy to guess.', 'password_too_common'),
    );
    await openReset();
    await chooseNewPassword('iloveyou123');
    await waitFor(() => expect(field(/^New password/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('This password is too common or too easy to guess.').length).toBeGreaterThan(
      0,
    );
  });

  it('a new password that is too short or mismatched is refused before sending', async () => {
    await openReset();
    await userEvent.type(field(/^New password/), 'short');
    await userEvent.type(field(/^Confirm new password/), 'shorter');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(fakeApi().calls('POST /auth/reset-password')).toHaveLength(0);
  });

  it('success sends the token and the new password, then links to sign in', async () => {
    fakeApi().on('POST /auth/reset-password', () => ({
      json: { message: 'Your password was reset. Sign in with the new password.' },
    }));
    await openReset();
    await chooseNewPassword();
    expect(await screen.findByText('Your password was reset. Sign in with the new password.')).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(JSON.parse(fakeApi().calls('POST /auth/reset-password')[0]?.body ?? '{}')).toEqual({
      token: TOKEN,
      new_password: 'violet harbour lamp 42',
    });
  });
});

describe('verify-registration page', () => {
  it('verifies the token once on opening and offers sign-in', async () => {
    fakeApi().on('POST /auth/verify-registration', () => ({
      json: { message: 'Your email address is confirmed. You can sign in now.' },
    }));
    await openPortalPage(fakeApi(), `/verify-registration?token=${TOKEN}`);
    expect(
      await screen.findByText('Your email address is confirmed. You can sign in now.', undefined, {
        timeout: 10_000,
      }),
    ).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(fakeApi().calls('POST /auth/verify-registration')).toHaveLength(1);
    expect(JSON.parse(fakeApi().calls('POST /auth/verify-registration')[0]?.body ?? '{}')).toEqual({
      token: TOKEN,
    });
  });

  it("a refused token shows the server's message and a form for a new link", async () => {
    fakeApi().on('POST /auth/verify-registration', () =>
      problem(400, 'This confirmation link is invalid or has expired.', 'invalid_verification_token'),
    );
    fakeApi().on('POST /auth/resend-verification', () => ({
      status: 202,
      json: { message: 'We sent a new link if we could.' },
    }));
    await openPortalPage(fakeApi(), '/verify-registration?token=another-token-0123456789');
    expect(
      await screen.findByText('This confirmation link is invalid or has expired.', undefined, {
        timeout: 10_000,
      }),
    ).toBeTruthy();
    await userEvent.type(field(/^E-mail/), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send a new confirmation link' }));
    expect(await screen.findByText('We sent a new link if we could.')).toBeTruthy();
  });
});
