// A self-hoster's first start, measured: `node --import tsx bench/first-start.ts`. Clones the
// committed HEAD into a temporary folder (npm's cache is reused, as on any machine that installed
// before), then times `npm ci`, the native builds inside it, and `npm start` up to its first answer,
// with each build step `npm start` reports. Prints one line per step as it ends and writes
// bench/results/first-start-<time>.json. Not a test: the figures depend on the machine and network.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { configVariableNames } from '../src/server/platform/config.js';

const REPO_ROOT = resolve(import.meta.dirname, '..');
const FIRST_ANSWER_TIMEOUT_MS = 15 * 60_000;

interface Step {
  step: string;
  seconds: number;
}

const steps: Step[] = [];
const startedAt = performance.now();

function record(step: string, seconds: number): void {
  steps.push({ step, seconds });
  console.log(`[first-start] ${step}: ${seconds.toFixed(1)} s`);
}

/** The environment of a fresh shell: none of the server settings of the one running this. */
function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of configVariableNames) delete environment[name];
  return { ...environment, ...extra };
}

/** Runs a command to its end, its output kept for the error message; resolves with its seconds. */
async function timed(step: string, command: string, args: string[], cwd: string): Promise<number> {
  console.log(`[first-start] ${step}…`);
  const begin = performance.now();
  const child = spawn(command, args, { cwd, env: cleanEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${output.slice(-4000)}`);
  const seconds = (performance.now() - begin) / 1000;
  record(step, seconds);
  return seconds;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/**
 * `npm start` in the clone on a fresh data folder, until GET /api/v1/health answers 200: its own
 * progress lines give the build steps' times. The server is stopped (SIGINT, no drain) afterwards.
 */
async function firstStart(clone: string): Promise<void> {
  const port = await freePort();
  console.log('[first-start] npm start, until the first answer…');
  const begin = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: clone,
    env: cleanEnvironment({ PORT: String(port), DATA_DIR: join(clone, 'data'), LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const progress = (chunk: Buffer) => {
    output += chunk.toString();
    for (const match of chunk.toString().matchAll(/\[start\] built (.+) in ([\d.]+) s/g))
      record(`npm start: build ${match[1]}`, Number(match[2]));
  };
  child.stdout.on('data', progress);
  child.stderr.on('data', progress);
  let exited = false;
  child.on('exit', () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`npm start exited before answering:\n${output.slice(-4000)}`);
      if (performance.now() - begin > FIRST_ANSWER_TIMEOUT_MS) throw new Error('no answer within 15 minutes');
      const status = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) break;
      await delay(100);
    }
    record('npm start: to the first answer (builds included)', (performance.now() - begin) / 1000);
  } finally {
    // npm and the server it runs are one process group: stop them together.
    if (child.pid !== undefined && !exited) process.kill(-child.pid, 'SIGINT');
    await new Promise((done) => (exited ? done(undefined) : child.on('exit', done)));
  }
}

const workspace = await mkdtemp(join(tmpdir(), 'portal-first-start-'));
const clone = join(workspace, 'portal');
try {
  await timed(
    'clone the repository (git clone of HEAD)',
    'git',
    ['clone', '--quiet', REPO_ROOT, clone],
    workspace,
  );
  const install = await timed(
    'npm ci (download, unpack, install scripts)',
    'npm',
    ['ci', '--no-audit', '--no-fund'],
    clone,
  );
  // The same native builds again, alone, to show their share of the install.
  const native = await timed(
    'native builds alone (npm rebuild better-sqlite3 keytar)',
    'npm',
    ['rebuild', 'better-sqlite3', 'keytar'],
    clone,
  );
  console.log(
    `[first-start] of npm ci, about ${native.toFixed(0)} of ${install.toFixed(0)} s are native builds`,
  );
  await firstStart(clone);
  const total = (performance.now() - startedAt) / 1000;
  record('from nothing to the first answer (clone, install, start)', total - native);
  await mkdir(join(REPO_ROOT, 'bench/results'), { recursive: true });
  const file = join(
    REPO_ROOT,
    'bench/results',
    `first-start-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  await writeFile(file, `${JSON.stringify({ node: process.version, steps }, null, 2)}\n`);
  console.log(`[first-start] wrote ${file}`);
} finally {
  await rm(workspace, { recursive: true, force: true });
}
