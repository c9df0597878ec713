// The builds `npm start` and `npm run cli` run before they start compiled code: each only when its
// output is missing or older than its sources. Each build prints one line when it starts and one
// when it ends; their own output is shown only when they fail.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const packageFiles = ['package.json', 'package-lock.json'];

/** The server's build, what it writes and what it is made from. */
export const serverBuild = {
  name: 'the server',
  script: 'build:server',
  output: 'dist/server/main.js',
  inputs: ['src/server', 'src/shared', 'tsconfig.server.json', 'tsconfig.base.json', ...packageFiles],
};

/** The web portal's build, without the desktop shell's main and preload. */
export const webBuild = {
  name: 'the web portal',
  script: 'build:web',
  output: 'out/renderer/index.html',
  inputs: [
    'src/renderer',
    'src/shared',
    'electron.vite.config.ts',
    'electron.vite.web.config.ts',
    'scripts/precompress-assets.ts',
    ...packageFiles,
  ],
};

function newestModification(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (newest, entry) => Math.max(newest, newestModification(join(path, entry))),
    0,
  );
}

/** Why a step must run ('missing', 'stale'), or undefined when its output is newer than its inputs. */
function reasonToBuild({ output, inputs }) {
  const outputPath = join(root, output);
  if (!existsSync(outputPath)) return 'missing';
  const changedAt = Math.max(
    ...inputs
      .map((path) => join(root, path))
      .filter(existsSync)
      .map(newestModification),
  );
  return statSync(outputPath).mtimeMs < changedAt ? 'stale' : undefined;
}

/** Runs one npm script with its output held back; resolves with the seconds it took. */
function build(step, reason, say) {
  const startedAt = performance.now();
  say(`building ${step.name} (${reason === 'missing' ? 'no build yet' : 'sources changed'})…`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', ['run', '--silent', step.script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // npm is npm.cmd on Windows, which only a shell runs.
      shell: process.platform === 'win32',
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - startedAt) / 1000;
      if (code === 0) {
        say(`built ${step.name} in ${seconds.toFixed(1)} s`);
        resolvePromise(seconds);
      } else {
        process.stderr.write(Buffer.concat(output));
        reject(new Error(`building ${step.name} failed (npm run ${step.script}, exit code ${code})`));
      }
    });
  });
}

/**
 * Builds what of `steps` is missing or stale, side by side (they share nothing: tsc is mostly one
 * core, the bundler another), each let finish so a failing one leaves no build running behind it;
 * exits the process when one fails, saying why on standard error. Progress lines go to `progress`,
 * each marked `[label]`.
 */
export async function buildWhatIsStale(steps, { label, progress }) {
  const say = (line) => progress(`[${label}] ${line}`);
  const due = steps.map((step) => ({ step, reason: reasonToBuild(step) })).filter(({ reason }) => reason);
  const results = await Promise.allSettled(due.map(({ step, reason }) => build(step, reason, say)));
  const failures = results.filter((result) => result.status === 'rejected');
  for (const { reason } of failures) console.error(`[${label}] ${reason.message}`);
  if (failures.length > 0) process.exit(1);
}
