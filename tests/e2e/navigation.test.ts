import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/shared/constants.js';
import { unreachableMessages, renderErrorMessages } from '../../src/shared/messages.js';
import { readOutbox } from '../support/outbox.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import {
  describePortal,
  expectPath,
  pathOf,
  readVerificationLink,
  signIn,
  watchPage,
} from './support/portal.js';
import { callApi } from './support/seed.js';

/**
 * Issue 27, points 11, 12, 13, 15 and 16 in Chromium against the real server: a plan chosen on
 * /landing survives sign-up, the e-mail confirmation and sign-in and opens its checkout; each
 * screen has its title and takes focus to its heading; an unconfirmed sign-in offers a new link;
 * a saved dark theme is in the very first frame; and a server that does not answer is said so.
 */

/** What has focus: its tag and text. */
const focused = (page: Page) =>
  page.evaluate<{ tag: string | null; text: string | null }>(
    '({ tag: document.activeElement?.tagName.toLowerCase() ?? null, text: document.activeElement?.textContent?.trim() ?? null })',
  );

/** Registers through the form of `page` (already on /register). */
async function register(page: Page, email: string): Promise<void> {
  const form = page.locator('form');
  await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await form.getByRole('textbox', { name: 'Confirm password' }).fill(STRONG_PASSWORD);
  await form.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
}

