// `npm run bench`: login latency, health throughput, and health latency during a login storm,
// measured with autocannon against the real server in a child process on loopback.
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import {
  type BenchReport,
  formatReport,
  type LoadStats,
  type PhaseReport,
  toLoadStats,
  writeReport,
} from './report.js';
import { LOOPBACK_HOST, type ServerHandle, startServer } from './server-process.js';
import { type BenchSettings, readSettings } from './settings.js';

const repoRoot = resolve(import.meta.dirname, '..');
const resultsDir = join(import.meta.dirname, 'results');

const API_KEY = 'dap-web-public';
const HEALTH_PATH = '/api/v1/health';
const LOGIN_PATH = '/api/v1/auth/login/json';
const REQUEST_TIMEOUT_SECONDS = 10;
/** Lets the argon2 work of logins cut off at the end of a phase drain before the next one. */
const SETTLE_MS = 1_500;

const LOOPBACK_NAMES = new Set([LOOPBACK_HOST, 'localhost', '[::1]']);

interface LoadSpec {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  /** Either a duration or a fixed number of requests (warm-up). */
  seconds?: number;
  amount?: number;
  body?: string;
}

class Interrupted extends Error {
  constructor(readonly signal: string) {
    super(`interrupted by ${signal}`);
  }
}

const running = new Set<autocannon.Instance>();
let interruptedBy: string | undefined;
let server: ServerHandle | undefined;

const progress = (message: string) => process.stderr.write(`${message}\n`);

function runLoad(baseUrl: string, spec: LoadSpec): Promise<LoadStats> {
  const url = new URL(spec.path, baseUrl);
  if (url.protocol !== 'http:' || !LOOPBACK_NAMES.has(url.hostname)) {
    throw new Error(`refusing to load ${url.href}: the benchmark targets loopback only`);
  }
  return new Promise((resolvePromise, reject) => {
    const instance = autocannon(
      {
        url: url.href,
        method: spec.method,
        connections: spec.connections,
        ...(spec.amount === undefined ? { duration: spec.seconds ?? 1 } : { amount: spec.amount }),
        timeout: REQUEST_TIMEOUT_SECONDS,
        headers: { 'x-api-key': API_KEY, ...(spec.body ? { 'content-type': 'application/json' } : {}) },
        ...(spec.body ? { body: spec.body } : {}),
      },
      (error: unknown, result: autocannon.Result) => {
        running.delete(instance);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolvePromise(toLoadStats(spec.label, `${spec.method} ${spec.path}`, result));
      },
    );
    running.add(instance);
  });
}

function throwIfInterrupted(): void {
  if (interruptedBy) throw new Interrupted(interruptedBy);
}

async function measurePhase(
  target: ServerHandle,
  name: string,
  description: string,
  seconds: number,
  specs: LoadSpec[],
): Promise<PhaseReport> {
  progress(`- ${name}: ${description} (${seconds} s)…`);
  await target.probeSnapshot(); // starts the server-side statistics afresh
  target.takeSampledPeakRss();
  const loads = await Promise.all(specs.map((spec) => runLoad(target.baseUrl, { ...spec, seconds })));
  throwIfInterrupted();
  const probe = await target.probeSnapshot();
  const sampledPeakRssBytes = target.takeSampledPeakRss();
  for (const load of loads) {
    if (load.non2xx + load.errors > 0) {
      progress(`  warning: ${load.label}: ${load.non2xx} non-2xx answers, ${load.errors} errors`);
    }
  }
  await delay(SETTLE_MS);
  return {
    name,
    description,
    durationSeconds: seconds,
    loads,
    server: {
      eventLoopLagMs: probe?.eventLoopLagMs,
      eventLoopUtilization: probe ? Math.round(probe.eventLoopUtilization * 1000) / 1000 : undefined,
      sampledPeakRssBytes,
    },
  };
}

/** One real login first, so a wrong setup fails loudly instead of benchmarking 401s. */
async function checkLogin(baseUrl: string, body: string): Promise<void> {
  const response = await fetch(new URL(LOGIN_PATH, baseUrl), {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_SECONDS * 1000),
  });
  const answer = (await response.json().catch(() => undefined)) as { access_token?: unknown } | undefined;
  if (response.status !== 200 || typeof answer?.access_token !== 'string') {
    throw new Error(
      `the benchmark account cannot sign in (HTTP ${response.status}: ${JSON.stringify(answer)}). ` +
        'With BENCH_DATABASE_URL, use an empty database so the server creates the benchmark admin.',
    );
  }
}

