import { relative, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { precompressDirectory } from './scripts/precompress-assets.js';

const RENDERER_OUT_DIR = resolve(import.meta.dirname, 'out/renderer');

/** The CommonJS builds recharts gets instead of the portal's ES modules (see 'charts-own-state-libraries'). */
const RECHARTS_OWN_COPIES: Record<string, string> = {
  '@reduxjs/toolkit': '@reduxjs/toolkit/dist/cjs/index.js',
  immer: 'immer/dist/cjs/index.js',
  'react-redux': 'react-redux/dist/cjs/index.js',
};

// One renderer build serves both the web portal (from the API server) and the desktop shell
// (from the app:// protocol), so it is built with an absolute base: deep links like
// /licenses/42 must still find /assets/*.
export default defineConfig({
  main: {
    build: {
      // Bundled into out/main; only the two CommonJS packages main loads with require stay outside
      // (keytar is native and optional), so the packaged app ships just those in node_modules.
      externalizeDeps: { exclude: ['jose', 'zod'] },
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
    root: resolve(import.meta.dirname, 'src/renderer'),
    base: '/',
    // electron-vite's renderer preset forces base './' in production builds; put '/' back.
    plugins: [
      react(),
      { name: 'absolute-base', enforce: 'post', config: () => ({ base: '/' }) },
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
    },
    server: {
      proxy: { '/api': 'http://127.0.0.1:8080' },
    },
  },
});
