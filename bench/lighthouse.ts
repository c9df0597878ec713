// `node --import tsx bench/lighthouse.ts`: Lighthouse (the npm package, with Debian's Chromium) on
// /landing and /login, mobile (simulated throttling, the default preset) and desktop, each as served
// and again with compression refused (Accept-Encoding: identity), so one run shows what it buys.
// It prints the four category scores, the core metrics, the script bytes sent and the machine's
// load average: simulated throttling scales the CPU time it observes, so a busy machine scores lower.
// Each row is the median of `--runs N` audits (3 by default), by performance score.
// Expects a built portal (`npm run build:app`); the real server serves it from out/renderer.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium.js';
import { type ServerHandle, startServer } from './server-process.js';

const repoRoot = resolve(import.meta.dirname, '..');
const PAGES = ['/landing', '/login'] as const;
const FORM_FACTORS = ['mobile', 'desktop'] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** The core metrics, by audit id, as the table names them. */
const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
} as const;

type Row = { page: string; formFactor: string; compressed: boolean; lhr: Result };

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 3) || 3;

/** The audit of median performance among `results` (the middle one once sorted by score). */
function median(results: Result[]): Result {
  const sorted = results.toSorted(
    (a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0),
  );
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no audit to take the median of');
  return middle;
}

async function audit(
  port: number,
  url: string,
  formFactor: (typeof FORM_FACTORS)[number],
  compressed: boolean,
) {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    ...(compressed ? {} : { extraHeaders: { 'Accept-Encoding': 'identity' } }),
  };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

const score = (lhr: Result, category: string) => {
  const value = lhr.categories[category]?.score;
  return value === null || value === undefined ? '  —' : String(Math.round(value * 100)).padStart(3);
};

/** Script bytes as transferred (compressed when served so), from Lighthouse's resource summary. */
const scriptKb = (lhr: Result) => {
  const items = (
    lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] }
  )?.items;
  const script = items?.find((item) => item.resourceType === 'script');
  return script ? `${(script.transferSize / 1024).toFixed(1)} KB` : '—';
};

const metric = (lhr: Result, id: keyof typeof METRICS) => {
  const value = lhr.audits[id]?.numericValue;
  if (value === undefined) return '—';
  return id === 'cumulative-layout-shift' ? value.toFixed(3) : `${Math.round(value)} ms`;
};

function report(rows: Row[], loadBefore: number[]): string {
  const header = [
    'page'.padEnd(9),
    'form'.padEnd(8),
    'served'.padEnd(11),
    'perf a11y  bp seo',
    ...Object.values(METRICS).map((name) => name.padStart(8)),
    'JS sent'.padStart(9),
  ].join(' ');
  const lines = rows.map(({ page, formFactor, compressed, lhr }) =>
    [
      page.padEnd(9),
      formFactor.padEnd(8),
      (compressed ? 'compressed' : 'identity').padEnd(11),
      CATEGORIES.map((category) => score(lhr, category)).join('  '),
      ...Object.keys(METRICS).map((id) => metric(lhr, id as keyof typeof METRICS).padStart(8)),
      scriptKb(lhr).padStart(9),
    ].join(' '),
  );
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  return [
    '',
    `Lighthouse ${rows[0]?.lhr.lighthouseVersion ?? ''} on loopback, median of ${RUNS} runs; load average (1 / 5 / 15 min) ${load(loadBefore)} before, ${load(loadavg())} after`,
    header,
    ...lines,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  if (!existsSync(join(repoRoot, 'out/renderer/index.html'))) {
    throw new Error('out/renderer is not built: run `npm run build:app` first');
  }
  const loadBefore = loadavg();
  let server: ServerHandle | undefined;
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_ARGS,
  });
  try {
    server = await startServer({
      repoRoot,
      adminEmail: 'bench-admin@example.com',
      adminPassword: randomBytes(18).toString('base64url'),
      databaseUrl: undefined,
      useDist: false,
    });
    const rows: Row[] = [];
    for (const page of PAGES)
      for (const formFactor of FORM_FACTORS)
        for (const compressed of [true, false]) {
          const url = new URL(page, server.baseUrl).href;
          const runs: Result[] = [];
          for (let run = 0; run < RUNS; run++)
            runs.push(await audit(chrome.port, url, formFactor, compressed));
          rows.push({ page, formFactor, compressed, lhr: median(runs) });
        }
    process.stdout.write(report(rows, loadBefore));
  } finally {
    chrome.kill();
    await server?.stop();
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(
    `Lighthouse benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
}
