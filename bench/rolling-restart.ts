// `node --import tsx bench/rolling-restart.ts`: two real server instances on one database behind
// a round-robin proxy that does not retry (bench/round-robin-proxy.ts), 16 clients asking without
// pause, and each instance restarted in turn (SIGTERM, exit, start again on the same port, ready
// again) while they ask. Reports the requests sent and every one that failed; the target is 0.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type ChildHandle, LOOPBACK_HOST, startChild } from './child-process.js';
import { startRoundRobinProxy } from './round-robin-proxy.js';
import { flagFromEnv, integerFromEnv } from './settings.js';

const repoRoot = resolve(import.meta.dirname, '..');
const API_KEY = 'dap-web-public';
/** A read of the database on every request: the public plan catalogue. */
const LOAD_PATH = '/api/v1/plans/public';

const settings = {
  clients: integerFromEnv('BENCH_CLIENTS', 16, 1, 64),
  rounds: integerFromEnv('BENCH_ROUNDS', 1, 1, 5),
  /** The proxy's readiness check, as a load balancer's health-check interval. */
  healthIntervalMs: integerFromEnv('BENCH_HEALTH_INTERVAL_MS', 200, 20, 5_000),
  /** Failed checks in a row that take an instance out of rotation. */
  unhealthyThreshold: integerFromEnv('BENCH_UNHEALTHY_THRESHOLD', 2, 1, 10),
  /**
   * SHUTDOWN_DRAIN_SECONDS of the instances: longer than the balancer takes to notice, threshold ×
   * (interval + the 2 s timeout a check may take on a busy machine).
   */
  drainSeconds: integerFromEnv('BENCH_DRAIN_SECONDS', 5, 0, 60),
  /** Load on both instances before the first restart and after each one. */
  settleSeconds: integerFromEnv('BENCH_SETTLE_SECONDS', 2, 1, 30),
  /** Bounds: each client stops after this many requests, and the whole run after this long. */
  maxRequestsPerClient: integerFromEnv('BENCH_MAX_REQUESTS_PER_CLIENT', 100_000, 100, 1_000_000),
  maxSeconds: integerFromEnv('BENCH_MAX_SECONDS', 300, 30, 900),
  databaseUrl: process.env['BENCH_DATABASE_URL']?.trim() || undefined,
  strict: flagFromEnv('BENCH_STRICT'),
};
const onLoopback = (url: string) => {
  const { protocol, hostname } = new URL(url);
  return /^postgres(ql)?:$/.test(protocol) && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
};
if (settings.databaseUrl && !onLoopback(settings.databaseUrl))
  throw new Error('BENCH_DATABASE_URL must be a postgres:// URL on loopback (leave it unset for SQLite)');

const progress = (message: string) => process.stderr.write(`${message}\n`);

// Both instances share DATA_DIR (the generated keys, or the SQLite file) and the database.
const dataDir = mkdtempSync(join(tmpdir(), 'portal-rolling-'));
const instanceEnv = {
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  WEB_DIR: join(dataDir, 'no-web-build'),
  LOG_LEVEL: 'warn',
  ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
  SHUTDOWN_DRAIN_SECONDS: String(settings.drainSeconds),
  ...(settings.databaseUrl ? { DATABASE_URL: settings.databaseUrl } : {}),
};

const startInstance = (label: string, port?: number) =>
  startChild({
    label,
    repoRoot,
    entry: 'src/server/main.ts',
    readyPath: '/api/v1/health',
    // Two servers compiling through tsx at once on a busy 2-core machine can take minutes.
    startupTimeoutMs: 240_000,
    env: instanceEnv,
    ...(port ? { port } : {}),
  });

interface Tally {
  sent: number;
  ok: number;
  failed: Map<string, number>;
}

