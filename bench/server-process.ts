// Starts the real API server as a child process on a free loopback port with a throw-away data
// directory, watches its memory, and stops it again.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { isSnapshot, type ProbeSnapshot, type ProbeSnapshotRequest } from './probe-protocol.js';
import { configVariableNames } from '../src/server/config.js';

export const LOOPBACK_HOST = '127.0.0.1';

const STARTUP_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 12_000;
const RSS_SAMPLE_INTERVAL_MS = 200;
const OUTPUT_TAIL_CHARS = 16_000;

// Every server setting of the developer's shell is cleared (Redis-backed rate limits, other API
// keys, real mail… would change what is measured) except the hashing cap, which sweeps vary.
const PASSED_THROUGH = new Set(['ARGON2_MAX_CONCURRENCY']);
const CLEARED_SERVER_SETTINGS = configVariableNames.filter((name) => !PASSED_THROUGH.has(name));

export interface ServerOptions {
  repoRoot: string;
  adminEmail: string;
  adminPassword: string;
  databaseUrl: string | undefined;
  useDist: boolean;
}

export interface ServerHandle {
  pid: number;
  baseUrl: string;
  /** Peak of the sampled VmRSS since the previous call (bytes), or `undefined` without /proc. */
  takeSampledPeakRss(): number | undefined;
  /** Current VmRSS (bytes), or `undefined` without /proc. */
  readRss(): number | undefined;
  /** VmHWM of /proc/<pid>/status: the peak RSS since the process started (bytes). */
  readPeakRss(): number | undefined;
  /** Event-loop statistics since the previous snapshot, from bench/server-probe.ts. */
  probeSnapshot(): Promise<ProbeSnapshot | undefined>;
  /** The server's recent stdout and stderr, for error messages. */
  outputTail(): string;
  /** SIGTERM (SIGKILL after a grace period), then removes the data directory. Safe to call twice. */
  stop(): Promise<void>;
  /** Last resort from an `exit` handler: synchronous SIGKILL. */
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

/** A value in kB from /proc/<pid>/status, in bytes; `undefined` off Linux or once the process is gone. */
function readProcStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

async function waitForHealth(child: ChildProcess, baseUrl: string, outputTail: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(child)) {
      throw new Error(`the server exited during start-up (code ${child.exitCode}):\n${outputTail()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await delay(100);
  }
  throw new Error(
    `the server did not answer /api/v1/health within ${STARTUP_TIMEOUT_MS} ms:\n${outputTail()}`,
  );
}

export async function startServer(options: ServerOptions): Promise<ServerHandle> {
  const port = await findFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const entry = join(options.repoRoot, options.useDist ? 'dist/server/main.js' : 'src/server/main.ts');
  if (!existsSync(entry)) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${entry} is missing (for BENCH_USE_DIST=1, run \`npm run build:server\` first)`);
  }
  // tsx also loads the probe, which is TypeScript, when the server itself is the compiled build.
  const probe = pathToFileURL(join(options.repoRoot, 'bench/server-probe.ts')).href;
  const args = ['--import', 'tsx', '--import', probe, entry];

  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CLEARED_SERVER_SETTINGS) delete environment[name];
  Object.assign(environment, {
    NODE_ENV: 'production',
    HOST: LOOPBACK_HOST,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: options.adminEmail,
    ADMIN_PASSWORD: options.adminPassword,
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_LOCKOUT_THRESHOLD: '1000000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });

  const child = spawn(process.execPath, args, {
    cwd: options.repoRoot,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = once(child, 'exit');
  // Reading the pipes keeps the server from blocking on a full one; only the tail is kept.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const outputTail = () => output.trim() || '(no output)';

  const pid = child.pid;
  if (pid === undefined) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error('could not start the server process');
  }

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
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const handle: ServerHandle = {
    pid,
    baseUrl: `http://${LOOPBACK_HOST}:${port}`,
    takeSampledPeakRss() {
      const peak = sampledPeak;
      sampledPeak = readProcStatusBytes(pid, 'VmRSS');
      return peak;
    },
    readRss: () => readProcStatusBytes(pid, 'VmRSS'),
    readPeakRss: () => readProcStatusBytes(pid, 'VmHWM'),
    probeSnapshot,
    outputTail,
    stop,
    killNow() {
      if (!hasExited(child)) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };

  try {
    await waitForHealth(child, handle.baseUrl, outputTail);
  } catch (error) {
    await stop();
    throw error;
  }
  return handle;
}
