import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { expect, it } from 'vitest';
import { describePortal } from './support/portal.js';

/**
 * Issue "Portal core", Speed: initial JavaScript of /landing and /login at most 150 KB gzip; issue
 * 14 asks for 100 KB, out of reach while React and React DOM alone are 67 KB of it (see
 * bench/README.md), so the budget is the issue's 150 KB: the sign-in screen's other ways in (a
 * passkey button; the second step loads only when asked for) took it past the 148 KB it needed before.
 * Issue 34's languages add Lingui's runtime (3.5 KB), the language switch and each message's id
 * (about 6 KB in all, measured on /login: 149.8 KB before, 155.8 after): 157 KB. Issue 35 took out
 * what the two pages carried for other screens (the catalogs' list, the signed-in screens' API
 * paths and error messages, react-router's development build): /landing 153.1 to 148.9 KB, /login
 * 156.6 to 154.0 KB, so 155 KB.
 */
const BUDGET_KB = 155;
const BUDGET_BYTES = BUDGET_KB * 1024;

interface Script {
  url: string;
  raw: number;
  gzip: number;
}

const isScript = (response: Response) =>
  response.request().resourceType() === 'script' ||
  /javascript|ecmascript/.test(response.headers()['content-type'] ?? '');

/** Every JavaScript file the browser downloads for a cold visit of `path`, lazy chunks included. */
async function scriptsLoadedFor(page: Page, path: string, ready: () => Promise<unknown>): Promise<Script[]> {
  const responses = new Map<string, Response>();
  page.on('response', (response) => {
    if (isScript(response) && response.ok()) responses.set(response.url(), response);
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await ready();
  // Anything the rendered page pulled in after the first idle moment (a lazily loaded section).
  await page.waitForLoadState('networkidle');
  return Promise.all(
    [...responses.values()].map(async (response) => {
      const body = await response.body();
      return {
        url: new URL(response.url()).pathname,
        raw: body.length,
        gzip: gzipSync(body, { level: 9 }).length,
      };
    }),
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function report(path: string, scripts: Script[]): number {
  const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
  const lines = [...scripts]
    .sort((a, b) => b.gzip - a.gzip)
    .map(
      (script) => `  ${kb(script.gzip).padStart(9)} gzip  ${kb(script.raw).padStart(9)} raw  ${script.url}`,
    );
  console.info(
    `[bundle-budget] ${path}: ${scripts.length} scripts, ${kb(total)} gzip of ${kb(BUDGET_BYTES)} budget\n${lines.join('\n')}`,
  );
  return total;
}

describePortal('initial JavaScript budget', (portal) => {
  it(`/landing loads at most ${BUDGET_KB} KB of gzipped JavaScript`, async () => {
    const page = await portal.newPage();
    const scripts = await scriptsLoadedFor(page, '/landing', () =>
      page.getByRole('heading', { level: 1 }).first().waitFor(),
    );
    expect(scripts.length, 'the landing page loaded no JavaScript at all').toBeGreaterThan(0);
    expect(report('/landing', scripts)).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it(`/login loads at most ${BUDGET_KB} KB of gzipped JavaScript`, async () => {
    const page = await portal.newPage();
    const scripts = await scriptsLoadedFor(page, '/login', () =>
      page.locator('form').getByRole('button', { name: 'Sign in' }).waitFor(),
    );
    expect(scripts.length, 'the login page loaded no JavaScript at all').toBeGreaterThan(0);
    expect(report('/login', scripts)).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
