import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/shared/constants.js';
import { PAGE_SCRIPTS_TEMPLATE_ID } from '../../src/shared/prerendered-page.js';
import { ensureRendererBuild, RENDERER_BUILD_DIR, REPO_ROOT } from './support/build.js';
import { ChunkGraph } from './support/chunk-graph.js';
import { describePortal } from './support/portal.js';

/**
 * Issue 14, the portal's first load: what the build and the server must keep, asserted on the
 * build and in the browser (no timings; bench/lighthouse.ts measures those).
 */

/** The screens the build writes a page of their own for (electron.vite.config.ts, FIRST_SCREENS). */
const FIRST_SCREENS = {
  '/landing': 'src/features/plans/pages/landing-page.tsx',
  '/login': 'src/features/auth/pages/login-page.tsx',
  '/register': 'src/features/auth/pages/register-page.tsx',
  '/forgot-password': 'src/features/auth/pages/forgot-password-page.tsx',
} as const;

/** Their titles, as each screen sets it (app/screen-titles.ts). */
const TITLES: Record<string, string> = {
  '/landing': 'Your AI assistant on the desktop',
  '/login': 'Sign in',
  '/register': 'Create account',
  '/forgot-password': 'Reset your password',
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** The files of the page's `<link rel="…">` elements (`rel` as written, e.g. `preload" as="style`). */
const linksOf = (html: string, rel: string) =>
  [...html.matchAll(new RegExp(`<link rel="${rel}" crossorigin href="/([^"]+)">`, 'g'))].map(
    (match) => match[1] ?? '',
  );

describe('the renderer build (first load)', () => {
  let graph: ChunkGraph;

  beforeAll(async () => {
    await ensureRendererBuild();
    graph = await ChunkGraph.read(RENDERER_BUILD_DIR);
  }, 300_000);

  it('every brotli and gzip copy decodes to the very bytes of its file', async () => {
    const files = await filesUnder(RENDERER_BUILD_DIR);
    const compressed = files.filter((file) => file.endsWith('.br') || file.endsWith('.gz'));
    // The entry's script and styles and index.html at least.
    expect(compressed.length).toBeGreaterThan(6);
    for (const file of compressed) {
      const original = await readFile(file.slice(0, -3));
      const bytes = await readFile(file);
      const decoded = file.endsWith('.br') ? brotliDecompressSync(bytes) : gunzipSync(bytes);
      expect(decoded.equals(original), relative(RENDERER_BUILD_DIR, file)).toBe(true);
    }
  });

  it('loads no stylesheet of components the first screens do not show', async () => {
    const html = await readFile(join(RENDERER_BUILD_DIR, 'index.html'), 'utf8');
    const styles = linksOf(html, 'stylesheet');
    expect(styles.length).toBeGreaterThan(0);
    const css = (
      await Promise.all(styles.map((file) => readFile(join(RENDERER_BUILD_DIR, file), 'utf8')))
    ).join('');
    // Mantine's whole sheet is about 290 KB; the entry keeps its base and the shell's components.
    expect(css.length).toBeLessThan(80 * 1024);
    // Styles of components only signed-in screens use (tables, modals, selects) are not in it.
    for (const component of ['Table', 'Modal', 'Combobox']) {
      const own = await readFile(
        join(REPO_ROOT, `node_modules/@mantine/core/styles/${component}.css`),
        'utf8',
      );
      const selector = /\.m_[0-9a-f]+/.exec(own)?.[0] ?? '';
      expect(selector, `${component}.css has a class`).not.toBe('');
      expect(css, `${component}'s ${selector}`).not.toContain(selector);
    }
  });

  it.each(Object.entries(FIRST_SCREENS))(
    'the page written for %s is index.html with that screen rendered, its styles inline and its scripts held for after the first paint',
    async (path, pageSource) => {
      const index = await readFile(join(RENDERER_BUILD_DIR, 'index.html'), 'utf8');
      const page = await readFile(join(RENDERER_BUILD_DIR, 'routes', path, 'index.html'), 'utf8');
      const loaded = graph.staticClosure(graph.entryKey);
      const needed = [...graph.staticClosure(graph.keyOfSource(pageSource))].filter(
        (key) => !loaded.has(key),
      );
      expect(needed.length).toBeGreaterThan(0);
      const expectedScripts = needed.map((key) => graph.chunk(key).file);
      // The manifest's `css` of a chunk: the styles its modules import.
      const expectedStyles = needed.flatMap((key) => (graph.chunk(key) as { css?: string[] }).css ?? []);

      // The scripts are the entry and exactly the screen's chunks, all in the template the boot
      // script loads after the first paint (scripts/paint-before-scripts.ts): none is fetched before.
      const held =
        new RegExp(`<template id="${PAGE_SCRIPTS_TEMPLATE_ID}">(.*?)</template>`).exec(page)?.[1] ?? '';
      const outside = page.replace(held, '');
      expect(linksOf(outside, 'modulepreload')).toEqual([]);
      expect(outside).not.toMatch(/<script[^>]* src=/);
      const entry = /<script type="module" crossorigin src="[^"]+"><\/script>/.exec(index)?.[0] ?? '';
      expect(entry).not.toBe('');
      expect(held).toContain(entry);
      const ownPreloads = linksOf(held, 'modulepreload').filter(
        (file) => !linksOf(index, 'modulepreload').includes(file),
      );
      expect(ownPreloads.toSorted()).toEqual(expectedScripts.toSorted());

      // No stylesheet to wait for: the entry's (first) and the screen's are inline, each followed by a disabled link that tells Vite's chunk loader it is in the page.
      expect(linksOf(page, 'stylesheet')).toEqual([]);
      expect(linksOf(page, 'preload" as="style')).toEqual([]);
      const inlined = [
        ...page.matchAll(/<link rel="stylesheet" crossorigin href="\/([^"]+)" disabled>/g),
      ].map((match) => match[1] ?? '');
      expect(inlined.slice(0, 1)).toEqual(linksOf(index, 'stylesheet'));
      expect(inlined.toSorted()).toEqual(
        [...new Set([...linksOf(index, 'stylesheet'), ...expectedStyles])].toSorted(),
      );
      for (const file of inlined) {
        const css = await readFile(join(RENDERER_BUILD_DIR, file), 'utf8');
        expect(page, file).toContain(
          `<style>${css}</style><link rel="stylesheet" crossorigin href="/${file}" disabled>`,
        );
      }

      // Apart from that the page is index.html: same description, theme script, and the title its
      // scripts would set; its start-up screen is kept in a template for a visitor with a stored session.
      expect(/<title>([^<]*)<\/title>/.exec(page)?.[1]).toBe(`${TITLES[path]} · ${PRODUCT_NAME}`);
      const head = (html: string) =>
        html
          .slice(0, html.indexOf('<body>'))
          .replace(/<title>[^<]*<\/title>/, '<title></title>')
          .replace(/\n\s*<style>[\s\S]*?<\/style><link rel="stylesheet"[^>]*disabled>/g, '')
          .replace(
            /\n\s*<(link rel="(modulepreload|stylesheet|preload)"|script type="module")[^>]*>(<\/script>)?/g,
            '',
          );
      expect(head(page)).toBe(head(index));
      const startUp = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(index)?.[1]?.trim() ?? '';
      expect(startUp).toContain('Initializing secure session...');
      expect(page).toContain(`<template id="restoring-session">${startUp}</template>`);
      expect(page).toContain('<div id="root" data-prerendered>');
    },
  );
});

