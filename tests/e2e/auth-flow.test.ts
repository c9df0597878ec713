import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import {
  describePortal,
  expectPath,
  pathOf,
  readResetLink,
  readVerificationLink,
  signIn,
  watchPage,
} from './support/portal.js';

/** The signed-in shell's account menu: proof that the portal shows a signed-in screen. */
const accountMenu = (page: Page) => page.getByRole('button', { name: /^Account menu for / });

/** Submits the login form and expects it to refuse, staying on /login with the reason shown. */
async function expectSignInRefused(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  const form = page.locator('form');
  await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await form.getByRole('alert').filter({ hasText: 'Could not sign in' }).waitFor();
  expect(pathOf(page)).toBe('/login');
}

describePortal('account journeys in the browser', (portal) => {
  it('registers, confirms the address from the e-mailed link, signs in and lands on the dashboard', async () => {
    const page = await portal.newPage();
    const email = uniqueEmail('journey');

    await page.goto('/register');
    const form = page.locator('form');
    await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await form.getByRole('textbox', { name: 'Full name' }).fill('Grace Hopper');
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
    await form.getByRole('textbox', { name: 'Confirm password' }).fill(STRONG_PASSWORD);
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    // Registration does not sign in: the address must be confirmed first.
    expect(pathOf(page)).toBe('/register');

    // Not confirmed yet: signing in is refused.
    await expectSignInRefused(page, email, STRONG_PASSWORD);

    const link = await readVerificationLink(portal.server.outboxDir, email);
    await page.goto(link);
    await page.getByRole('heading', { name: 'E-mail confirmed' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expectPath(page, '/login');

    await signIn(page, email, STRONG_PASSWORD);
    await expectPath(page, '/dashboard');
    await accountMenu(page).waitFor();
    // The registered name is shown in the header and names the account menu.
    await page.getByRole('button', { name: 'Account menu for Grace Hopper', exact: true }).waitFor();
  });

  it('signs out: back to the sign-in page, and protected pages ask to sign in again', async () => {
    const user = await portal.server.createUser();
    const page = await portal.newPage();
    const logoutCalls: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/auth/logout')) logoutCalls.push(response.status());
    });

    await signIn(page, user.email, user.password);
    await expectPath(page, '/dashboard');
    await accountMenu(page).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect.poll(() => pathOf(page)).toMatch(/^\/(login|landing)$/);
    // The server ended the session (the refresh token is revoked), not only the tab.
    await expect.poll(() => logoutCalls).toEqual([expect.any(Number)]);
    expect(logoutCalls[0]).toBeLessThan(300);

    for (const protectedPath of ['/dashboard', '/licenses', '/profile', '/admin']) {
      await page.goto(protectedPath);
      await expectPath(page, '/login');
    }
    // A new tab of the same browser (sharing its cookies) is signed out too.
    const other = await page.context().newPage();
    watchPage(other);
    await other.goto('/dashboard');
    await expectPath(other, '/login');
  });

  it('resets a forgotten password from the e-mailed link: the new password works, the old one does not', async () => {
    const user = await portal.server.createUser();
    const newPassword = 'a brand new passphrase 77';
    const page = await portal.newPage();

    await page.goto('/forgot-password');
    await page.locator('form').getByRole('textbox', { name: 'E-mail' }).fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page
      .getByText('If an account exists for that address, we sent a link to reset the password.')
      .waitFor();

    const link = await readResetLink(portal.server.outboxDir, user.email);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expectPath(page, '/login');

    await expectSignInRefused(page, user.email, user.password);
    await signIn(page, user.email, newPassword);
    await expectPath(page, '/dashboard');
    await accountMenu(page).waitFor();

    // The link works once.
    const again = await portal.newPage();
    await again.goto(link);
    await again.getByRole('textbox', { name: 'New password', exact: true }).fill('yet another passphrase 99');
    await again.getByRole('textbox', { name: 'Confirm new password' }).fill('yet another passphrase 99');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByRole('heading', { name: 'This reset link does not work' }).waitFor();
  });

  it("opens the password recovery from the sign-in page's 'Forgot your password?' link", async () => {
    const page = await portal.newPage();
    await page.goto('/login');
    // Straight away, as a person who knows they forgot it would: the e-mail field still has the focus.
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expectPath(page, '/forgot-password');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  });
});
