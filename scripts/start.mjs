// `npm start`: builds the server and the web portal when a build is missing or older than the
// sources, then runs the compiled server in this process (so signals reach it directly).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outputs = ['dist/server/main.js', 'out/renderer/index.html'].map((path) => join(root, path));
const inputs = [
  'src',
  'package.json',
  'package-lock.json',
  'tsconfig.server.json',
  'electron.vite.config.ts',
];

function newestModification(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (newest, entry) => Math.max(newest, newestModification(join(path, entry))),
    0,
  );
}

const builtAt = outputs.every(existsSync) ? Math.min(...outputs.map((path) => statSync(path).mtimeMs)) : 0;
const changedAt = Math.max(
  ...inputs
    .map((path) => join(root, path))
    .filter(existsSync)
    .map(newestModification),
);

if (builtAt < changedAt) {
  console.log(
    builtAt === 0
      ? 'Building the server and the web portal…'
      : 'Sources changed since the last build; rebuilding…',
  );
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await import(pathToFileURL(join(root, 'dist/server/main.js')).href);
