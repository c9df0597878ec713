// `node --import tsx bench/login-ready.ts`: how long /login takes, on loopback, until its e-mail
// field is usable (present, enabled and focusable), from a cold browser cache and a warm one.
// Expects a built portal (`npm run build:app`); the real server serves it from out/renderer.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../tests/support/chromium.js';
import { type ServerHandle, startServer } from './server-process.js';

const repoRoot = resolve(import.meta.dirname, '..');
const RUNS = Math.min(Math.max(Number(process.env.BENCH_RUNS ?? 7) || 7, 1), 50);
const READY_TIMEOUT_MS = 20_000;

/**
 * Runs in the page (as a string: this file is type-checked without the DOM library): the page's
 * own clock once the e-mail field can take input. Focusing it proves nothing disables or covers it.
 */
const EMAIL_FIELD_READY = `(() => {
  const field = document.querySelector('input[type="email"]');
  if (!field || field.disabled || field.readOnly || field.closest('[inert],[aria-busy="true"]')) return false;
  field.focus();
  return document.activeElement === field ? performance.now() : false;
})()`;

async function timeToReady(browser: Browser, url: string, warm: boolean): Promise<number> {
  // The portal's CSP forbids eval, which Playwright's polling needs; it does not change load timing.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  try {
    const page = await context.newPage();
    // Warm: the same context has loaded the page once, so scripts and styles come from its cache.
    if (warm) await page.goto(url, { waitUntil: 'networkidle' });
    await page.goto(url, { waitUntil: 'commit' });
    const ready = await page.waitForFunction(EMAIL_FIELD_READY, undefined, {
      polling: 'raf',
      timeout: READY_TIMEOUT_MS,
    });
    return (await ready.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  if (!existsSync(join(repoRoot, 'out/renderer/index.html'))) {
    throw new Error('out/renderer is not built: run `npm run build:app` first');
  }
  let server: ServerHandle | undefined;
  const browser = await launchChromium();
  try {
    server = await startServer({
      repoRoot,
      adminEmail: 'bench-admin@example.com',
      adminPassword: randomBytes(18).toString('base64url'),
      databaseUrl: undefined,
      useDist: false,
    });
    const url = new URL('/login', server.baseUrl).href;
    // One unmeasured load warms the server's file reads, so the first cold run is not an outlier.
    await timeToReady(browser, url, false).catch((error: unknown) => {
      throw new Error(
        `/login never showed a usable e-mail field (${error instanceof Error ? error.message.split('\n')[0] : error}); is the router wired in main.tsx?`,
      );
    });
    const results: Record<'cold' | 'warm', number[]> = { cold: [], warm: [] };
    for (let run = 0; run < RUNS; run += 1) {
      results.cold.push(await timeToReady(browser, url, false));
      results.warm.push(await timeToReady(browser, url, true));
    }
    const lines = ['', `/login usable (e-mail field enabled and focused), ${RUNS} runs each, loopback`];
    for (const kind of ['cold', 'warm'] as const) {
      const values = results[kind];
      lines.push(
        `  ${kind}  median ${median(values).toFixed(0)} ms  min ${Math.min(...values).toFixed(0)} ms  max ${Math.max(...values).toFixed(0)} ms`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n\n`);
  } finally {
    await browser.close();
    await server?.stop();
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(
    `Login-ready benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
}
