// `node --import tsx bench/dot-grid.ts`: main-thread script time per frame of the dot-grid
// background while the pointer circles and clicks over /landing in headless Chromium.
// Expects a built portal (`npm run build:app`); the real server serves it from out/renderer.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from '../tests/support/chromium.js';
import { type ServerHandle, startServer } from './server-process.js';

const repoRoot = resolve(import.meta.dirname, '..');
const VIEWPORT = { width: 1920, height: 1080 };
/** The budget per frame: the grid must leave a 60 Hz frame almost entirely to the page. */
const TARGET_MS_PER_FRAME = 2;
const SECONDS = Math.min(Math.max(Number(process.env.BENCH_DOT_SECONDS ?? 5) || 5, 1), 30);
const CLICK_EVERY_MS = 500;
/** After the pointer stops, the loop must have ended itself within this (the springs settle in ~1 s). */
const SETTLE_MS = 2_500;

/**
 * Installed before the page's own scripts: times every requestAnimationFrame callback (the grid's
 * loop is the only rAF user on /landing) and counts canvas frames via clearRect.
 */
const INSTRUMENT = `
  window.__dotBench = { callbacks: [], draws: 0 };
  const requestFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => requestFrame((time) => {
    const start = performance.now();
    try { callback(time); } finally { window.__dotBench.callbacks.push(performance.now() - start); }
  });
  const clearRect = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (...args) {
    window.__dotBench.draws += 1;
    return clearRect.apply(this, args);
  };
`;

interface PageStats {
  callbacks: number[];
  draws: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const round = (value: number) => Math.round(value * 1000) / 1000;

async function main(): Promise<number> {
  if (!existsSync(join(repoRoot, 'out/renderer/index.html'))) {
    throw new Error('out/renderer is not built: run `npm run build:app` first');
  }
  const admin = { email: 'bench-admin@example.com', password: randomBytes(18).toString('base64url') };
  let server: ServerHandle | undefined;
  const browser = await launchChromium();
  try {
    server = await startServer({
      repoRoot,
      adminEmail: admin.email,
      adminPassword: admin.password,
      databaseUrl: undefined,
      useDist: false,
    });
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    await context.addInitScript(INSTRUMENT);
    const page = await context.newPage();
    await page.goto(new URL('/landing', server.baseUrl).href, { waitUntil: 'networkidle' });
    const canvas = await page
      .waitForSelector('canvas[aria-hidden="true"]', { timeout: 15_000 })
      .catch(() => null);
    if (!canvas) throw new Error('/landing shows no dot-grid canvas: is the router wired in main.tsx?');

    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    // ScriptDuration is wall-clock time in scripts; ThreadTime is the main thread's CPU time for all work.
    const readMetrics = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
      return { script: value('ScriptDuration'), thread: value('ThreadTime') };
    };
    // Page code is written as strings: this file is type-checked without the DOM library.
    await page.evaluate('window.__dotBench.callbacks = []; window.__dotBench.draws = 0');
    const readStats = async () => (await page.evaluate('window.__dotBench')) as PageStats;

    const before = await readMetrics();
    const started = Date.now();
    let lastClick = started;
    let moves = 0;
    let clicks = 0;
    const centre = { x: VIEWPORT.width / 2, y: VIEWPORT.height / 2 };
    while (Date.now() - started < SECONDS * 1000) {
      // One revolution per second on a 300 px radius: about 1900 px/s, well above the speed trigger.
      const angle = ((Date.now() - started) / 1000) * Math.PI * 2;
      await page.mouse.move(centre.x + Math.cos(angle) * 300, centre.y + Math.sin(angle) * 300);
      moves += 1;
      if (Date.now() - lastClick >= CLICK_EVERY_MS) {
        await page.mouse.down();
        await page.mouse.up();
        lastClick = Date.now();
        clicks += 1;
      }
    }
    const activeMs = Date.now() - started;
    const after = await readMetrics();
    const active = await readStats();

    // Pointer still: the loop must stop by itself once every dot is home.
    await page.waitForTimeout(SETTLE_MS);
    const settled = (await readStats()).draws;
    await page.waitForTimeout(1_000);
    const idleDraws = (await readStats()).draws - settled;

    const sorted = [...active.callbacks].sort((a, b) => a - b);
    const frames = sorted.length;
    const rafMean = frames ? sorted.reduce((sum, value) => sum + value, 0) / frames : 0;
    const scriptPerFrame = frames ? ((after.script - before.script) * 1000) / frames : 0;
    const cpuPerFrame = frames ? ((after.thread - before.thread) * 1000) / frames : 0;
    const load = loadavg()[0] ?? 0;
    const cores = availableParallelism();
    // The target is on the means: single slow frames on a shared machine are scheduling noise (an
    // empty fillRect loop shows the same p95), and the percentiles are printed to judge that.
    const passed =
      frames > 0 &&
      rafMean <= TARGET_MS_PER_FRAME &&
      scriptPerFrame <= TARGET_MS_PER_FRAME &&
      idleDraws === 0;

    const lines = [
      '',
      `Dot grid on /landing at ${VIEWPORT.width}×${VIEWPORT.height}, ${(activeMs / 1000).toFixed(1)} s of circling (${moves} moves, ${clicks} clicks)`,
      `  frames drawn                       ${active.draws} (${((active.draws * 1000) / activeMs).toFixed(0)} per second)`,
      `  rAF callback per frame (ms)        mean ${round(rafMean)}  p50 ${round(percentile(sorted, 50))}  p95 ${round(percentile(sorted, 95))}  p99 ${round(percentile(sorted, 99))}  max ${round(sorted.at(-1) ?? 0)}`,
      `  all main-thread script per frame   ${round(scriptPerFrame)} ms (CDP ScriptDuration, includes pointer handlers)`,
      `  main-thread CPU per frame          ${round(cpuPerFrame)} ms (CDP ThreadTime: script, style, layout, paint)`,
      `  machine load                       ${load.toFixed(1)} on ${cores} cores${load > cores ? ' (busy: wall-clock times are inflated)' : ''}`,
      `  frames drawn in 1 s at rest        ${idleDraws} (the loop must have stopped)`,
      `  target: mean rAF and script per frame ≤ ${TARGET_MS_PER_FRAME} ms, no frames at rest — ${passed ? 'PASS' : 'FAIL'}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
    await context.close();
    return passed || process.env.BENCH_STRICT !== '1' ? 0 : 1;
  } finally {
    await browser.close();
    await server?.stop();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(
    `Dot-grid benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
}
