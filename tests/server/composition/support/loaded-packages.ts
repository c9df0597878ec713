// Run as its own process (`node --import tsx`): builds the app on a fresh SQLite database with no
// optional service configured, and prints which packages of `WATCHED` Node's CommonJS loader has
// loaded by the time it is ready, as JSON on the last line.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../../../src/server/app.js';
import { loadConfig } from '../../../../src/server/platform/config.js';

const WATCHED = process.argv.slice(2);
const dataDir = mkdtempSync(join(tmpdir(), 'loaded-packages-'));
try {
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://127.0.0.1:8080',
      WEB_API_KEY: 'k'.repeat(32),
      LOG_LEVEL: 'silent',
    }),
  );
  await app.ready();
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  const found = WATCHED.filter((name) => loaded.some((path) => path.includes(`/node_modules/${name}/`)));
  await app.close();
  console.log(JSON.stringify({ loaded: found }));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