/** One client: GETs through the proxy on a keep-alive connection until told to stop or at its bound. */
async function client(proxyPort: number, tally: Tally, keepAsking: () => boolean): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const fail = (reason: string) => tally.failed.set(reason, (tally.failed.get(reason) ?? 0) + 1);
  for (let count = 0; count < settings.maxRequestsPerClient && keepAsking(); count++) {
    tally.sent++;
    const outcome = await new Promise<string | undefined>((done) => {
      const ask = httpRequest(
        { host: LOOPBACK_HOST, port: proxyPort, path: LOAD_PATH, agent, headers: { 'x-api-key': API_KEY } },
        (response) => {
          response.resume();
          response.once('end', () =>
            done(response.statusCode === 200 ? undefined : `HTTP ${response.statusCode}`),
          );
          response.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
        },
      );
      ask.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
      ask.end();
    });
    if (outcome === undefined) tally.ok++;
    else fail(outcome);
  }
  agent.destroy();
}

const instances: ChildHandle[] = [];
const stopAll = () => Promise.all(instances.map((instance) => instance.stop()));
process.once('SIGINT', () => {
  for (const instance of instances) instance.killNow();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(130);
});

async function main(): Promise<number> {
  const startedAt = Date.now();
  const deadline = startedAt + settings.maxSeconds * 1000;
  progress(
    `database: ${settings.databaseUrl ? 'PostgreSQL' : 'SQLite (one file, WAL)'}; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' / ')}`,
  );
  // One after the other: the first migrates the database and creates the administrator.
  for (const label of ['instance A', 'instance B']) instances.push(await startInstance(label));
  const ports = instances.map((instance) => Number(new URL(instance.baseUrl).port));
  const proxy = await startRoundRobinProxy(ports, {
    healthIntervalMs: settings.healthIntervalMs,
    unhealthyThreshold: settings.unhealthyThreshold,
  });
  for (const backend of proxy.backends) await proxy.waitUntilUp(backend);

  const tally: Tally = { sent: 0, ok: 0, failed: new Map() };
  let asking = true;
  const keepAsking = () => asking && Date.now() < deadline;
  const clients = Array.from({ length: settings.clients }, () => client(proxy.port, tally, keepAsking));
  progress(`${settings.clients} clients through the proxy on 127.0.0.1:${proxy.port}`);
  await delay(settings.settleSeconds * 1000);

  const restarts: { label: string; stopMs: number; startMs: number; backInMs: number }[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    for (const [index, backend] of proxy.backends.entries()) {
      const instance = instances[index] as ChildHandle;
      const began = Date.now();
      await instance.stop(); // SIGTERM, then waits for the exit
      const stopped = Date.now();
      instances[index] = await startInstance(instance.label, backend.port);
      const started = Date.now();
      await proxy.waitUntilUp(backend);
      restarts.push({
        label: instance.label,
        stopMs: stopped - began,
        startMs: started - stopped,
        backInMs: Date.now() - started,
      });
      progress(
        `${instance.label} restarted: stopped in ${stopped - began} ms, started in ${started - stopped} ms`,
      );
      await delay(settings.settleSeconds * 1000);
    }
  }
  asking = false;
  await Promise.all(clients);
  const seconds = (Date.now() - startedAt) / 1000;
  await proxy.close();
  await stopAll();
  rmSync(dataDir, { recursive: true, force: true });

  const failed = [...tally.failed.values()].reduce((sum, count) => sum + count, 0);
  const lines = [
    `rolling restart, 2 instances on ${settings.databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${settings.clients} clients, ` +
      `health check every ${settings.healthIntervalMs} ms (out after ${settings.unhealthyThreshold} failed), drain ${settings.drainSeconds} s, ${settings.rounds} round(s)`,
    ...restarts.map(
      (r) =>
        `  ${r.label}: SIGTERM to exit ${r.stopMs} ms, start ${r.startMs} ms, back in rotation ${r.backInMs} ms`,
    ),
    `  requests sent ${tally.sent}, answered 200 ${tally.ok}, failed ${failed} (${(tally.sent / seconds).toFixed(0)} req/s over ${seconds.toFixed(1)} s)`,
    ...[...tally.failed].map(([reason, count]) => `    ${reason}: ${count}`),
    ...[...proxy.proxyErrors].map(([reason, count]) => `    at the proxy, ${reason}: ${count}`),
    `  target 0 failed: ${failed === 0 && tally.sent > 0 ? 'PASS' : 'FAIL'}`,
    `  load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' / ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return failed === 0 || !settings.strict ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    progress(error instanceof Error ? (error.stack ?? error.message) : String(error));
    for (const instance of instances) instance.killNow();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  },
);
