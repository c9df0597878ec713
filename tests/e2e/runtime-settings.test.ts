import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describePortal, expectPath, signIn } from './support/portal.js';

/** A web key the build has never heard of: only the server that sends the page knows it. */
const SITE_WEB_KEY = 'site-web-key-changed-2026';

/** Collects every CSP violation the page reports (what a report endpoint would receive). */
const CSP_VIOLATIONS_SCRIPT = `
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) =>
    window.cspViolations.push(event.effectiveDirective + ' ' + event.blockedURI + ' ' + event.sourceFile + ':' + event.lineNumber),
  );
`;

async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript({ content: CSP_VIOLATIONS_SCRIPT });
  return () => page.evaluate<string[]>('window.cspViolations');
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
      for (const path of ['/landing', '/login', '/register']) {
        await page.goto(path, { waitUntil: 'networkidle' });
        await page.locator('form, h1').first().waitFor();
        expect({ path, violations: await violations() }).toEqual({ path, violations: [] });
      }
      await signIn(page, user.email, user.password);
      await expectPath(page, '/dashboard');
      await page.waitForLoadState('networkidle');
      expect(await violations()).toEqual([]);
    });
  },
  { env: { API_KEYS: `web:${SITE_WEB_KEY},desktop:dap-desktop-public` } },
);
