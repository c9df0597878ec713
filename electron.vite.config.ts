import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { portalPaths } from './src/shared/routes.js';
import { THEME_BOOT_SCRIPT } from './src/shared/theme-boot.js';
import { precompressDirectory } from './scripts/precompress-assets.js';
import { portalLanguages } from './scripts/vite-lingui.js';

const RENDERER_ROOT = resolve(import.meta.dirname, 'src/renderer');
const RENDERER_OUT_DIR = resolve(import.meta.dirname, 'out/renderer');
const MANTINE_STYLES_DIR = resolve(import.meta.dirname, 'node_modules/@mantine/core/styles');
/** The class names of one Mantine stylesheet, `…/esm/components/Button/Button.module.mjs`: each has its `Button.layer.css`. */
const MANTINE_CLASSES = /@mantine\/core\/esm\/.+\/([^/]+)\.module\.mjs$/;

/**
 * The screens people open first, by path: the build writes each a copy of index.html that
 * preloads the screen's own chunks and styles (routes/<path>/index.html, served by the server for
 * that path), so they download beside the entry instead of after it has run.
 */
const FIRST_SCREENS: Record<string, string> = {
  [portalPaths.landing]: 'src/features/plans/pages/landing-page.tsx',
  [portalPaths.login]: 'src/features/auth/pages/login-page.tsx',
  [portalPaths.register]: 'src/features/auth/pages/register-page.tsx',
  [portalPaths.forgotPassword]: 'src/features/auth/pages/forgot-password-page.tsx',
};

/** The chunks `chunk` imports statically, itself included, in load order. */
function staticClosure(bundle: OutputBundle, chunk: OutputChunk, seen = new Set<string>()): OutputChunk[] {
  if (seen.has(chunk.fileName)) return [];
  seen.add(chunk.fileName);
  const imported = chunk.imports.flatMap((file) => {
    const next = bundle[file];
    return next?.type === 'chunk' ? staticClosure(bundle, next, seen) : [];
  });
  return [...imported, chunk];
}

/** index.html with preload links for one first screen's chunks and styles that the entry lacks. */
function firstScreenHtml(bundle: OutputBundle, indexHtml: string, pageSource: string): string {
  const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.isEntry);
  const pageModule = resolve(RENDERER_ROOT, pageSource);
  const page = chunks.find((chunk) => chunk.moduleIds.includes(pageModule));
  if (!entry || !page) throw new Error(`first screen ${pageSource}: no chunk in the build`);
  const loaded = new Set(staticClosure(bundle, entry).map((chunk) => chunk.fileName));
  const needed = staticClosure(bundle, page).filter((chunk) => !loaded.has(chunk.fileName));
  // Styles preloaded, not linked: the entry paints its first frame without waiting for them, and the
  // chunk's loader links them from the cache when the screen renders.
  const links = needed.flatMap((chunk) => [
    ...[...(chunk.viteMetadata?.importedCss ?? [])].map(
      (css) => `<link rel="preload" as="style" crossorigin href="/${css}">`,
    ),
    `<link rel="modulepreload" crossorigin href="/${chunk.fileName}">`,
  ]);
  return indexHtml.replace('</head>', `  ${[...new Set(links)].join('\n    ')}\n  </head>`);
}

/** Where index.html wants the theme's boot script. */
const THEME_BOOT_MARKER = '<!-- theme-boot-script -->';

/** The CommonJS builds recharts gets instead of the portal's ES modules (see 'charts-own-state-libraries'). */
const RECHARTS_OWN_COPIES: Record<string, string> = {
  '@reduxjs/toolkit': '@reduxjs/toolkit/dist/cjs/index.js',
  immer: 'immer/dist/cjs/index.js',
  'react-redux': 'react-redux/dist/cjs/index.js',
};

/** react-router's entry points and the files of its production build that stand for them. */
const REACT_ROUTER_PRODUCTION: Record<string, string> = {
  'react-router': 'index.mjs',
  'react-router/dom': 'dom-export.mjs',
};