/** Sums the page's layout shift as CLS counts it (the Layout Instability API), for `layoutShift()`. */
const LAYOUT_SHIFT_SCRIPT = `
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) shifts.push(entry.value);
  }).observe({ type: 'layout-shift', buffered: true });
  window.layoutShift = () => shifts.reduce((sum, value) => sum + value, 0);
`;

describePortal('the first screens in the browser', (portal) => {
  it.each([
    ['/landing', 390, 844],
    ['/landing', 1440, 900],
    ['/login', 390, 844],
    ['/login', 1440, 900],
  ])('%s at %i×%i moves nothing once shown (layout shift under 0.02)', async (path, width, height) => {
    const page = await portal.newPage({ viewport: { width, height } });
    await page.addInitScript({ content: LAYOUT_SHIFT_SCRIPT });
    await page.goto(path, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    if (path === '/landing') await page.getByRole('heading', { level: 3, name: /./ }).last().waitFor();
    await page.waitForLoadState('networkidle');
    const shift = await page.evaluate<number>('window.layoutShift()');
    expect(shift).toBeLessThan(0.02);
  });

  it('/landing is served its own page; the browser fetches its chunks after the first paint and none of its inlined styles', async () => {
    const page = await portal.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const response = await page.goto('/landing', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(response?.headers()['cache-control']).toBe('no-cache');
    const html = (await response?.text()) ?? '';
    const preloaded = linksOf(html, 'modulepreload').map((file) => `/${file}`);
    const landingChunk = preloaded.find((file) => file.includes('landing-page'));
    expect(landingChunk).toBeDefined();
    expect(requested).toContain(landingChunk);
    // Hydrated: the chunks ran and the page is React's.
    await expect
      .poll(() =>
        page.evaluate<boolean>(
          "Object.keys(document.querySelector('h1')).some((key) => key.startsWith('__reactFiber$'))",
        ),
      )
      .toBe(true);
    // The styles it carries inline are not fetched again when the screen's chunk loads.
    const inlined = [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)" disabled>/g)].map(
      (match) => match[1],
    );
    expect(inlined.length).toBeGreaterThan(1);
    expect(requested.filter((path) => inlined.includes(path))).toEqual([]);
    // Every script was asked for after the page had painted: the order of the browser's own records.
    const [firstPaint, firstScript] = await page.evaluate<[number, number]>(`[
      performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
      Math.min(...performance.getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => entry.startTime)),
    ]`);
    expect(firstPaint).toBeLessThan(Infinity);
    expect(firstScript).toBeGreaterThan(firstPaint);
  });
});
