// Benchmark child processes (the real server, the bare Fastify baseline): started as
// `node --import tsx --import bench/server-probe.ts <entry>` on a free loopback port, watched
// (memory, CPU time, event loop) and stopped again.
import { randomBytes } from 'node:crypto';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { isSnapshot, type ProbeSnapshot, type ProbeSnapshotRequest } from './probe-protocol.js';
import { configVariableNames } from '../src/server/platform/config.js';

export const LOOPBACK_HOST = '127.0.0.1';

const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const RSS_SAMPLE_INTERVAL_MS = 200;
const OUTPUT_TAIL_CHARS = 16_000;

export interface ChildOptions {
  label: string;
  repoRoot: string;
  /** Script relative to the repository, e.g. src/server/main.ts. */
  entry: string;
  /** Environment on top of the parent's, after every server setting of the shell is cleared. */
  env: Record<string, string>;
  /** Path answered with 200 once the process is ready. */
  readyPath: string;
  /** Directory for `--cpu-prof` output; no profiling when unset. */
  cpuProfileDir?: string | undefined;
  /** Server settings of the developer's shell kept (every other one is cleared). */
  passThrough?: string[];
  /** Run once the process has stopped, e.g. to remove a throw-away data directory. */
  afterStop?: () => void;
  /** The loopback port to listen on (a restart keeps its address); a free one when unset. */
  port?: number;
  /** How long start-up may take (default 60 s). */
  startupTimeoutMs?: number;
  /**
   * A compiled entry run by Node alone, without tsx or the probe: what a memory figure must be
   * taken of, since tsx keeps the compiled sources of every module (about 70 MiB for the server).
   */
  plainNode?: boolean;
}

export interface ChildHandle {
  label: string;
  pid: number;
  baseUrl: string;
  readRss(): number | undefined;
  /** VmHWM: the peak RSS since the process started (bytes). */
  readPeakRss(): number | undefined;
  /** CPU time the process has used so far, user + system, all threads (seconds). */
  readCpuSeconds(): number | undefined;
  /** The highest VmRSS sampled every 200 ms since start (bytes), a cross-check of VmHWM. */
  sampledPeakRss(): number | undefined;
  /** The highest sampled VmRSS since the previous call (bytes), then starts sampling afresh. */
  takeSampledPeakRss(): number | undefined;
  probeSnapshot(): Promise<ProbeSnapshot | undefined>;
  outputTail(): string;
  stop(): Promise<void>;
  killNow(): void;
}

async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, LOOPBACK_HOST);
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

function readProcStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The process and its children (a WORKERS=N server's workers), from /proc. */
function processTree(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && statFields(entry)?.[1] === String(pid))
    .map(Number);
  return [pid, ...children];
}