// One renderer build serves both the web portal (from the API server) and the desktop shell
// (from the app:// protocol), so it is built with an absolute base: deep links like
// /licenses/42 must still find /assets/*.
export default defineConfig({
  main: {
    build: {
      // Bundled into out/main; only the two CommonJS packages main loads with require stay outside
      // (keytar is native and optional), so the packaged app ships just those in node_modules.
      // electron-updater comes with its own js-yaml and semver (other majors than the server's),
      // which must be bundled from its folder, not required from the top-level node_modules. The
      // shared API schemas name billing countries, so i18n-iso-countries' English list comes too.
      externalizeDeps: {
        exclude: ['jose', 'zod', 'electron-updater', 'js-yaml', 'semver', 'i18n-iso-countries'],
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot be an ES module: one CommonJS file, nothing left to require.
      externalizeDeps: false,
      rolldownOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: RENDERER_ROOT,
    base: '/',
    // electron-vite's renderer preset forces base './' in production builds; put '/' back.
    plugins: [
      // Before React's: the macros are expanded from the source as written.
      ...portalLanguages({ failOnMissing: true }),
      react(),
      { name: 'absolute-base', enforce: 'post', config: () => ({ base: '/' }) },
      {
        // The saved theme, applied before the first paint (src/shared/theme-boot.ts), where
        // index.html marks its place: in the head, before the styles, so the first frame is already
        // in the right colours. Both CSPs allow exactly this text by its hash.
        name: 'theme-boot-script',
        transformIndexHtml(html) {
          if (!html.includes(THEME_BOOT_MARKER)) throw new Error(`index.html has no ${THEME_BOOT_MARKER}`);
          return html.replace(THEME_BOOT_MARKER, `<script>${THEME_BOOT_SCRIPT}</script>`);
        },
      },
      {
        // axios picks its XHR adapter in every browser (it is tried first), so its fetch adapter and
        // stream helpers are dead weight in the portal's downloads (about 4 KB gzip).
        name: 'axios-without-fetch-adapter',
        enforce: 'pre',
        resolveId(source, importer) {
          if (
            source === './fetch.js' &&
            importer?.replaceAll('\\', '/').endsWith('/axios/lib/adapters/adapters.js')
          )
            return resolve(import.meta.dirname, 'src/renderer/src/lib/axios-fetch-adapter-stub.ts');
          return undefined;
        },
      },
      {
        // Mantine's whole stylesheet is 290 KB, most of it for components the first screen never
        // shows. The module of each stylesheet's class names imports those (layered) styles instead,
        // so they travel with the chunk that uses them and load per route; main.tsx keeps the base.
        name: 'mantine-styles-per-component',
        enforce: 'pre',
        transform(code, id) {
          const name = MANTINE_CLASSES.exec(id.replaceAll('\\', '/'))?.[1];
          if (!name || !existsSync(resolve(MANTINE_STYLES_DIR, `${name}.layer.css`))) return undefined;
          return { code: `${code}\nimport '@mantine/core/styles/${name}.layer.css';\n`, map: null };
        },
      },
      {
        // react-router's package exports name only its development build (remix-run/react-router
        // #12532, #14102): its warnings and checks would ship in the first download and run there.
        name: 'react-router-production-build',
        apply: 'build',
        enforce: 'pre',
        resolveId(source) {
          const file = REACT_ROUTER_PRODUCTION[source];
          return file
            ? resolve(import.meta.dirname, 'node_modules/react-router/dist/production', file)
            : undefined;
        },
      },
      {
        // recharts (under @mantine/charts) keeps its own state in Redux Toolkit and immer (its
        // reselect is its own pinned copy already). Sharing the portal's ES modules would keep every
        // export recharts uses in the chunks the landing page loads (about 7 KB gzip); its own
        // CommonJS copies load with the first chart instead. The two stores never meet.
        name: 'charts-own-state-libraries',
        enforce: 'pre',
        resolveId(source, importer) {
          const ownCopy = RECHARTS_OWN_COPIES[source];
          if (ownCopy && importer?.replaceAll('\\', '/').includes('/node_modules/recharts/'))
            return resolve(import.meta.dirname, 'node_modules', ownCopy);
          return undefined;
        },
      },
      {
        // Vite's manifest names only each chunk's entry module; this lists every source module of
        // every chunk beside it (.vite/chunk-modules.json), so tests/e2e/chunk-graph.test.ts can
        // tell that no admin module lands in a chunk a user's screens load.
        name: 'chunk-modules',
        apply: 'build',
        generateBundle(_options, bundle) {
          const root = resolve(import.meta.dirname, 'src/renderer');
          const modules = Object.fromEntries(
            Object.values(bundle).flatMap((output) =>
              output.type === 'chunk'
                ? [[output.fileName, output.moduleIds.map((id) => relative(root, id).replaceAll('\\', '/'))]]
                : [],
            ),
          );
          this.emitFile({
            type: 'asset',
            fileName: '.vite/chunk-modules.json',
            source: JSON.stringify(modules, null, 1),
          });
        },
      },
      {
        name: 'first-screen-pages',
        apply: 'build',
        generateBundle: {
          order: 'post',
          handler(_options, bundle) {
            const index = bundle['index.html'];
            if (index?.type !== 'asset') return;
            for (const [path, pageSource] of Object.entries(FIRST_SCREENS))
              this.emitFile({
                type: 'asset',
                fileName: `routes${path}/index.html`,
                source: firstScreenHtml(bundle, String(index.source), pageSource),
              });
          },
        },
      },
      {
        // The server sends the portal's files as built: brotli and gzip copies are made once here,
        // so no request spends CPU compressing them (the desktop app leaves them out).
        name: 'precompress',
        apply: 'build',
        async closeBundle() {
          await precompressDirectory(RENDERER_OUT_DIR);
        },
      },
    ],
    build: {
      outDir: RENDERER_OUT_DIR,
      emptyOutDir: true,
      // electron-vite leaves minification off by default; the web portal is downloaded, so minify.
      minify: true,
      // out/renderer/.vite/manifest.json: the chunk graph tests/e2e/chunk-graph.test.ts checks
      // (the admin console's code stays out of what a user's screens load).
      manifest: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // The entry's whole static closure in one file (else a dozen small ones, some of a few
            // hundred bytes, each a request of its own).
            groups: [{ name: 'initial', tags: ['$initial'] }],
          },
        },
      },
    },
    server: {
      proxy: { '/api': 'http://127.0.0.1:8080' },
    },
  },
});
