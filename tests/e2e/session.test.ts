import type { BrowserContext, Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { describePortal, expectPath, type Portal, pathOf, signIn, watchPage } from './support/portal.js';

const MINUTE = 60_000;
const accountMenu = (page: Page) => page.getByRole('button', { name: /^Account menu for / });

/** API calls under way in a context (the fake clock must not jump while one waits for its answer). */
const inFlight = new WeakMap<BrowserContext, Set<Request>>();

/**
 * A context whose pages run on a fake clock that starts at the server's time, so the two can be
 * moved forward together (the server judges token expiry by its own clock).
 */
async function contextOnSharedClock(portal: Portal): Promise<BrowserContext> {
  // Reduced motion: the dot grid does not animate, so advancing the fake clock does not run frames.
  const context = await portal.newContext({ reducedMotion: 'reduce' });
  const calls = new Set<Request>();
  inFlight.set(context, calls);
  context.on('request', (request) => {
    if (request.url().includes('/api/')) calls.add(request);
  });
  // Answered is enough: the server has judged the call by then, and a page call still reading its
  // body is counted by the page until its loadend.
  context.on('response', (response) => calls.delete(response.request()));
  context.on('requestfinished', (request) => calls.delete(request));
  context.on('requestfailed', (request) => calls.delete(request));
  await context.addInitScript({ content: PAGE_WORK_SCRIPT });
  await context.clock.install({ time: portal.server.clock.now() });
  return context;
}

/**
 * Counts in each page the calls the network does not show yet. axios arms its 30-second timeout, a
 * page timer, when it opens a request, then reads the XSRF cookie asynchronously and only then sends
 * it; and a refresh holds the shared Web Lock (REFRESH_LOCK_NAME in api-client.ts) from the moment
 * its timer fires, through decrypting the stored token, until its answer is saved. On a busy machine
 * either can outlast any fixed pause, and a clock jump then times the call out and signs the user out.
 */
const PAGE_WORK_SCRIPT = `(() => {
  const open = new Map();
  const xhr = XMLHttpRequest.prototype;
  const { open: openRequest, abort: abortRequest } = xhr;
  xhr.open = function (...args) {
    open.set(this, String(args[0]) + ' ' + String(args[1]));
    this.addEventListener('loadend', () => open.delete(this), { once: true });
    return openRequest.apply(this, args);
  };
  // Aborted before it was sent (its timeout passed while axios read the cookie): no loadend follows.
  xhr.abort = function () {
    open.delete(this);
    return abortRequest.call(this);
  };
  const refreshLocks = async () => {
    const { held = [], pending = [] } = navigator.locks ? await navigator.locks.query() : {};
    const ours = (lock) => lock.name === 'desktop-ai-assistant:token-refresh';
    return [...held.filter(ours).map(() => 'refresh lock held'), ...pending.filter(ours).map(() => 'refresh lock awaited')];
  };
  globalThis.__e2ePageWork = async () => [
    ...[...open].map(([request, call]) => call + ' (XHR state ' + request.readyState + ')'),
    ...(await refreshLocks()),
  ];
})();`;

/** Calls under way in a context: on the network, or started in a page and not there yet. */
async function callsUnderWay(context: BrowserContext): Promise<string[]> {
  const calls = [...(inFlight.get(context) ?? [])].map(
    (request) => `${request.method()} ${request.url()} (network)`,
  );
  for (const page of context.pages())
    calls.push(
      ...(await page
        .evaluate<string[]>('globalThis.__e2ePageWork?.() ?? []')
        // A page navigating away has no calls left to time out.
        .catch(() => [])),
    );
  return calls;
}

/**
 * Moves the server's and the browser's clocks forward by `minutes`, one minute at a time (the
 * session check and the refresh check each run once a minute), firing the page timers that
 * fall due. Between steps it lets API calls finish: jumping a minute while a call waits would fire
 * the client's 30-second request timeout, which no real minute of waiting for a healthy server does.
 */
async function passMinutes(portal: Portal, context: BrowserContext, minutes: number): Promise<void> {
  for (let minute = 0; minute < minutes; minute++) {
    // Never move the clocks under a call in flight: the server would judge a token sent a moment
    // ago by the later time, and the page would time the call out, a race no user meets.
    await settled(context);
    portal.server.clock.advance(MINUTE);
    await context.clock.fastForward(MINUTE);
    // Work a timer started (taking the refresh lock, decrypting a token) is counted by the page
    // until its call is answered, however long it takes to reach the network.
    await settled(context);
  }
}

// A ceiling, not a pause: the poll ends as soon as the calls are done. CI's busy machine has kept
// one waiting for over 10 s, so it is as long as a test may take rather than a guess at a call.
// The calls still under way are named when it is reached.
async function settled(context: BrowserContext): Promise<void> {
  let under: string[] = [];
  await expect
    .poll(
      async () => {
        under = await callsUnderWay(context);
        return under.length;
      },
      { timeout: 60_000, message: 'API calls still under way' },
    )
    .toBe(0)
    .catch((error: unknown) => {
      throw new Error(`API calls still under way after 60 s: ${under.join('; ')}`, { cause: error });
    });
}

const delay = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));

