// The administrator's command line, timed as an operator meets it: `node --import tsx bench/cli.ts`.
// Builds the server if its build is stale (as `npm run cli` does), then runs each command five
// times through `node scripts/cli.mjs` against a fresh SQLite data folder and prints each one's
// median and slowest wall time, against the 2 s a command may take. Not a test: the figures depend
// on the machine, and a busy one doubles them.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { configVariableNames } from '../src/server/platform/config.js';

const REPO_ROOT = resolve(import.meta.dirname, '..');
const RUNS = 5;
const TARGET_SECONDS = 2;

const dataDir = await mkdtemp(join(tmpdir(), 'bench-cli-'));
const environment = { ...process.env };
for (const name of configVariableNames) delete environment[name];
Object.assign(environment, { DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn' });

function run(args: string[]): number {
  const begin = performance.now();
  const result = spawnSync(process.execPath, ['scripts/cli.mjs', ...args], {
    cwd: REPO_ROOT,
    env: environment,
    encoding: 'utf8',
  });
  const seconds = (performance.now() - begin) / 1000;
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${result.stderr}`);
  return seconds;
}

try {
  // The first run builds the server when needed and creates the database: not a command's time.
  run(['migrate']);
  const commands = [
    ['--help'],
    ['migrate', '--dry-run'],
    ['migrate'],
    ['rotate-keys'],
    ['reset-password', '--email', 'bench-admin@example.com'],
  ];
  run(['create-admin', '--email', 'bench-admin@example.com']);
  let slowest = 0;
  for (const args of commands) {
    const times = Array.from({ length: RUNS }, () => run(args)).sort((a, b) => a - b);
    const median = times[Math.floor(RUNS / 2)]!;
    slowest = Math.max(slowest, median);
    console.log(
      `[cli] ${args.join(' ').padEnd(52)} median ${median.toFixed(2)} s, slowest ${times.at(-1)!.toFixed(2)} s`,
    );
  }
  console.log(
    `[cli] slowest median ${slowest.toFixed(2)} s: ${slowest <= TARGET_SECONDS ? 'within' : 'over'} the ${TARGET_SECONDS} s target`,
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
