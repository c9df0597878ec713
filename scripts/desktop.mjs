// `npm run desktop [-- --server-url https://portal.example.com] [--hot]`: starts the desktop shell in
// development. By default it builds and loads the renderer through app:// exactly as the packaged
// app does; --hot uses electron-vite's dev server instead (hot reload; its /api proxy goes to
// http://127.0.0.1:8080). The server URL can also come from DESKTOP_SERVER_URL.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { 'server-url': { type: 'string' }, hot: { type: 'boolean', default: false } },
});

try {
  // The electron package exports the binary's path and throws when the binary was not downloaded.
  createRequire(import.meta.url)('electron');
} catch (error) {
  console.error(
    `The Electron binary is not installed (${error.message}).\n` +
      'Install it with `node node_modules/electron/install.js` (needs access to GitHub releases), then run again.',
  );
  process.exit(1);
}

const serverUrl = values['server-url'] ?? process.env.DESKTOP_SERVER_URL ?? 'http://127.0.0.1:8080';
console.info(`[desktop] server: ${serverUrl}${values.hot ? ' (renderer from the dev server)' : ''}`);
if (values.hot && new URL(serverUrl).origin !== 'http://127.0.0.1:8080')
  console.warn(
    '[desktop] --hot: the renderer’s API calls still go to http://127.0.0.1:8080 (the dev server proxy)',
  );
const child = spawn(
  process.execPath,
  [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), values.hot ? 'dev' : 'preview'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, DESKTOP_SERVER_URL: serverUrl } },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
