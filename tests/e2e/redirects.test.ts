import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describePortal, expectPath, pathOf, signIn, watchPage } from './support/portal.js';

/** Opens each path in turn and collects where the portal ended up (after its client-side redirects). */
async function landingPaths(page: Page, expected: Record<string, string>): Promise<Record<string, string>> {
  const reached: Record<string, string> = {};
  for (const [from, to] of Object.entries(expected)) {
    await page.goto(from);
    // Wait for the expected place, but record wherever it settles so one run lists every wrong redirect.
    await expect
      .poll(() => pathOf(page), { timeout: 5_000 })
      .toBe(to)
      .catch(() => undefined);
    reached[from] = pathOf(page);
  }
  return reached;
}

const delay = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));

describePortal('redirects between public and signed-in pages', (portal) => {
  it('sends an anonymous visitor to /landing, and to /login from pages that need a sign-in', async () => {
    const page = await portal.newPage();
    const expected = {
      '/': '/landing',
      '/no/such/page': '/landing',
      '/dashboard': '/login',
      '/licenses': '/login',
      '/admin': '/login',
      '/admin/users': '/login',
      '/login': '/login',
      '/register': '/register',
      '/forgot-password': '/forgot-password',
    };
    expect(await landingPaths(page, expected)).toEqual(expected);
  });

  it('sends a signed-in user home to /dashboard, away from sign-in pages and admin pages', async () => {
    const user = await portal.server.createUser();
    const page = await portal.newPage();
    await signIn(page, user.email, user.password);
    await expectPath(page, '/dashboard');
    const expected = {
      '/': '/dashboard',
      '/login': '/dashboard',
      '/register': '/dashboard',
      '/forgot-password': '/dashboard',
      '/admin': '/dashboard',
      '/admin/users': '/dashboard',
      '/no/such/page': '/dashboard',
      '/licenses': '/licenses',
      '/profile': '/profile',
    };
    expect(await landingPaths(page, expected)).toEqual(expected);
  });

  it('sends an admin home to /admin, away from sign-in pages and user-only pages', async () => {
    const page = await portal.newPage();
    await signIn(page, portal.server.admin.email, portal.server.admin.password);
    await expectPath(page, '/admin');
    const expected = {
      '/': '/admin',
      '/login': '/admin',
      '/register': '/admin',
      '/dashboard': '/admin',
      '/licenses': '/admin',
      '/profile': '/admin',
      '/no/such/page': '/admin',
      '/admin/users': '/admin/users',
    };
    expect(await landingPaths(page, expected)).toEqual(expected);
  });

  it("shows 'Initializing secure session...' while a new tab restores the session", async () => {
    const user = await portal.server.createUser();
    const page = await portal.newPage();
    await signIn(page, user.email, user.password);
    await expectPath(page, '/dashboard');

    // A second tab has no access token of its own: it restores the session with the shared refresh
    // cookie, and the server is slow to answer.
    const context = page.context();
    await context.route('**/api/v1/auth/refresh', async (route) => {
      await delay(1_500);
      await route.continue();
    });
    const second = await context.newPage();
    watchPage(second);
    await second.goto('/dashboard', { waitUntil: 'commit' });
    const spinner = second.getByText('Initializing secure session...');
    await spinner.waitFor({ state: 'visible' });
    // The screen behind the spinner is not shown yet, and appears once the session is back.
    expect(await second.getByRole('button', { name: /^Account menu for / }).count()).toBe(0);
    await second.getByRole('button', { name: /^Account menu for / }).waitFor();
    await spinner.waitFor({ state: 'detached' });
    expect(pathOf(second)).toBe('/dashboard');
  });

  it("shows 'Loading...' while a lazily loaded screen arrives", async () => {
    const page = await portal.newPage();
    // A screen the build does not render ahead of time (the public pages arrive as HTML).
    await page.route('**/assets/reset-password-page-*.js', async (route) => {
      await delay(1_500);
      await route.continue();
    });
    await page.goto('/reset-password?token=not-a-real-token', { waitUntil: 'commit' });
    const placeholder = page.getByText('Loading...', { exact: true });
    await placeholder.waitFor({ state: 'visible' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await placeholder.waitFor({ state: 'detached' });
  });
});
