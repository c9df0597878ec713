import type { Page, Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { PRERENDERED_ATTRIBUTE } from '../../src/shared/prerendered-page.js';
import { describePortal, expectPath, signIn } from './support/portal.js';

/**
 * Issue 35, the public pages rendered ahead of time (scripts/prerender-public-pages.ts): the HTML
 * holds the page a visitor with no session sees, the client hydrates it without a mismatch, and a
 * visitor with a stored session still sees the session's start-up screen, then their dashboard.
 */

const PAGES = ['/landing', '/login', '/register', '/forgot-password'] as const;
const DESKTOP = { viewport: { width: 1440, height: 900 } } as const;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/**
 * The page's visible text without its white space: how the text is broken into lines and spaced
 * depends on whether the styles have applied yet, which is not what hydration is about.
 */
const textOf = async (page: Page) => (await page.locator('#root').innerText()).replace(/\s+/g, '');

/**
 * Holds back the portal's entry script until `release()`: what shows until then is the HTML as
 * sent and its inline scripts, before any of the client's code has run.
 */
async function holdEntryScript(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

describePortal('the public pages, rendered ahead of time', (portal) => {
  it.each(
    PAGES.flatMap(
      (path) =>
        [
          [path, 'desktop', 'light', DESKTOP],
          [path, 'phone', 'dark', PHONE],
        ] as const,
    ),
  )(
    '%s (%s, %s): the HTML holds the page, and the client hydrates it to the very same text with no mismatch',
    async (path, _device, scheme, size) => {
      const page = await portal.newPage({ ...size, colorScheme: scheme, reducedMotion: 'reduce' });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });

      const release = await holdEntryScript(page);
      await page.goto(path, { waitUntil: 'commit' });
      await page.locator(`#root[${PRERENDERED_ATTRIBUTE}]`).waitFor({ state: 'attached' });
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const asSent = await textOf(page);
      // The heading element as sent: hydration keeps it, rendering afresh would replace it.
      await page.evaluate("window.sentHeading = document.querySelector('h1')");
      expect(asSent).not.toContain('Initializingsecuresession...');
      expect(asSent).not.toContain('Loading...');

      release();
      await page.waitForLoadState('networkidle');
      // Hydrated: React owns the very elements that were sent, and their text is the same.
      await expect
        .poll(() =>
          page.evaluate<boolean>(
            "window.sentHeading.isConnected && Object.keys(window.sentHeading).some((key) => key.startsWith('__reactFiber$'))",
          ),
        )
        .toBe(true);
      expect(await textOf(page)).toBe(asSent);
      expect(problems).toEqual([]);
    },
  );

  it('a form sent before its code has run cannot be sent: its fields wait, disabled, and sign in once hydrated', async () => {
    const who = await portal.server.createUser();
    const page = await portal.newPage({ ...DESKTOP, reducedMotion: 'reduce' });
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    const release = await holdEntryScript(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await page.locator(`#root[${PRERENDERED_ATTRIBUTE}]`).waitFor({ state: 'attached' });
    const form = page.locator('form');
    const email = form.getByRole('textbox', { name: 'E-mail' });
    const submit = form.getByRole('button', { name: 'Sign in' });
    await submit.waitFor();
    // As sent: nothing to type into and nothing to press, so the browser has nothing to send itself.
    expect(await email.isDisabled()).toBe(true);
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.locator('form').getAttribute('method')).toBe('post');

    // Typing and pressing wait for the page's code, as a person's would, and then work.
    const typed = email.fill(who.email);
    release();
    await typed;
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill(who.password);
    await submit.click();
    await expectPath(page, '/dashboard');
    expect(addresses.filter((address) => address.includes(encodeURIComponent(who.password)))).toEqual([]);
  });

  it('the plans the landing page was rendered with are the server’s, and the client keeps them when the read fails', async () => {
    const page = await portal.newPage({ ...DESKTOP, reducedMotion: 'reduce' });
    await page.route('**/api/v1/plans/public', (route) => route.fulfill({ status: 503, body: '{}' }));
    await page.goto('/landing', { waitUntil: 'networkidle' });
    const cards = page.getByRole('link', { name: /^(Start free|Get started) with / });
    const served = await portal.server.app.inject({
      method: 'GET',
      url: '/api/v1/plans/public',
      headers: { 'x-api-key': 'dap-web-public' },
    });
    const names = served.json<{ name: string }[]>().map((plan) => plan.name);
    expect(names.length).toBeGreaterThan(0);
    expect(await cards.count()).toBe(names.length);
    for (const name of names)
      await page
        .getByRole('link', { name: new RegExp(`with ${name.replace(/[()]/g, '\\$&')}$`) })
        .first()
        .waitFor();
    expect(await page.getByText('Plans could not be loaded').count()).toBe(0);
    // The build's plans carry the build's ids: without the server's, no card leads anywhere.
    for (const card of await cards.all()) expect(await card.getAttribute('aria-disabled')).toBe('true');
  });

  it('the plans’ links lead to the server’s plan once its plans are read, not the build’s', async () => {
    const page = await portal.newPage({ ...DESKTOP, reducedMotion: 'reduce' });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/v1/plans/public', async (route) => {
      await answered;
      await route.continue();
    });
    // Not 'networkidle': the plans' read is held until the test lets it go.
    await page.goto('/landing');
    const pro = page.getByRole('link', { name: 'Get started with Pro', exact: true });
    await pro.waitFor();
    expect(await pro.getAttribute('aria-disabled')).toBe('true');
    answer();
    await expect.poll(() => pro.getAttribute('aria-disabled')).toBeNull();
    const served = await portal.server.app.inject({
      method: 'GET',
      url: '/api/v1/plans/public',
      headers: { 'x-api-key': 'dap-web-public' },
    });
    const proId = served.json<{ id: string; name: string }[]>().find((plan) => plan.name === 'Pro')?.id;
    expect(proId).toBeTruthy();
    expect(decodeURIComponent((await pro.getAttribute('href')) ?? '')).toContain(proId);
  });

  it('a page built in an earlier year hydrates without a mismatch, then shows the year of the visit', async () => {
    const context = await portal.newContext({ ...DESKTOP, reducedMotion: 'reduce' });
    const built = new Date().getFullYear();
    await context.clock.setFixedTime(new Date(Date.UTC(built + 4, 0, 2, 12)));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    const release = await holdEntryScript(page);
    await page.goto('/landing', { waitUntil: 'commit' });
    const footer = page.getByRole('contentinfo');
    await footer.getByText(`© ${built}`).waitFor();
    await page.evaluate("window.sentHeading = document.querySelector('h1')");
    release();
    await footer.getByText(`© ${built + 4}`).waitFor();
    // Hydrated, not rendered afresh: the heading sent is still the one on the page.
    expect(await page.evaluate<boolean>('window.sentHeading.isConnected')).toBe(true);
    expect(problems).toEqual([]);
  });

  it('an address with a query the build did not render is rendered afresh, the page shown meanwhile', async () => {
    const page = await portal.newPage({ ...DESKTOP, reducedMotion: 'reduce' });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    const release = await holdEntryScript(page);
    await page.goto('/register?next=%2Fpurchase', { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // The page's inline script, right after the page, drops the mark (the heading may be parsed first).
    await expect.poll(() => page.locator('#root').getAttribute(PRERENDERED_ATTRIBUTE)).toBeNull();
    release();
    await page.getByText('you go straight on to the checkout of the plan you chose').waitFor();
    expect(problems).toEqual([]);
  });

  it('a visitor with a stored session sees the start-up screen, not the signed-out page, then the dashboard', async () => {
    const who = await portal.server.createUser();
    const context = await portal.newContext({ ...DESKTOP, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await signIn(page, who.email, who.password);
    await expectPath(page, '/dashboard');

    const again = await context.newPage();
    const release = await holdEntryScript(again);
    await again.goto('/login', { waitUntil: 'commit' });
    const root = again.locator('#root');
    await root.getByText('Initializing secure session...').waitFor();
    expect(await root.getAttribute(PRERENDERED_ATTRIBUTE)).toBeNull();
    expect(await again.getByRole('heading', { name: 'Sign in' }).count()).toBe(0);

    release();
    await expectPath(again, '/dashboard');
    await again.getByRole('heading', { level: 1 }).first().waitFor();
  });
});