/** The dashboard has made its own calls and shows their answers (no skeleton left). */
async function dashboardLoaded(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() => page.locator('.mantine-Skeleton-root').count(), {
      message: 'the dashboard finished loading',
    })
    .toBe(0);
}

async function newWatchedPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  watchPage(page);
  return page;
}

describePortal(
  'session lifetime, render failures and several tabs',
  (portal) => {
    it('signs out after 30 minutes without activity, checked once a minute', async () => {
      const user = await portal.server.createUser();
      const context = await contextOnSharedClock(portal);
      const page = await newWatchedPage(context);
      const logouts: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/v1/auth/logout')) logouts.push(request.method());
      });
      await signIn(page, user.email, user.password);
      await expectPath(page, '/dashboard');
      await accountMenu(page).waitFor();
      // The dashboard's own loads are the last activity: idle time counts from when they are done.
      await dashboardLoaded(page);

      await passMinutes(portal, context, 29);
      expect(pathOf(page), 'still signed in after 29 idle minutes').toBe('/dashboard');
      expect(logouts).toEqual([]);
      await accountMenu(page).waitFor();

      await passMinutes(portal, context, 2);
      await expect
        .poll(() => logouts, { message: 'the portal told the server it signed out' })
        .toEqual(['POST']);
      await expect.poll(() => pathOf(page)).toMatch(/^\/(login|landing)$/);
      await page.goto('/dashboard');
      await expectPath(page, '/login');
    });

    it('keeps a session alive while the user is active', async () => {
      const user = await portal.server.createUser();
      const context = await contextOnSharedClock(portal);
      const page = await newWatchedPage(context);
      await signIn(page, user.email, user.password);
      await expectPath(page, '/dashboard');
      await dashboardLoaded(page);

      await passMinutes(portal, context, 20);
      // The person comes back and uses the page.
      // Raw mouse input: a locator click waits for stable animation frames, which the fake clock does not deliver reliably.
      const main = await page.getByRole('main').boundingBox();
      if (!main) throw new Error('the dashboard has no main region');
      await page.mouse.click(main.x + 4, main.y + 4);
      await page.keyboard.press('Shift');
      await passMinutes(portal, context, 20);
      expect(pathOf(page), 'signed out 20 minutes after the last activity').toBe('/dashboard');
      await page.reload();
      await accountMenu(page).waitFor();
      expect(pathOf(page)).toBe('/dashboard');
    });

    it("shows the fallback screen when a page cannot render the server's data, and 'Refresh Page' reloads", async () => {
      const user = await portal.server.createUser();
      const page = await portal.newPage({ reducedMotion: 'reduce' });
      // A server that started sending a structured name instead of the text the portal knows.
      const malformed = async (body: Record<string, unknown>) => ({
        ...body,
        full_name: { first: 'Ada', last: 'Lovelace' },
      });
      await page.route('**/api/v1/auth/login', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as Record<string, unknown>;
        const user = body['user'] as Record<string, unknown> | undefined;
        await route.fulfill({ response, json: user ? { ...body, user: await malformed(user) } : body });
      });
      await page.route('**/api/v1/users/me', async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const response = await route.fetch();
        await route.fulfill({
          response,
          json: await malformed((await response.json()) as Record<string, unknown>),
        });
      });

      await page.goto('/login');
      const form = page.locator('form');
      await form.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
      await form.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
      await form.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
      await page
        .getByText(
          'An error occurred while rendering this page. Please try refreshing the page or contact support if the problem persists.',
        )
        .waitFor();
      const refresh = page.getByRole('button', { name: 'Refresh Page' });
      await refresh.waitFor();

      await page.evaluate('window.__beforeRefresh = true');
      await Promise.all([page.waitForEvent('load'), refresh.click()]);
      expect(await page.evaluate('window.__beforeRefresh'), 'the page was reloaded').toBeUndefined();
    });

    it('says the server cannot be reached, inside the layout, when a screen fails to load, and recovers after Try again', async () => {
      const user = await portal.server.createUser();
      const page = await portal.newPage({ reducedMotion: 'reduce' });
      await signIn(page, user.email, user.password);
      await expectPath(page, '/dashboard');

      // A new release replaced the screen's file, or the network dropped it.
      await page.route('**/assets/licenses-page-*.js', (route) => route.abort('failed'));
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /licen[cs]es/i })
        .first()
        .click();
      // A screen whose code did not arrive says so, never "Something went wrong".
      await page.getByRole('heading', { name: 'Can’t reach the server' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Something went wrong' }).count()).toBe(0);
      // Only the screen failed: the signed-in shell with its navigation is still there.
      await accountMenu(page).waitFor();

      // Try again asks the server's health and, as it answers, loads the page again.
      await page.unroute('**/assets/licenses-page-*.js');
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Try again' }).click()]);
      await expectPath(page, '/licenses');
      await accountMenu(page).waitFor();
      expect(await page.getByRole('heading', { name: 'Can’t reach the server' }).count()).toBe(0);
      await page.getByRole('heading', { name: 'Licenses', level: 1 }).waitFor();
    });

    it('keeps two tabs signed in when both refresh their tokens at the same moment', async () => {
      const user = await portal.server.createUser();
      const context = await contextOnSharedClock(portal);
      const first = await newWatchedPage(context);
      await signIn(first, user.email, user.password);
      await expectPath(first, '/dashboard');
      // The second tab restores the session from the shared refresh cookie.
      const second = await newWatchedPage(context);
      await second.goto('/dashboard');
      await accountMenu(second).waitFor();

      const refreshes: { tab: string; token: string; status?: number }[] = [];
      for (const [tab, page] of [
        ['first', first],
        ['second', second],
      ] as const) {
        page.on('request', (request) => {
          if (!request.url().endsWith('/api/v1/auth/refresh')) return;
          const entry = {
            tab,
            token: String((request.postDataJSON() as { refresh_token?: string }).refresh_token),
          };
          refreshes.push(entry);
          void request.response().then((response) => {
            if (response) Object.assign(entry, { status: response.status() });
          });
        });
      }

      // Both access tokens (15 minutes) are past their expiry in one jump: both tabs' refresh timers
      // fire at the same moment, each tab needing a new token and sharing one refresh cookie. Not
      // while the first tab's dashboard is still loading: those calls would be judged by the later time.
      await settled(context);
      portal.server.clock.advance(16 * MINUTE);
      await context.clock.fastForward(16 * MINUTE);
      await delay(50);
      const calls = inFlight.get(context) ?? new Set();
      await expect
        .poll(
          () =>
            calls.size === 0 &&
            new Set(refreshes.map((entry) => entry.tab)).size === 2 &&
            refreshes.every((entry) => entry.status),
          {
            message: 'both tabs refreshed and every call was answered',
            timeout: 10_000,
          },
        )
        .toBe(true);
      console.info(
        `[session] refresh calls after both tokens expired: ${refreshes.map((entry) => `${entry.tab}:${entry.status}`).join(', ')}`,
      );

      // Every refresh succeeded and none spent a refresh token that another had already rotated
      // (the server would take that for theft and end the session everywhere).
      expect(refreshes.map((entry) => entry.status)).toEqual(refreshes.map(() => 200));
      const tokens = refreshes.map((entry) => entry.token);
      expect(new Set(tokens).size, 'a refresh token was presented twice').toBe(tokens.length);
      const reuse = await portal.server.app.db
        .selectFrom('security_events')
        .select('type')
        .where('type', '=', 'refresh_token_reuse')
        .execute();
      expect(reuse).toEqual([]);

      for (const page of [first, second]) {
        expect(pathOf(page)).toBe('/dashboard');
        await page.reload();
        await accountMenu(page).waitFor();
        expect(pathOf(page)).toBe('/dashboard');
      }
    });
  },
  { timeout: 90_000 },
);
