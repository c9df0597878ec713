/**
 * Renders the public pages to HTML after the web build (`npm run build:web`, `npm run build:app`):
 * /landing, /login, /register and /forgot-password, each into the copy of index.html the build
 * wrote for its path (out/renderer/routes/<path>/index.html), which the client then hydrates
 * (src/renderer/src/main.tsx). The landing page's plans are the public plan list of the default
 * catalogue, read from the server itself, and are refreshed by the client.
 *
 * Each page gets: its rendered tree in `#root` (marked `data-prerendered`), the session gate's
 * first screen in a template, its module scripts in another, the plans as JSON, and the session
 * boot script (src/shared/prerendered-page.ts), which swaps the screen in for a visitor with a
 * stored session and loads the scripts once the page has painted. Its styles are inlined: it
 * paints from the HTML alone (scripts/paint-before-scripts.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import type { Plan } from '../src/shared/api/plans.js';
import { API_BASE_PATH, portalPaths } from '../src/shared/routes.js';
import { apiPaths } from '../src/shared/api-paths.js';
import {
  PAGE_SCRIPTS_TEMPLATE_ID,
  PRERENDERED_ATTRIBUTE,
  PRERENDERED_PLANS_ID,
  RESTORING_TEMPLATE_ID,
  SESSION_BOOT_SCRIPT,
} from '../src/shared/prerendered-page.js';
import { inlineStylesheets, takeScripts } from './paint-before-scripts.js';
import { precompressDirectory } from './precompress-assets.js';
import { portalLanguages } from './vite-lingui.js';

const REPO_ROOT = resolve(import.meta.dirname, '..');
const RENDERER_ROOT = join(REPO_ROOT, 'src/renderer');
const WEB_OUT = join(REPO_ROOT, 'out/renderer');
const ROUTE_PAGES = join(WEB_OUT, 'routes');

/** The pages a visitor with no session opens first, rendered ahead of time. */
export const PRERENDERED_PATHS = [
  portalPaths.landing,
  portalPaths.login,
  portalPaths.register,
  portalPaths.forgotPassword,
] as const;

type RenderPublicPage = (path: string, plans: Plan[]) => Promise<string>;
/** A public page as rendered at build time: its root's HTML and its title. */
type RenderedPage = { rendered: string; title: string };

/** src/renderer/src/prerender.tsx built for Node, with the class names the browser build gave. */
async function serverRenderer(
  outDir: string,
): Promise<(path: string, plans: Plan[]) => Promise<RenderedPage>> {
  await build({
    configFile: false,
    root: RENDERER_ROOT,
    logLevel: 'warn',
    plugins: [...portalLanguages({ failOnMissing: true }), react()],
    build: { ssr: 'src/prerender.tsx', outDir, emptyOutDir: true, minify: false },
  });
  const module = (await import(pathToFileURL(join(outDir, 'prerender.js')).href)) as {
    renderPublicPage: RenderPublicPage;
    publicPageTitle: (path: string) => string;
  };
  return async (path, plans) => ({
    rendered: await module.renderPublicPage(path, plans),
    title: module.publicPageTitle(path),
  });
}

/** GET /plans/public of a server started on an empty database: the default catalogue's plans. */
async function defaultCataloguePlans(): Promise<Plan[]> {
  const { buildApp } = await import('../src/server/app.js');
  const { DEFAULT_API_KEYS, loadConfig } = await import('../src/server/platform/config.js');
  const dataDir = await mkdtemp(join(tmpdir(), 'prerender-catalogue-'));
  try {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      WEB_DIR: join(dataDir, 'no-web-build'),
    });
    const app = await buildApp(config, { logger: false, contexts: ['identity', 'catalogue'] });
    try {
      const answer = await app.inject({
        method: 'GET',
        url: `${API_BASE_PATH}${apiPaths.plans.public}`,
        headers: { 'x-api-key': DEFAULT_API_KEYS[0].split(':')[1] ?? '' },
      });
      if (answer.statusCode !== 200)
        throw new Error(`GET /plans/public answered ${answer.statusCode}: ${answer.body}`);
      return answer.json<Plan[]>();
    } finally {
      await app.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** JSON safe inside a `<script>` element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/** The page's head with its own title instead of the product's name alone. */
function withTitle(head: string, title: string): string {
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  if (!/<title>[^<]*<\/title>/.test(head)) throw new Error('the page has no <title> to name it by');
  return head.replace(/<title>[^<]*<\/title>/, `<title>${escaped}</title>`);
}

/**
 * The build's page for `path` with `rendered` in its root (see the file's comment); `styleOf` gives
 * the text of a stylesheet of the build by its path in it.
 */
export function prerenderedPage(
  html: string,
  { rendered, title }: RenderedPage,
  plans: Plan[],
  styleOf: (file: string) => string,
): string {
  const open = '<div id="root">';
  if (html.includes(PRERENDERED_ATTRIBUTE))
    throw new Error('the page is rendered already: build the portal again');
  const start = html.indexOf(open);
  const end = html.lastIndexOf('</div>', html.indexOf('</body>'));
  if (start < 0 || end < start) throw new Error('the page has no #root to render into');
  const restoring = html.slice(start + open.length, end).trim();
  const head = takeScripts(inlineStylesheets(withTitle(html.slice(0, start), title), styleOf));
  const body = [
    `<div id="root" ${PRERENDERED_ATTRIBUTE}>${rendered}</div>`,
    `<template id="${RESTORING_TEMPLATE_ID}">${restoring}</template>`,
    `<template id="${PAGE_SCRIPTS_TEMPLATE_ID}">${head.scripts.join('')}</template>`,
    `<script type="application/json" id="${PRERENDERED_PLANS_ID}">${scriptJson(plans)}</script>`,
    `<script>${SESSION_BOOT_SCRIPT}</script>`,
  ].join('\n    ');
  return head.html + body + html.slice(end + '</div>'.length);
}

export async function prerenderPublicPages(): Promise<void> {
  // Inside the project, so the bundle's externalised packages resolve from its node_modules.
  const outDir = join(REPO_ROOT, 'node_modules/.cache/prerender');
  try {
    const [render, plans] = await Promise.all([serverRenderer(outDir), defaultCataloguePlans()]);
    const styleOf = (file: string) => readFileSync(join(WEB_OUT, file), 'utf8');
    for (const path of PRERENDERED_PATHS) {
      const file = join(ROUTE_PAGES, path, 'index.html');
      const html = await readFile(file, 'utf8');
      await writeFile(file, prerenderedPage(html, await render(path, plans), plans, styleOf));
    }
    await precompressDirectory(ROUTE_PAGES);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await prerenderPublicPages();
  console.info(`prerendered ${PRERENDERED_PATHS.join(', ')}`);
}