async function benchmark(settings: BenchSettings): Promise<BenchReport> {
  const startedAt = new Date().toISOString();
  const admin = { email: 'bench-admin@example.com', password: randomBytes(18).toString('base64url') };
  const loginBody = JSON.stringify({ email: admin.email, password: admin.password });

  progress(
    `Starting the server (${settings.useDist ? 'dist/server/main.js' : 'src/server/main.ts via tsx'})…`,
  );
  server = await startServer({
    repoRoot,
    adminEmail: admin.email,
    adminPassword: admin.password,
    databaseUrl: settings.databaseUrl,
    useDist: settings.useDist,
  });
  progress(`Server pid ${server.pid} at ${server.baseUrl}`);
  const startupRssBytes = server.readRss();
  await checkLogin(server.baseUrl, loginBody);
  throwIfInterrupted();

  const login = (connections: number): LoadSpec => ({
    label: 'login',
    method: 'POST',
    path: LOGIN_PATH,
    connections,
    body: loginBody,
  });
  const health = (connections: number): LoadSpec => ({
    label: 'health',
    method: 'GET',
    path: HEALTH_PATH,
    connections,
  });

  progress('- warm-up…');
  await Promise.all([
    runLoad(server.baseUrl, { ...health(10), amount: 2_000 }),
    runLoad(server.baseUrl, { ...login(4), amount: 20 }),
  ]);
  throwIfInterrupted();
  await delay(SETTLE_MS);

  const seconds = settings.phaseSeconds;
  const phases = [
    await measurePhase(server, 'login', 'valid logins alone', seconds, [login(settings.loginConnections)]),
    await measurePhase(server, 'health', 'GET /health alone', seconds, [health(settings.healthConnections)]),
    await measurePhase(
      server,
      'storm',
      `GET /health during ${settings.stormLoginConnections} concurrent logins`,
      seconds,
      [health(settings.healthConnections), login(settings.stormLoginConnections)],
    ),
  ];

  const lastProbe = await server.probeSnapshot();
  const hwm = server.readPeakRss();
  const stormHealth = phases[2]?.loads[0];
  if (!stormHealth) throw new Error('the storm phase has no health results');
  const healthFailures = stormHealth.non2xx + stormHealth.errors;

  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      uvThreadpoolSize: process.env.UV_THREADPOOL_SIZE?.trim() || 'unset (libuv default 4)',
      database: settings.databaseUrl ? 'postgres' : 'sqlite',
      server: settings.useDist ? 'dist/server/main.js' : 'src/server/main.ts via tsx',
    },
    settings: {
      phaseSeconds: settings.phaseSeconds,
      loginConnections: settings.loginConnections,
      healthConnections: settings.healthConnections,
      stormLoginConnections: settings.stormLoginConnections,
      targetHealthP99Ms: settings.targetHealthP99Ms,
      strict: settings.strict,
    },
    phases,
    server: {
      startupRssBytes,
      peakRssBytes: hwm ?? lastProbe?.maxRssBytes,
      peakRssSource:
        hwm !== undefined ? 'VmHWM' : lastProbe ? 'getrusage maxrss' : 'unavailable (no /proc, no probe)',
    },
    target: {
      description: `health p99 during the login storm < ${settings.targetHealthP99Ms} ms, no failed requests`,
      thresholdMs: settings.targetHealthP99Ms,
      healthP99Ms: stormHealth.latencyMs.p99,
      healthFailures,
      passed: stormHealth.latencyMs.p99 < settings.targetHealthP99Ms && healthFailures === 0,
    },
  };
}

function onSignal(signal: NodeJS.Signals): void {
  if (interruptedBy) {
    // A second signal: do not wait any longer.
    server?.killNow();
    process.exit(130);
  }
  interruptedBy = signal;
  progress(`\n${signal}: stopping the load and the server…`);
  for (const instance of running) instance.stop();
}

async function main(): Promise<number> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => server?.killNow());
  try {
    const settings = readSettings();
    const report = await benchmark(settings);
    await server?.stop();
    process.stdout.write(formatReport(report));
    const path = writeReport(resultsDir, report);
    process.stdout.write(`Results written to ${path}\n`);
    if (!report.target.passed && settings.strict) return 1;
    return 0;
  } catch (error) {
    if (error instanceof Interrupted) return 130;
    progress(`Benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await server?.stop();
  }
}

process.exitCode = await main();
