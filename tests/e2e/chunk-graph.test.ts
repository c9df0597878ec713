import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuild, RENDERER_BUILD_DIR } from './support/build.js';
import { ChunkGraph, isAdminModule } from './support/chunk-graph.js';
import { describePortal, expectPath, signIn } from './support/portal.js';

/**
 * Issue 6, "Must show": route-level code splitting. The admin console's code is not loaded by a
 * user who never visits it, asserted on the build's chunk graph (Vite's manifest plus the module
 * list of each chunk), then on what the browser actually downloads.
 */

/** The signed-in user's screens; each must be its own lazily loaded chunk. */
const USER_PAGES = [
  'src/features/licenses/pages/dashboard-page.tsx',
  'src/features/licenses/pages/licenses-page.tsx',
  'src/features/licenses/pages/license-detail-page.tsx',
  'src/features/users/pages/profile-page.tsx',
  'src/features/payments/pages/purchase-page.tsx',
  'src/features/users/pages/support-page.tsx',
];
/** The admin console's screens (issue 6, items 6–11). */
const ADMIN_PAGES = [
  'src/features/admin/pages/dashboard-page.tsx',
  'src/features/admin/pages/users-page.tsx',
  'src/features/admin/pages/licenses-page.tsx',
  'src/features/admin/pages/payments-page.tsx',
  'src/features/admin/pages/features-page.tsx',
  'src/features/admin/pages/packages-page.tsx',
  'src/features/admin/pages/security-page.tsx',
];
/**
 * Where the route-level `import()`s live: their dynamic imports of admin chunks are the admin routes.
 * The language catalogs' list is one too: it loads the admin console's catalogs only once an admin
 * route has asked for them (`includeAdminCatalogs` in admin-screens.tsx).
 */
const ROUTE_SPLIT_MODULES = [
  'src/app/router.tsx',
  'src/app/account-screens.tsx',
  'src/app/admin-screens.tsx',
  'src/app/slice-loader.tsx',
  'src/lib/i18n/catalogs.ts',
];

/** A route's screen: `src/pages/…` or a feature's `src/features/<area>/pages/…`. */
const isPageModule = (src: string | undefined) =>
  !!src && /^src\/(features\/[^/]+\/)?pages\/.+\.tsx$/.test(src);