describePortal('navigation, titles, theme and an absent server in the browser', (portal) => {
  it('"Get started" on Pro keeps the plan through sign-up, the e-mail confirmation and sign-in, into its checkout', async () => {
    const context = await portal.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    watchPage(page);
    const email = uniqueEmail('plan-journey');

    await page.goto('/landing');
    const pro = page.getByRole('article', { name: 'Pro', exact: true });
    await pro.getByRole('link', { name: 'Get started with Pro' }).click();
    await expectPath(page, '/register');
    await page.getByText('you go straight on to the checkout of the plan you chose').waitFor();
    await register(page, email);

    // The confirmation link is opened in a new tab, as from a mail client: nothing of the first
    // tab's navigation is there, only this browser's storage.
    const link = await readVerificationLink(portal.server.outboxDir, email);
    const confirmed = await context.newPage();
    watchPage(confirmed);
    await page.close();
    await confirmed.goto(link);
    await confirmed.getByRole('heading', { name: 'E-mail confirmed' }).waitFor();
    await confirmed.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expectPath(confirmed, '/login');
    const form = confirmed.locator('form');
    await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();

    // Straight into Pro's checkout, and the link's parameter is spent (a reload opens nothing).
    await expectPath(confirmed, '/purchase');
    const checkout = confirmed.getByRole('dialog', { name: 'Sandbox checkout' });
    await checkout.getByText('₹999 / month until you cancel').waitFor();
    expect(new URL(confirmed.url()).search).toBe('');
    expect(
      await confirmed.evaluate<string | null>("localStorage.getItem('desktop_ai_assistant_return_path')"),
    ).toBeNull();
  });

  it('"Download the desktop app" leads through sign-in to the installers, not to sign-up', async () => {
    const user = await portal.server.createUser();
    const page = await portal.newPage();
    await page.goto('/landing');
    await page.getByRole('link', { name: 'Download the desktop app' }).click();
    await expectPath(page, '/login');
    const form = page.locator('form');
    await form.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    // A new account has no license yet: the licenses screen, whose free license brings the installers.
    await expectPath(page, '/licenses');
    expect(new URL(page.url()).hash).toBe('#downloads');
    await page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
  });

  it('signing in unconfirmed offers a new link for the address typed, which stays typed', async () => {
    const email = uniqueEmail('unconfirmed');
    const registered = await callApi(portal.server, {
      method: 'POST',
      path: '/auth/register',
      body: { email, password: STRONG_PASSWORD },
    });
    expect(registered.statusCode).toBe(202);
    const mailsBefore = (await readOutbox(portal.server.outboxDir)).filter((mail) => mail.to.includes(email));
    expect(mailsBefore).toHaveLength(1);

    const page = await portal.newPage();
    await page.goto('/login');
    const form = page.locator('form').first();
    await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await form.getByRole('alert').filter({ hasText: 'Confirm your e-mail address' }).waitFor();
    expect(await form.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe(email);

    await page.getByText(`We can send a new one to ${email}`).waitFor();
    await page.getByRole('button', { name: 'Send a new confirmation link' }).click();
    await page.getByRole('status').filter({ hasText: /./ }).first().waitFor();
    await expect
      .poll(
        async () =>
          (await readOutbox(portal.server.outboxDir)).filter((mail) => mail.to.includes(email)).length,
      )
      .toBe(2);
    expect(pathOf(page)).toBe('/login');
  });

  it('each screen has its own title, and a navigation moves focus to its heading (not the first load)', async () => {
    const user = await portal.server.createUser();
    const page = await portal.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.title()).toBe(`Sign in · ${PRODUCT_NAME}`);

    await signIn(page, user.email, user.password);
    await expectPath(page, '/dashboard');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.title()).toBe(`Dashboard · ${PRODUCT_NAME}`);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Licenses' }).click();
    await expectPath(page, '/licenses');
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Licenses' });
    expect(await page.title()).toBe(`Licenses · ${PRODUCT_NAME}`);

    // A first load keeps the browser's start: nothing is focused, and Tab reaches the skip link first.
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    expect(await page.title()).toBe(`Profile · ${PRODUCT_NAME}`);
    expect((await focused(page)).tag).toBe('body');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ tag: 'a', text: 'Skip to content' });
  });

  it('a saved dark theme is in the first frame, before any of the portal’s scripts have run', async () => {
    const context = await portal.newContext({ colorScheme: 'light', viewport: { width: 800, height: 600 } });
    await context.addInitScript({
      content: `
        localStorage.setItem('mantine-color-scheme-value', 'dark');
        // The first frame: its callbacks run just before it is painted.
        window.__firstFrame = new Promise((resolve) =>
          requestAnimationFrame(() =>
            resolve({
              scheme: document.documentElement.getAttribute('data-mantine-color-scheme'),
              background: getComputedStyle(document.body).backgroundColor,
              // The page may be rendered ahead of time: the portal has started once React owns an element.
              portalStarted: [...document.querySelectorAll('#root *')].some((element) =>
                Object.keys(element).some((key) => key.startsWith('__reactFiber$')),
              ),
            }),
          ),
        );
      `,
    });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // The portal's JavaScript never arrives: what is painted is index.html, its styles and its inline script.
    await page.route('**/assets/*.js', () => undefined);
    await page.goto('/landing', { waitUntil: 'commit' });
    const first = await page.evaluate<{ scheme: string; background: string; portalStarted: boolean }>(
      'window.__firstFrame',
    );
    expect(first.scheme).toBe('dark');
    expect(first.portalStarted).toBe(false);
    const [red, green, blue] = (first.background.match(/\d+/g) ?? []).map(Number);
    // Mantine's dark body (dark-7), far from the light one (#f7f8fc or white).
    expect(Math.max(red ?? 255, green ?? 255, blue ?? 255)).toBeLessThan(64);
    // The screenshot agrees: the page's corner is dark.
    const shot = await page.screenshot({ clip: { x: 0, y: 0, width: 1, height: 1 } });
    const { PNG } = await import('pngjs');
    const pixel = PNG.sync.read(shot).data;
    expect(Math.max(pixel[0] ?? 255, pixel[1] ?? 255, pixel[2] ?? 255)).toBeLessThan(64);
    // The inline script ran under the served policy (allowed by its hash).
    expect(violations).toEqual([]);
  });

  it('a screen whose code cannot be downloaded says the server cannot be reached, and loads once it is back', async () => {
    const user = await portal.server.createUser();
    const page = await portal.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, user.email, user.password);
    await expectPath(page, '/dashboard');
    await page.getByRole('heading', { level: 1 }).first().waitFor();

    // The server goes away: neither the API nor the portal's files answer.
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.route('**/assets/**', (route) => route.abort('internetdisconnected'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('heading', { level: 1, name: unreachableMessages.title }).waitFor();
    expect(await page.getByText(renderErrorMessages.text).count()).toBe(0);
    await page.getByRole('button', { name: unreachableMessages.retryButton }).click();
    await page.getByText(unreachableMessages.stillUnreachable).waitFor();

    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByRole('button', { name: unreachableMessages.retryButton }).click();
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
    expect(pathOf(page)).toBe('/subscriptions');
  });

  it('an admin list whose server is gone says so, without the last page’s pagination, and retries', async () => {
    for (let index = 0; index < 11; index += 1) await portal.server.createUser();
    const page = await portal.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    await signIn(page, portal.server.admin.email, portal.server.admin.password);
    await page.goto('/admin/users');
    const showing = page.getByText(/^Showing 1–10 of \d+ users$/);
    await showing.waitFor();

    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Next page' }).click();
    const alert = page.getByRole('alert').filter({ hasText: unreachableMessages.title });
    await alert.waitFor();
    expect(await page.getByText('Network Error').count()).toBe(0);
    expect(await page.getByText(/^Showing /).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Pages of users' }).count()).toBe(0);

    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByText(/^Showing 11–\d+ of \d+ users$/).waitFor();
  });
});
