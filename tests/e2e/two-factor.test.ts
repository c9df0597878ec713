import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { writeSecuritySettings } from '../../src/server/identity/auth/security-settings-repository.js';
import { totpCode } from '../server/helpers/two-factor-helpers.js';
import { photograph } from './support/photograph.js';
import { describePortal, expectPath, pathOf, signIn } from './support/portal.js';

/**
 * Two-factor sign-in in Chromium: nothing is scanned; the test reads the key the page shows and
 * computes the codes an authenticator app would, on the server's clock.
 */

const accountMenu = (page: Page) => page.getByRole('button', { name: /^Account menu for / });

async function signOut(page: Page): Promise<void> {
  await accountMenu(page).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect.poll(() => pathOf(page)).toMatch(/^\/(login|landing)$/);
}

/** The password step, which stays on /login and asks for the second factor. */
async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  const form = page.locator('form');
  await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
  expect(pathOf(page)).toBe('/login');
}

/** Sets up the authenticator app on the Security page; answers its key and the recovery codes shown. */
async function enrol(page: Page, now: () => Date): Promise<{ secret: string; codes: string[] }> {
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await page.getByRole('img', { name: /QR code/ }).waitFor();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const field = page.getByRole('textbox', { name: 'Code from your authenticator app' });
  expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
  // A wrong code is refused with the reason, and the enrolment waits for the right one.
  const right = totpCode(secret, now());
  await field.fill(right === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('That code is not right').waitFor();
  await field.fill(totpCode(secret, now()));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  expect(codes).toHaveLength(10);
  return { secret, codes };
}

describePortal(
  'two-factor sign-in in the browser',
  (portal) => {
    it('enrols an authenticator app, then signs in with the password and a code, and with a recovery code', async () => {
      const { server } = portal;
      const user = await server.createUser({ fullName: 'Tess Totp' });
      const page = await portal.newPage();
      await signIn(page, user.email, user.password);
      await page.goto('/profile/security');
      await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
      const { secret, codes } = await enrol(page, () => server.clock.now());
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByText('Recovery codes left:').waitFor();
      expect(await page.getByTestId('recovery-codes-left').textContent()).toBe('10');
      await signOut(page);

      // The password alone no longer signs in: the second step asks for a code.
      await passwordStep(page, user.email, user.password);
      const code = page.getByRole('textbox', { name: 'Authentication code' });
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('Enter the 6-digit code your authenticator app shows').waitFor();
      // The code of the enrolment was spent; the app's next code signs in.
      server.clock.advance(30_000);
      await code.fill(totpCode(secret, server.clock.now()));
      await code.press('Enter');
      await expectPath(page, '/dashboard');
      await accountMenu(page).waitFor();
      await signOut(page);

      // With a recovery code instead, once.
      await passwordStep(page, user.email, user.password);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0] ?? '');
      await page.getByRole('button', { name: 'Verify' }).click();
      await expectPath(page, '/dashboard');
      await signOut(page);
      await passwordStep(page, user.email, user.password);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0] ?? '');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
      expect(pathOf(page)).toBe('/login');
    });

    it('sends an administrator without a second factor to enrol before the admin console, when the platform requires it', async () => {
      const { server } = portal;
      await writeSecuritySettings(server.app.db, server.clock, { require_admin_two_factor: true });
      try {
        const page = await portal.newPage();
        await signIn(page, server.admin.email, server.admin.password);
        await expectPath(page, '/profile/security');
        await page.getByText('Required for your account').waitFor({ timeout: 20_000 });
        // Typing an admin address does not get past it.
        await page.goto('/admin/users');
        await expectPath(page, '/profile/security');

        await enrol(page, () => server.clock.now());
        await page.getByRole('button', { name: 'I have saved them' }).click();
        // The policy switch is on, for administrators to see.
        expect(
          await page
            .getByRole('switch', { name: 'Require two-factor sign-in for administrators' })
            .isChecked(),
        ).toBe(true);
        await page.goto('/admin/users');
        await expectPath(page, '/admin/users');
        await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      } finally {
        await writeSecuritySettings(server.app.db, server.clock, { require_admin_two_factor: false });
      }
    });

    it('looks right at desktop and phone width, light and dark', async () => {
      const { server } = portal;
      const user = await server.createUser({ fullName: 'Shay Screens' });
      for (const [width, height] of [
        [1280, 900],
        [390, 844],
      ] as const)
        for (const colorScheme of ['light', 'dark'] as const) {
          const page = await portal.newPage({ viewport: { width, height }, colorScheme });
          await signIn(page, user.email, user.password);
          await page.goto('/profile/security');
          await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
          await page.getByRole('img', { name: /QR code/ }).waitFor();
          // "Looks right": the scheme applied and readable (axe, contrast), nothing wider than the
          // screen, and what the enrolment needs — the QR code, the key to type instead, the code
          // field and its button — visible within the screen's width.
          await photograph(page, `two-factor-enrol-${width}-${colorScheme}`, {
            scheme: colorScheme,
            fullPage: true,
            accessible: true,
            shows: [
              page.getByRole('img', { name: /QR code/ }),
              page.getByTestId('totp-secret'),
              page.getByRole('textbox', { name: 'Code from your authenticator app' }),
              page.getByRole('button', { name: 'Turn on' }),
            ],
          });
          await page.getByRole('button', { name: 'Cancel' }).click();
          await page.context().close();
        }
    });
  },
  { timeout: 180_000 },
);
