import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describePortal, expectPath, signIn } from './support/portal.js';

/** A web key the build has never heard of: only the server that sends the page knows it. */
const SITE_WEB_KEY = 'site-web-key-changed-2026';

/** Records every CSP violation the page reports (as a report endpoint would receive them). */
async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

describePortal(
  'settings read where the server runs',
  (portal) => {
    it('signs in with the web key API_KEYS names, which the build does not know', async () => {
      const user = await portal.server.createUser();
      const page = await portal.newPage();
      const keys = new Set<string>();
      page.on('request', (request) => {
        const key = request.headers()['x-api-key'];
        if (key) keys.add(key);
      });
      await signIn(page, user.email, user.password);
      await expectPath(page, '/dashboard');
      expect([...keys]).toEqual([SITE_WEB_KEY]);
    });

    it('loads its pages without a single CSP violation (zod does not probe for eval)', async () => {
      const user = await portal.server.createUser();
      const page = await portal.newPage();
      const violations = await recordCspViolations(page);
      await page.goto('/landing');
      await page.waitForLoadState('networkidle');
      expect(await violations()).toEqual([]);
      await signIn(page, user.email, user.password);
      await expectPath(page, '/dashboard');
      await page.waitForLoadState('networkidle');
      expect(await violations()).toEqual([]);
    });
  },
  { env: { API_KEYS: `web:${SITE_WEB_KEY},desktop:dap-desktop-public` } },
);
