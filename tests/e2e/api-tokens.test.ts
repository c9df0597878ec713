import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { API_TOKEN_PATTERN } from '../../src/shared/api/api-tokens.js';
import { API_BASE_PATH, portalPaths } from '../../src/shared/routes.js';
import { WEB_API_KEY } from '../support/test-server.js';
import { photograph } from './support/photograph.js';
import { describePortal, type Portal, signIn } from './support/portal.js';

/**
 * API tokens in Chromium against the real server: a customer makes a personal token on the
 * Security page (confirming it is them when the sign-in is old), sees it once, uses it, revokes
 * it; an administrator finds another account's token on /admin/api-tokens and revokes it.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A page whose waits allow for a loaded machine (the portal's default is 10 s). */
async function newPage(portal: Portal, options: Parameters<Portal['newPage']>[0]): Promise<Page> {
  const page = await portal.newPage(options);
  page.context().setDefaultTimeout(30_000);
  return page;
}

async function callWith(portal: Portal, token: string, path = '/licenses'): Promise<number> {
  const response = await fetch(`${portal.server.baseUrl}${API_BASE_PATH}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'x-api-key': WEB_API_KEY },
  });
  return response.status;
}

/** Creates a personal token through the dialog and returns the token it shows once. */
async function createThroughDialog(page: Page, name: string, password?: string): Promise<string> {
  const section = page.getByRole('region', { name: 'API tokens' });
  await section.getByRole('button', { name: 'New token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New personal API token' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('checkbox', { name: 'Licenses and machines: read' }).check();
  await dialog.getByRole('checkbox', { name: 'Billing and invoices: write (includes read)' }).check();
  await dialog.getByRole('button', { name: 'Create token' }).click();
  if (password !== undefined) {
    // The portal's step-up dialog asks, then the creation is sent again.
    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.locator('input[type="password"]').fill(password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
  }
  const shown = page.getByRole('dialog', { name: 'Copy your new token' });
  const token = (await shown.getByTestId('new-api-token').textContent())?.trim() ?? '';
  expect(token).toMatch(API_TOKEN_PATTERN);
  return token;
}

describePortal(
  'API tokens in the portal',
  (portal) => {
    it('makes a personal token shown once, lists it without the secret, and revokes it', async () => {
      const user = await portal.server.createUser();
      const page = await newPage(portal, { viewport: DESKTOP });
      await signIn(page, user.email, user.password);
      await page.goto(portalPaths.profileSecurity);

      // Forgetting the name and the scopes is said before anything is sent.
      const section = page.getByRole('region', { name: 'API tokens' });
      await section.getByRole('button', { name: 'New token' }).click();
      const form = page.getByRole('dialog', { name: 'New personal API token' });
      await form.getByRole('button', { name: 'Create token' }).click();
      await form.getByText('Choose at least one area to read or write').waitFor();
      await form.getByRole('button', { name: 'Cancel' }).click();
      await form.waitFor({ state: 'hidden' });

      const token = await createThroughDialog(page, 'Build server');
      const shown = page.getByRole('dialog', { name: 'Copy your new token' });
      await photograph(page, 'api-tokens-created-1280-light', {
        shows: [shown.getByTestId('new-api-token'), shown.getByRole('button', { name: 'I have stored it' })],
      });
      await page.getByRole('button', { name: 'I have stored it' }).click();

      const item = section.getByRole('listitem').filter({ hasText: 'Build server' });
      await item.waitFor();
      // Once the dialog has closed (its exit transition ends), the page holds the token nowhere.
      await expect.poll(() => page.content()).not.toContain(token);
      await expect.poll(() => item.textContent()).toContain(`${token.slice(0, 8)}…${token.slice(-4)}`);
      expect(await callWith(portal, token)).toBe(200);
      // A scope it lacks.
      expect(await callWith(portal, token, '/subscriptions')).toBe(403);
      // Where a token was last used is written with the server's next flush of token uses (every
      // second here), so the page is read again until it shows.
      await expect
        .poll(
          async () => {
            await page.reload();
            await item.waitFor();
            return item.textContent();
          },
          { timeout: 30_000 },
        )
        .toContain('127.0.0.1');
      await photograph(page, 'api-tokens-security-1280-light', { fullPage: true, shows: [item] });

      await item.getByRole('button', { name: 'Revoke Build server' }).click();
      await page
        .getByRole('dialog', { name: 'Revoke Build server?' })
        .getByRole('button', { name: 'Revoke token' })
        .click();
      await expect.poll(() => item.textContent()).toContain('Revoked');
      expect(await callWith(portal, token)).toBe(401);
    });

    it('asks a session that signed in long ago to confirm it is you before making the token', async () => {
      const user = await portal.server.createUser();
      const page = await newPage(portal, { viewport: DESKTOP });
      await signIn(page, user.email, user.password);
      await page.goto(portalPaths.profileSecurity);
      portal.server.clock.advance(11 * 60 * 1000);
      try {
        const token = await createThroughDialog(page, 'Old session', user.password);
        expect(await callWith(portal, token)).toBe(200);
      } finally {
        portal.server.clock.advance(-11 * 60 * 1000);
      }
    });

    it('shows the section and the admin screen at phone and desktop width, light and dark', async () => {
      const user = await portal.server.createUser();
      const setUp = await newPage(portal, { viewport: DESKTOP });
      await signIn(setUp, user.email, user.password);
      await setUp.goto(portalPaths.profileSecurity);
      const leaked = await createThroughDialog(setUp, 'Laptop script with a rather long name to wrap');
      await setUp.getByRole('button', { name: 'I have stored it' }).click();
      expect(await callWith(portal, leaked)).toBe(200);

      // One sign-in per account; the width and the scheme change in place.
      const page = await newPage(portal, { viewport: DESKTOP });
      await signIn(page, user.email, user.password);
      const admin = await newPage(portal, { viewport: DESKTOP });
      await signIn(admin, portal.server.admin.email, portal.server.admin.password);
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const viewport of [DESKTOP, PHONE]) {
          await page.emulateMedia({ colorScheme });
          await page.setViewportSize(viewport);
          await page.goto(portalPaths.profileSecurity);
          const section = page.getByRole('region', { name: 'API tokens' });
          await section.getByRole('listitem').first().waitFor();
          // The scheme applied and readable, no sideways scroll, the token's revoke button on screen.
          await photograph(page, `api-tokens-section-${viewport.width}-${colorScheme}`, {
            scheme: colorScheme,
            target: section,
            accessible: true,
            shows: [section.getByRole('button', { name: /^Revoke/ }).first()],
          });

          await admin.emulateMedia({ colorScheme });
          await admin.setViewportSize(viewport);
          await admin.goto(portalPaths.adminApiTokens);
          await admin.getByText(user.email).first().waitFor();
          await photograph(admin, `api-tokens-admin-${viewport.width}-${colorScheme}`, {
            scheme: colorScheme,
            fullPage: true,
            accessible: true,
            shows: [admin.getByRole('button', { name: /^Revoke/ }).first()],
          });
        }
      }
      await admin.setViewportSize(DESKTOP);

      // The administrator revokes the customer's leaked token.
      await admin.goto(`${portalPaths.adminApiTokens}?search=${encodeURIComponent(user.email)}`);
      await admin
        .getByRole('row')
        .filter({ hasText: 'Laptop script' })
        .getByRole('button', { name: /^Revoke/ })
        .click();
      await admin.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
      await expect.poll(() => callWith(portal, leaked)).toBe(401);
    });

    it('lets an administrator make a platform token with admin scopes', async () => {
      const page = await newPage(portal, { viewport: DESKTOP });
      await signIn(page, portal.server.admin.email, portal.server.admin.password);
      await page.goto(portalPaths.adminApiTokens);
      await page.getByRole('button', { name: 'New platform token' }).click();
      const dialog = page.getByRole('dialog', { name: 'New platform token' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Ops bot');
      await dialog.getByRole('checkbox', { name: 'Administration: read' }).check();
      await dialog.getByRole('button', { name: 'Create token' }).click();
      const token = (await page.getByTestId('new-api-token').textContent())?.trim() ?? '';
      expect(token).toMatch(API_TOKEN_PATTERN);
      expect(await callWith(portal, token, '/admin/dashboard')).toBe(200);
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await page.getByRole('region', { name: 'Your platform tokens' }).getByText('Ops bot').waitFor();
    });
  },
  // Token uses are written every second, not every ten, so the last use shows soon after a call.
  { timeout: 240_000, env: { API_TOKEN_USE_FLUSH_SECONDS: '1' } },
);