/** utime + stime of the process and its children, in seconds (the kernel counts in USER_HZ = 100 ticks). */
function readCpuSeconds(pid: number): number | undefined {
  let seconds: number | undefined;
  for (const member of processTree(pid)) {
    const fields = statFields(member);
    if (fields) seconds = (seconds ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return seconds;
}

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

export async function startChild(options: ChildOptions): Promise<ChildHandle> {
  const entry = join(options.repoRoot, options.entry);
  if (!existsSync(entry)) throw new Error(`${entry} is missing`);
  const port = options.port ?? (await findFreePort());
  const probe = pathToFileURL(join(options.repoRoot, 'bench/server-probe.ts')).href;
  const args = [
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
    ...(options.plainNode ? [] : ['--import', 'tsx', '--import', probe]),
    entry,
  ];
  const environment: NodeJS.ProcessEnv = { ...process.env };
  const kept = new Set(options.passThrough ?? []);
  for (const name of configVariableNames) if (!kept.has(name)) delete environment[name];
  Object.assign(environment, { HOST: LOOPBACK_HOST, PORT: String(port), ...options.env });

  const child = spawn(process.execPath, args, {
    cwd: options.repoRoot,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = once(child, 'exit');
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const outputTail = () => output.trim() || '(no output)';
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${options.label}`);

  let sampledPeak: number | undefined;
  const sampler = setInterval(() => {
    const rss = readProcStatusBytes(pid, 'VmRSS');
    if (rss !== undefined) sampledPeak = Math.max(sampledPeak ?? 0, rss);
  }, RSS_SAMPLE_INTERVAL_MS);
  sampler.unref();

  let nextProbeId = 1;
  const probeSnapshot = async (): Promise<ProbeSnapshot | undefined> => {
    if (!child.connected) return undefined;
    const id = nextProbeId++;
    const answer = new Promise<ProbeSnapshot | undefined>((resolve) => {
      const timer = setTimeout(() => finish(undefined), 2_000);
      const onMessage = (message: unknown) => {
        if (isSnapshot(message) && message.id === id) finish(message);
      };
      const finish = (snapshot: ProbeSnapshot | undefined) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(snapshot);
      };
      child.on('message', onMessage);
    });
    const request: ProbeSnapshotRequest = { type: 'bench-probe-snapshot-request', id };
    child.send(request);
    return answer;
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(sampler);
      if (!hasExited(child)) {
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(forced);
      }
      options.afterStop?.();
    })();
    return stopping;
  };

  const handle: ChildHandle = {
    label: options.label,
    pid,
    baseUrl: `http://${LOOPBACK_HOST}:${port}`,
    readRss: () => readProcStatusBytes(pid, 'VmRSS'),
    readPeakRss: () => readProcStatusBytes(pid, 'VmHWM'),
    readCpuSeconds: () => readCpuSeconds(pid),
    sampledPeakRss: () => sampledPeak,
    takeSampledPeakRss() {
      const peak = sampledPeak;
      sampledPeak = readProcStatusBytes(pid, 'VmRSS');
      return peak;
    },
    probeSnapshot,
    outputTail,
    stop,
    killNow() {
      if (!hasExited(child)) child.kill('SIGKILL');
      options.afterStop?.();
    },
  };

  const deadline = Date.now() + (options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS);
  for (;;) {
    if (hasExited(child)) {
      await stop();
      throw new Error(`${options.label} exited during start-up (code ${child.exitCode}):\n${outputTail()}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.label} did not answer ${options.readyPath} in time:\n${outputTail()}`);
    }
    try {
      const response = await fetch(`${handle.baseUrl}${options.readyPath}`, {
        signal: AbortSignal.timeout(1_000),
      });
      await response.arrayBuffer();
      if (response.status === 200) return handle;
    } catch {
      // Not listening yet.
    }
    await delay(100);
  }
}

/** The real server on a seeded data directory, as the load benchmarks start it. */
export interface PortalServerOptions {
  repoRoot: string;
  dataDir: string;
  /** PostgreSQL instead of the data directory's SQLite file. */
  databaseUrl?: string | undefined;
  /** The bench administrator's password (a random one when unset). */
  adminPassword?: string;
  cpuProfileDir?: string | undefined;
  /** Settings of the benchmark on top of the common ones. */
  env?: Record<string, string>;
  /** Runs the compiled `dist/server/main.js` (as deployed) instead of the sources through tsx. */
  compiled?: boolean;
}

/** Compiles the server into dist/, so a compiled run measures the code checked out, not an older build. */
export function buildServer(repoRoot: string): void {
  execFileSync(
    process.execPath,
    [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json'],
    {
      cwd: repoRoot,
      stdio: 'inherit',
    },
  );
}

/** Starts the server in production mode, logging only warnings, with a bench administrator. */
export function startPortalServer(options: PortalServerOptions): Promise<ChildHandle> {
  return startChild({
    label: 'server',
    repoRoot: options.repoRoot,
    entry: options.compiled ? 'dist/server/main.js' : 'src/server/main.ts',
    plainNode: options.compiled ?? false,
    readyPath: '/api/v1/health',
    cpuProfileDir: options.cpuProfileDir,
    env: {
      NODE_ENV: 'production',
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'bench-admin@example.com',
      ADMIN_PASSWORD: options.adminPassword ?? randomBytes(18).toString('base64url'),
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
  });
}
