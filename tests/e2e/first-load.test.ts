import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
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
    'the page written for %s is index.html with that screen rendered, linking its chunks and styles, nothing else',
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
      const ownLinks = (rel: string) =>
        linksOf(page, rel).filter((file) => !linksOf(index, rel).includes(file));
      expect(ownLinks('modulepreload').toSorted()).toEqual(expectedScripts.toSorted());
      // Linked, not only preloaded: the rendered HTML paints with them (scripts/prerender-public-pages.ts).
      expect(ownLinks('stylesheet').toSorted()).toEqual([...new Set(expectedStyles)].toSorted());
      expect(ownLinks('preload" as="style')).toEqual([]);
      // Apart from the links and the rendered body the page is index.html: same title, description,
      // entry; its start-up screen is kept in a template for a visitor with a stored session.
      const withoutLinks = (html: string) =>
        html.replace(/\n\s*<link rel="(modulepreload|stylesheet|preload)"[^>]*>/g, '');
      const head = (html: string) => {
        const bare = withoutLinks(html);
        return bare.slice(0, bare.indexOf('<body>'));
      };
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

  it('/landing is served its own page, and the browser fetches the chunks it preloads', async () => {
    const page = await portal.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const response = await page.goto('/landing', { waitUntil: 'networkidle' });
    expect(response?.headers()['cache-control']).toBe('no-cache');
    const html = (await response?.text()) ?? '';
    const preloaded = linksOf(html, 'modulepreload').map((file) => `/${file}`);
    const landingChunk = preloaded.find((file) => file.includes('landing-page'));
    expect(landingChunk).toBeDefined();
    expect(requested).toContain(landingChunk);
  });
});
