import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { isAlive } from '../../support/process-alive.js';

const run = promisify(execFile);

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
/** The renderer build the server serves by default (WEB_DIR). */
export const RENDERER_BUILD_DIR = join(REPO_ROOT, 'out/renderer');
/** What the build is made from: a change under any of these makes the build stale. */
const BUILD_INPUTS = [
  'src/renderer',
  'src/shared',
  'electron.vite.config.ts',
  'scripts/prerender-public-pages.ts',
  'scripts/paint-before-scripts.ts',
].map((path) => join(REPO_ROOT, path));
const STATE_DIR = join(REPO_ROOT, 'node_modules/.cache/e2e-build');
const LOCK_DIR = join(STATE_DIR, 'lock');
const BUILD_TIMEOUT_MS = 5 * 60_000;

async function newestModification(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path);
  const times = await Promise.all(entries.map((entry) => newestModification(join(path, entry))));
  return Math.max(info.mtimeMs, ...times);
}

/** Why the build must be (re)made, or undefined when it is there and newer than every input. */
export async function staleBuildReason(): Promise<string | undefined> {
  const index = join(RENDERER_BUILD_DIR, 'index.html');
  if (!existsSync(index)) return `${index} is missing`;
  const built = (await stat(index)).mtimeMs;
  const newest = Math.max(...(await Promise.all(BUILD_INPUTS.map(newestModification))));
  return newest > built
    ? 'a source file under src/renderer or src/shared is newer than the build'
    : undefined;
}

/** A lock directory shared by every Vitest worker; a holder that died leaves a lock the next one takes over. */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  await mkdir(STATE_DIR, { recursive: true });
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      await mkdir(LOCK_DIR);
      await writeFile(join(LOCK_DIR, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(join(LOCK_DIR, 'pid'), 'utf8').catch(() => '0'));
      if (holder > 0 && !isAlive(holder)) await rm(LOCK_DIR, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`timed out waiting for the renderer build lock (${LOCK_DIR})`, { cause: error });
      else await new Promise((done) => setTimeout(done, 250));
    }
  }
  try {
    return await work();
  } finally {
    await rm(LOCK_DIR, { recursive: true, force: true });
  }
}

/**
 * Makes sure out/renderer holds a build of the current sources: builds once (`npm run build:app`)
 * when it is missing or older than any source. Checked once per Vitest run (the workers share the
 * run's process as parent), so files that start later do not rebuild under files already running.
 */
export async function ensureRendererBuild(): Promise<void> {
  const runMarker = join(STATE_DIR, `run-${process.ppid}`);
  await withBuildLock(async () => {
    if (existsSync(runMarker) && existsSync(join(RENDERER_BUILD_DIR, 'index.html'))) return;
    const reason = await staleBuildReason();
    if (reason) {
      console.info(`[e2e] building the portal: ${reason}`);
      await run('npm', ['run', 'build:app'], {
        cwd: REPO_ROOT,
        timeout: BUILD_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      });
      const still = await staleBuildReason();
      if (still?.endsWith('missing'))
        throw new Error(`npm run build:app did not produce the portal: ${still}`);
    }
    await writeFile(runMarker, new Date().toISOString());
  });
}

/** Hard links of every file under `from`, in the same folders under `to`. */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const entries = await readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? linkTree(join(from, entry.name), join(to, entry.name))
        : link(join(from, entry.name), join(to, entry.name)),
    ),
  );
}

/**
 * A private snapshot of the build for one server, so a rebuild started elsewhere (a developer,
 * another run) cannot empty out/renderer under a running test. Hard links where the temporary
 * directory is on the same file system: a build empties out/renderer and writes new files, so the
 * snapshot keeps the old ones, and linking a thousand files costs a few hundredths of a second
 * where copying ten megabytes cost seconds on a busy machine. Elsewhere, a copy.
 */
export async function snapshotRendererBuild(into: string): Promise<string> {
  const target = join(into, 'web');
  try {
    await linkTree(RENDERER_BUILD_DIR, target);
  } catch (error) {
    if (!['EXDEV', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    await rm(target, { recursive: true, force: true });
    await cp(RENDERER_BUILD_DIR, target, { recursive: true });
  }
  if (!existsSync(join(target, 'index.html')))
    throw new Error(`copying ${RENDERER_BUILD_DIR} gave no index.html`);
  return target;
}
