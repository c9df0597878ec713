import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from 'vitest';
import { CHROMIUM_PATH, launchChromium } from '../../support/chromium.js';
import { readOutbox } from '../../support/outbox.js';
import { ensureRendererBuild, REPO_ROOT } from './build.js';
import { type PortalServer, startPortalServer } from './server.js';

/** Debian's Chromium: the tests use the system's browser, never a downloaded one. */
export const chromiumMissingReason = existsSync(CHROMIUM_PATH)
  ? undefined
  : `${CHROMIUM_PATH} is missing (apt-get install chromium)`;

export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-results');
export const SCREENSHOTS_DIR = join(ARTIFACTS_DIR, 'screenshots');

/** Where a screenshot named `name` goes (directory created). */
export async function screenshotPath(name: string): Promise<string> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  return join(SCREENSHOTS_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
}

/**
 * Declares a browser suite: skipped with the reason when Chromium is missing, else one server and
 * one browser for the file, a fresh context per test (closed after it; a failing test leaves a
 * screenshot of each open page under test-results/screenshots/failures/).
 */
export function describePortal(
  title: string,
  define: (portal: Portal) => void,
  options: { env?: Record<string, string>; timeout?: number } = {},
): void {
  if (chromiumMissingReason) {
    describe.skip(`${title} [skipped: ${chromiumMissingReason}]`, () => undefined);
    return;
  }
  describe(title, { timeout: options.timeout ?? 60_000 }, () => {
    const portal = new Portal();
    beforeAll(async () => {
      await ensureRendererBuild();
      portal.server = await startPortalServer(options.env);
      portal.browser = await launchChromium();
    }, 300_000);
    afterAll(async () => {
      await portal.browser?.close();
      await portal.server?.close();
    });
    beforeEach(() => {
      portal.contexts = [];
    });
    afterEach(async (context) => {
      if (context.task.result?.state === 'fail') {
        const pages = portal.contexts.flatMap((browserContext) => browserContext.pages());
        for (const [index, page] of pages.entries()) {
          await mkdir(join(SCREENSHOTS_DIR, 'failures'), { recursive: true });
          const name = `${context.task.name}-${index}`.replace(/[^A-Za-z0-9._-]+/g, '-');
          const path = join(SCREENSHOTS_DIR, 'failures', `${name}.png`);
          await page.screenshot({ path, fullPage: true }).catch(() => undefined);
          console.info(`[e2e] failure screenshot: ${path} (${page.url()})`);
        }
      }
      await Promise.all(portal.contexts.map((browserContext) => browserContext.close()));
    });
    define(portal);
  });
}

/** What a test of a portal suite reaches: the server, the browser and fresh contexts. */
export class Portal {
  server!: PortalServer;
  browser!: Browser;
  contexts: BrowserContext[] = [];

  /** A fresh browser context (closed after the test) with the server as base URL. */
  async newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
    const context = await this.browser.newContext({ baseURL: this.server.baseUrl, ...options });
    // Well under the test's own timeout, so a missing element fails with its selector, not a test timeout.
    context.setDefaultTimeout(10_000);
    this.contexts.push(context);
    return context;
  }

  /** A page in a fresh context; uncaught page errors are printed to help read a failure. */
  async newPage(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await this.newContext(options);
    const page = await context.newPage();
    watchPage(page);
    return page;
  }
}

export function watchPage(page: Page): void {
  page.on('pageerror', (error) => console.warn(`[e2e] page error on ${page.url()}: ${error.message}`));
}

/** The path of the page the browser shows (no origin, no query). */
export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Waits until the browser shows `path` (client-side redirects included). */
export async function expectPath(page: Page, path: string, timeout = 10_000): Promise<void> {
  await expect
    .poll(() => pathOf(page), { timeout, message: `expected the browser to be on ${path}` })
    .toBe(path);
}

/** Signs in through the real login form, like a person: /login, e-mail, password, 'Sign in'. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  const form = page.locator('form');
  await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect
    .poll(() => pathOf(page), { timeout: 15_000, message: `signing in as ${email} should leave /login` })
    .not.toBe('/login');
}

/** The newest link to `path` (e.g. /verify-registration) mailed to `email`, as path and query; waits for it. */
export async function readMailLink(
  outboxDir: string,
  email: string,
  path: string,
  timeout = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const mails = (await readOutbox(outboxDir)).filter((mail) => mail.to.includes(email));
    for (const mail of mails.reverse()) {
      const links = mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
      const link = links
        .map((href) => new URL(href))
        .find((url) => url.pathname === path && url.searchParams.get('token'));
      if (link) return `${link.pathname}${link.search}`;
    }
    if (Date.now() > deadline) {
      const seen = mails.map((mail) => `"${mail.subject}"`).join(', ') || 'none';
      throw new Error(`no mail to ${email} with a ${path} link (mails to that address: ${seen})`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

export const readVerificationLink = (outboxDir: string, email: string) =>
  readMailLink(outboxDir, email, '/verify-registration');
export const readResetLink = (outboxDir: string, email: string) =>
  readMailLink(outboxDir, email, '/reset-password');