describe('the renderer build keeps the admin console out of what users load (chunk graph)', () => {
  let graph: ChunkGraph;

  beforeAll(async () => {
    await ensureRendererBuild();
    graph = await ChunkGraph.read(RENDERER_BUILD_DIR);
  }, 300_000);

  it('no admin module is in the entry chunk or anything it imports statically', () => {
    const closure = graph.staticClosure(graph.entryKey);
    expect(closure.size).toBeGreaterThan(1);
    // The check sees modules at all: the entry holds the app's own code (not only shared chunks).
    expect(graph.modulesOf(graph.entryKey)).toContain('src/main.tsx');
    expect(graph.adminModulesIn(closure)).toEqual([]);
  });

  it('no admin module is in the static closure of any user or public page', () => {
    const pageKeys = Object.keys(graph.manifest).filter((key) => {
      const src = graph.chunk(key).src;
      return isPageModule(src) && !isAdminModule(src ?? '');
    });
    const pageSources = pageKeys.map((key) => graph.chunk(key).src);
    // Every user screen is a lazily loaded chunk of its own (else the list below would miss it).
    expect(pageSources).toEqual(
      expect.arrayContaining([...USER_PAGES, 'src/features/plans/pages/landing-page.tsx']),
    );
    const found = pageKeys.flatMap((key) =>
      graph.adminModulesIn(graph.staticClosure(key)).map((line) => `${graph.chunk(key).src} loads ${line}`),
    );
    expect(found).toEqual([]);
  });

  it('each admin page is its own chunk, reached only through dynamic imports', () => {
    const adminPages = Object.values(graph.manifest)
      .map((chunk) => chunk.src)
      .filter((src): src is string => isPageModule(src) && isAdminModule(src ?? ''));
    expect(adminPages.toSorted()).toEqual(expect.arrayContaining(ADMIN_PAGES.toSorted()));
    const files = new Set<string>();
    for (const src of adminPages) {
      const key = graph.keyOfSource(src);
      const chunk = graph.chunk(key);
      expect(chunk.isDynamicEntry, `${src} is a lazily loaded entry`).toBe(true);
      expect(graph.modulesOf(key), `${chunk.file} holds ${src}`).toContain(src);
      const importers = graph.importersOf(key);
      expect(importers.static, `${src} must not be imported statically`).toEqual([]);
      expect(importers.dynamic.length, `${src} is loaded by some import()`).toBeGreaterThan(0);
      files.add(chunk.file);
    }
    // One chunk per screen: no two admin screens were merged into one download.
    expect(files.size).toBe(adminPages.length);
  });

  it('nothing a user can load without entering an admin route holds admin code', () => {
    const routeSplitChunks = new Set(
      Object.keys(graph.manifest).filter((key) =>
        graph.modulesOf(key).some((module) => ROUTE_SPLIT_MODULES.includes(module)),
      ),
    );
    expect(routeSplitChunks.size, `chunks holding ${ROUTE_SPLIT_MODULES.join(', ')}`).toBeGreaterThan(0);
    // Only the router's (its screens' tables included) and the slice loader's own import()s of admin-only chunks (a page, or the
    // admin slice with what only it uses, generic UI from components/ and lib/ included) are the
    // way into admin code. A chunk mixing admin code with other app code (app/, another feature)
    // is followed, so its admin modules are reported.
    const generic = (module: string) => module.startsWith('src/components/') || module.startsWith('src/lib/');
    const adminOnly = (key: string) => {
      const own = graph.modulesOf(key).filter((module) => module.startsWith('src/'));
      return own.some(isAdminModule) && own.every((module) => isAdminModule(module) || generic(module));
    };
    const enteringAdmin = (from: string, to: string) => routeSplitChunks.has(from) && adminOnly(to);
    const userReachable = graph.reachable(graph.entryKey, enteringAdmin);
    for (const src of USER_PAGES) expect(userReachable.has(graph.keyOfSource(src)), src).toBe(true);
    expect(graph.adminModulesIn(userReachable)).toEqual([]);
  });
});

/** The JavaScript files (paths) the page downloads, as they are requested. */
function recordScripts(page: Page): Set<string> {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
  });
  return scripts;
}

describePortal('the admin console is not downloaded by a user (network)', (portal) => {
  let graph: ChunkGraph;
  beforeAll(async () => {
    // The server serves its own snapshot of the build: read the graph of exactly what it serves.
    graph = await ChunkGraph.read(portal.server.config.webDir);
  });

  const adminModulesOf = (scripts: Set<string>) =>
    [...scripts].flatMap((path) =>
      graph
        .modulesOfFile(path)
        .filter(isAdminModule)
        .map((module) => `${path}: ${module}`),
    );

  it('a signed-in user on /dashboard and the other user screens requests no script holding admin code', async () => {
    const user = await portal.server.createUser({ fullName: 'Una User' });
    const page = await portal.newPage();
    const scripts = recordScripts(page);
    await signIn(page, user.email, user.password);
    await expectPath(page, '/dashboard');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    // The recording is real: the dashboard's own chunk was among the requests.
    const dashboardFile = `/${graph.chunk(graph.keyOfSource('src/features/licenses/pages/dashboard-page.tsx')).file}`;
    expect([...scripts]).toContain(dashboardFile);
    expect(adminModulesOf(scripts)).toEqual([]);

    // The rest of the user's screens (each a fresh load, so nothing is served from memory).
    for (const path of ['/licenses', '/purchase', '/profile', '/support']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    const unknown = [...scripts].filter((path) => graph.modulesOfFile(path).length === 0);
    expect(unknown, 'every script requested is a chunk of the build').toEqual([]);
    expect(adminModulesOf(scripts)).toEqual([]);
  });

  it('an administrator on /admin/users does download the admin chunks (the check can see them)', async () => {
    const page = await portal.newPage();
    const scripts = recordScripts(page);
    await signIn(page, portal.server.admin.email, portal.server.admin.password);
    await page.goto('/admin/users');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(adminModulesOf(scripts)).toEqual(
      expect.arrayContaining([expect.stringContaining('src/features/admin/pages/users-page.tsx')]),
    );
  });
});
