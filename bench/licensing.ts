// License checks under load (issue "Licensing on the server", Speed): `GET /licensing/status` and
// `POST /licenses/validate` on a seeded database of 1 000 000 licenses and 2 000 000 activations,
// side by side with a bare Fastify route, each at 100 connections, measured with autocannon. On
// SQLite the kept checks are also measured behind a bare route with none of the portal's pipeline
// (bench/licensing-lean.ts): what the server's hooks and plugins add to a check.
// Beside them, the floating scenario (issue "Fair use across machines"): 10 000 floating licenses,
// one machine each, checked out once, then `POST /licensing/floating/checkout` (a running machine
// checking out again) and `POST /licensing/floating/heartbeat` (every machine's once-a-minute
// heartbeat, as fast as the server takes them) at the same connections.
//
//   node --import tsx bench/licensing.ts [--db sqlite|postgres|both] [--licenses N] [--seconds S]
//     [--warmup S] [--connections C] [--sample N] [--reseed] [--data-dir DIR] [--cpu-prof] [--strict]
//     [--workers N]
//
// Seeding (bench/licensing-seed.ts) runs first and is skipped when the database already holds the
// requested size. PostgreSQL uses BENCH_POSTGRES_URL or TEST_POSTGRES_URL as the server to create
// the database `bench_licensing` on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { type ChildHandle, LOOPBACK_HOST, startChild, startPortalServer } from './child-process.js';
import { type LoadStats, round, toLoadStats } from './report.js';
import {
  type BenchDb,
  commonArgs,
  parseArgs,
  positiveInteger,
  repoRoot,
  resetCheckState,
  type SamplePair,
  seed,
  type SeedOutcome,
  seedTarget,
} from './licensing-seed.js';
import { FLOATING_LICENSES, seedFloating } from './licensing-floating-seed.js';

const API_KEY = 'dap-web-public';
const STATUS_PATH = '/api/v1/licensing/status';
const VALIDATE_PATH = '/api/v1/licenses/validate';
const BARE_PATH = '/bare';
const BARE_SIZED_PATH = '/bare-sized';
/** `bench/licensing-lean.ts`: the check behind a bare Fastify route. */
const LEAN_STATUS_PATH = '/lean/status';
const FLOATING_CHECKOUT_PATH = '/api/v1/licensing/floating/checkout';
const FLOATING_HEARTBEAT_PATH = '/api/v1/licensing/floating/heartbeat';
const REQUEST_TIMEOUT_SECONDS = 10;
const SETTLE_MS = 1_000;
/** The targets, for SQLite. */
const TARGET_THROUGHPUT_RATIO = 0.5;
const TARGET_P99_MS = 20;

const resultsDir = join(import.meta.dirname, 'results');
const progress = (message: string) => process.stderr.write(`${message}\n`);

type TargetName =
  | 'bare'
  | 'bare-sized'
  | 'status'
  | 'status-repeat'
  | 'lean-repeat'
  | 'validate'
  | 'floating-checkout'
  | 'floating-heartbeat';

/** Machines of the status phase checked again in the repeat phase: each finds its answer kept. */
const REPEAT_MACHINES = 5_000;

const FLOATING_PATHS: Partial<Record<TargetName, string>> = {
  'floating-checkout': FLOATING_CHECKOUT_PATH,
  'floating-heartbeat': FLOATING_HEARTBEAT_PATH,
};

interface LoadResult extends Omit<LoadStats, 'label'> {
  target: TargetName;
  seconds: number;
  statusCodes: Record<string, number>;
  /** CPU time of the serving process per answered request (all threads), microseconds. */
  cpuMicrosecondsPerRequest: number | undefined;
  /** Share of the wall time the serving process's event loop was busy. */
  eventLoopUtilization: number | undefined;
  eventLoopLagP99Ms: number | undefined;
  /** Checks of a machine not checked before in this run: each builds and signs a new answer. */
  firstChecks?: number;
}

interface DbReport {
  db: BenchDb;
  seed: { reused: boolean; seconds: number; rows: SeedOutcome['rows']; samplePairs: number };
  loads: LoadResult[];
  peakRssBytes: { server: number | undefined; bare: number | undefined };
  startupRssBytes: { server: number | undefined; bare: number | undefined };
  verdict: {
    target: string;
    enforced: boolean;
    checks: { target: TargetName; ratio: number; p99Ms: number; failures: number; passed: boolean }[];
    passed: boolean;
  };
  cpuProfileDir?: string;
}

interface Options {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  cpuProfile: boolean;
  strict: boolean;
  /** WORKERS for the server: processes sharing the port (1: the server alone). */
  workers: number;
}

const running = new Set<autocannon.Instance>();
const children = new Set<ChildHandle>();
let interruptedBy: string | undefined;

interface LoadSpec {
  target: TargetName;
  baseUrl: string;
  connections: number;
  seconds: number;
  /** Pairs cycled through, one per request; none for the bare route. */
  pairs?: SamplePair[];
}

function runLoad(spec: LoadSpec): Promise<autocannon.Result> {
  const { pairs } = spec;
  let next = 0;
  const pair = () => {
    const chosen = (pairs as SamplePair[])[next % (pairs as SamplePair[]).length] as SamplePair;
    next += 1;
    return chosen;
  };
  const floatingPath = FLOATING_PATHS[spec.target];
  const statusPath = spec.target === 'lean-repeat' ? LEAN_STATUS_PATH : STATUS_PATH;
  const request: autocannon.Request = floatingPath
    ? {
        method: 'POST',
        path: floatingPath,
        setupRequest: (req) => ({ ...req, body: JSON.stringify(pair()) }),
      }
    : spec.target === 'bare' || spec.target === 'bare-sized'
      ? { method: 'GET', path: spec.target === 'bare' ? BARE_PATH : BARE_SIZED_PATH }
      : spec.target === 'status' || spec.target === 'status-repeat' || spec.target === 'lean-repeat'
        ? {
            method: 'GET',
            path: statusPath,
            setupRequest: (req) => {
              const { license_key, hardware_id } = pair();
              const query = new URLSearchParams({ license_key, hardware_id });
              return { ...req, path: `${statusPath}?${query.toString()}` };
            },
          }
        : {
            method: 'POST',
            path: VALIDATE_PATH,
            setupRequest: (req) => ({ ...req, body: JSON.stringify(pair()) }),
          };
  return new Promise((resolvePromise, reject) => {
    const instance = autocannon(
      {
        url: spec.baseUrl,
        connections: spec.connections,
        duration: spec.seconds,
        timeout: REQUEST_TIMEOUT_SECONDS,
        headers: {
          'x-api-key': API_KEY,
          ...(spec.target === 'validate' || floatingPath ? { 'content-type': 'application/json' } : {}),
        },
        requests: [request],
      },
      (error: unknown, result: autocannon.Result) => {
        running.delete(instance);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolvePromise(result);
      },
    );
    running.add(instance);
  });
}

/** One request of each kind first, so a wrong setup fails loudly instead of benchmarking 4xx answers. */
/** Headers a bare route cannot copy from an answer: its own framing and date. */
const OWN_HEADERS = new Set(['content-length', 'content-type', 'date', 'connection', 'keep-alive']);

/** Checks one seeded pair on both routes; returns the status answer's size and headers. */
async function checkOnce(
  baseUrl: string,
  pair: SamplePair,
): Promise<{ bytes: number; headers: Record<string, string> }> {
  const headers = { 'x-api-key': API_KEY };
  const query = new URLSearchParams({ license_key: pair.license_key, hardware_id: pair.hardware_id });
  const answers = [
    await fetch(`${baseUrl}${STATUS_PATH}?${query.toString()}`, { headers }),
    await fetch(`${baseUrl}${VALIDATE_PATH}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(pair),
    }),
  ];
  let sized = { bytes: 0, headers: {} as Record<string, string> };
  for (const response of answers) {
    const text = await response.text();
    const body = (() => {
      try {
        return JSON.parse(text) as { valid?: unknown };
      } catch {
        return undefined;
      }
    })();
    if (response.status !== 200 || body?.valid !== true) {
      throw new Error(
        `a license check of a seeded pair failed (${response.url}: HTTP ${response.status} ${text})`,
      );
    }
    if (sized.bytes === 0)
      sized = {
        bytes: Buffer.byteLength(text),
        headers: Object.fromEntries([...response.headers].filter(([name]) => !OWN_HEADERS.has(name))),
      };
  }
  return sized;
}

/** Checks every floating machine out once (50 at a time), so heartbeats find their seats. */
async function checkOutAll(baseUrl: string, pairs: SamplePair[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < pairs.length) {
      const pair = pairs[next++] as SamplePair;
      const response = await fetch(`${baseUrl}${FLOATING_CHECKOUT_PATH}`, {
        method: 'POST',
        headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify(pair),
      });
      if (response.status !== 200 && response.status !== 201)
        throw new Error(`a floating checkout failed (HTTP ${response.status} ${await response.text()})`);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
}

function throwIfInterrupted(): void {
  if (interruptedBy) throw new Error(`interrupted by ${interruptedBy}`);
}

async function measure(
  child: ChildHandle,
  spec: Omit<LoadSpec, 'seconds'>,
  options: Options,
): Promise<LoadResult> {
  const floatingPath = FLOATING_PATHS[spec.target];
  const endpoint = floatingPath
    ? `POST ${floatingPath.replace('/api/v1', '')}`
    : spec.target === 'bare'
      ? `GET ${BARE_PATH}`
      : spec.target === 'bare-sized'
        ? `GET ${BARE_SIZED_PATH}`
        : spec.target === 'status'
          ? `GET ${STATUS_PATH}`
          : spec.target === 'status-repeat'
            ? `GET ${STATUS_PATH}, again`
            : spec.target === 'lean-repeat'
              ? `GET ${LEAN_STATUS_PATH} (the check on a bare route), again`
              : `POST ${VALIDATE_PATH}`;
  progress(
    `  ${spec.target}: warm-up ${options.warmupSeconds} s, then ${options.seconds} s at ${spec.connections} connections…`,
  );
  // The warm-up takes its pairs from the end of the slice, the measurement from the start.
  const pairs = spec.pairs;
  const warmupPairs = pairs ? pairs.toReversed() : undefined;
  const warmup = await runLoad({
    ...spec,
    ...(warmupPairs ? { pairs: warmupPairs } : {}),
    seconds: options.warmupSeconds,
  });
  throwIfInterrupted();
  await delay(SETTLE_MS);
  await child.probeSnapshot();
  const cpuBefore = child.readCpuSeconds();
  const result = await runLoad({ ...spec, seconds: options.seconds });
  const cpuAfter = child.readCpuSeconds();
  throwIfInterrupted();
  const probe = await child.probeSnapshot();
  await delay(SETTLE_MS);
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [
      code,
      (stats as { count: number }).count,
    ]),
  );
  const { label: _label, ...loadStats } = toLoadStats(spec.target, endpoint, result);
  const load: LoadResult = {
    target: spec.target,
    ...loadStats,
    seconds: options.seconds,
    statusCodes,
    cpuMicrosecondsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
        ? undefined
        : Math.round(((cpuAfter - cpuBefore) * 1e6) / result.requests.total),
    eventLoopUtilization: probe ? round(probe.eventLoopUtilization, 3) : undefined,
    eventLoopLagP99Ms: probe?.eventLoopLagMs.p99,
    ...(pairs && spec.target !== 'status-repeat' && spec.target !== 'lean-repeat'
      ? {
          firstChecks: Math.max(0, Math.min(result.requests.total, pairs.length - warmup.requests.total)),
        }
      : {}),
  };
  if (load.non2xx + load.errors > 0) {
    progress(
      `  warning: ${spec.target}: ${load.non2xx} non-2xx answers (${JSON.stringify(statusCodes)}), ${load.errors} errors`,
    );
  }
  return load;
}

async function benchmarkDb(
  db: BenchDb,
  args: ReturnType<typeof commonArgs>,
  options: Options,
): Promise<DbReport> {
  progress(`\n== ${db} ==`);
  const target = seedTarget(args, db);
  const seeded = await seed(target);
  throwIfInterrupted();
  const pairs = seeded.sample;
  if (pairs.length < 2) throw new Error('the sample has fewer than two pairs');
  if (seeded.reused) {
    progress('Putting back the machines’ check-ins and reservations as seeded…');
    await resetCheckState(target, pairs);
  }
  // Disjoint halves: a machine checked by one route does not find its answer already kept by the
  // other, so each route's first checks sign as many leases as a fresh server would.
  const half = Math.floor(pairs.length / 2);
  const statusPairs = pairs.slice(0, half);
  const validatePairs = pairs.slice(half);

  const cpuProfileDir = options.cpuProfile
    ? join(resultsDir, `cpu-prof-${db}-${new Date().toISOString().replace(/[:.]/g, '-')}`)
    : undefined;
  if (cpuProfileDir) mkdirSync(cpuProfileDir, { recursive: true });

  progress('Starting the server (src/server/main.ts via tsx) and the bare Fastify server…');
  const server = await startPortalServer({
    repoRoot,
    dataDir: target.dataDir,
    databaseUrl: target.databaseUrl,
    cpuProfileDir,
    env: { LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '100000000', WORKERS: String(options.workers) },
  });
  children.add(server);
  const sized = await checkOnce(server.baseUrl, pairs[pairs.length - 1] as SamplePair);
  const bare = await startChild({
    label: 'bare Fastify',
    repoRoot,
    entry: 'bench/licensing-bare.ts',
    readyPath: BARE_PATH,
    env: {
      NODE_ENV: 'production',
      BARE_SIZED_BYTES: String(sized.bytes),
      BARE_SIZED_HEADERS: JSON.stringify(sized.headers),
    },
  });
  children.add(bare);
  progress(`Server pid ${server.pid} at ${server.baseUrl}; bare pid ${bare.pid} at ${bare.baseUrl}`);
  // The check's own parts behind a bare route (SQLite, the seeded file): what a kept check costs
  // over HTTP with none of the portal's pipeline, beside the server's kept checks.
  const lean =
    db === 'sqlite'
      ? await startChild({
          label: 'lean check',
          repoRoot,
          entry: 'bench/licensing-lean.ts',
          readyPath: '/health',
          env: { NODE_ENV: 'production', DATA_DIR: target.dataDir },
        })
      : undefined;
  if (lean) children.add(lean);
  const startupRssBytes = { server: server.readRss(), bare: bare.readRss() };
  try {
    const connections = options.connections;
    const loads = [
      await measure(bare, { target: 'bare', baseUrl: bare.baseUrl, connections }, options),
      await measure(bare, { target: 'bare-sized', baseUrl: bare.baseUrl, connections }, options),
      await measure(
        server,
        { target: 'status', baseUrl: server.baseUrl, connections, pairs: statusPairs },
        options,
      ),
    ];
    // The machines the status phase checked, checked again: their answers are kept, as the hourly
    // check of a desktop whose lease is fresh finds its own (the warm-up checks them once more).
    const statusChecked = loads[2]?.totalRequests ?? 0;
    const repeatPairs = statusPairs.slice(0, Math.max(1, Math.min(REPEAT_MACHINES, statusChecked)));
    const repeat = (child: ChildHandle, target: 'status-repeat' | 'lean-repeat') =>
      measure(child, { target, baseUrl: child.baseUrl, connections, pairs: repeatPairs }, options);
    loads.push(await repeat(server, 'status-repeat'));
    // The same machines' kept checks behind a bare route, right after: what the pipeline adds.
    if (lean) loads.push(await repeat(lean, 'lean-repeat'));
    loads.push(
      await measure(
        server,
        { target: 'validate', baseUrl: server.baseUrl, connections, pairs: validatePairs },
        options,
      ),
    );
    // The floating scenario, on the same server: its licenses seeded beside the node-locked ones,
    // every machine checked out once, then checkouts again and heartbeats under load.
    progress(
      `Floating: seeding ${FLOATING_LICENSES.toLocaleString('en-US')} floating licenses (reused when there)…`,
    );
    const floatingPairs = await seedFloating(target);
    await checkOutAll(server.baseUrl, floatingPairs);
    loads.push(
      await measure(
        server,
        { target: 'floating-checkout', baseUrl: server.baseUrl, connections, pairs: floatingPairs },
        options,
      ),
      await measure(
        server,
        { target: 'floating-heartbeat', baseUrl: server.baseUrl, connections, pairs: floatingPairs },
        options,
      ),
    );
    const peakRssBytes = { server: server.readPeakRss(), bare: bare.readPeakRss() };
    const bareRate = loads[0]?.requestsPerSecond ?? 0;
    const checks = loads
      .filter(
        (load) => load.target === 'status' || load.target === 'status-repeat' || load.target === 'validate',
      )
      .map((load) => {
        const ratio = bareRate > 0 ? round(load.requestsPerSecond / bareRate, 3) : 0;
        const failures = load.non2xx + load.errors;
        return {
          target: load.target,
          ratio,
          p99Ms: load.latencyMs.p99,
          failures,
          passed: ratio >= TARGET_THROUGHPUT_RATIO && load.latencyMs.p99 < TARGET_P99_MS && failures === 0,
        };
      });
    return {
      db,
      seed: { reused: seeded.reused, seconds: seeded.seconds, rows: seeded.rows, samplePairs: pairs.length },
      loads,
      peakRssBytes,
      startupRssBytes,
      verdict: {
        target: `>= ${TARGET_THROUGHPUT_RATIO * 100} % of the bare route's req/s, p99 < ${TARGET_P99_MS} ms, no failed requests`,
        enforced: db === 'sqlite',
        checks,
        passed: checks.every((check) => check.passed),
      },
      ...(cpuProfileDir ? { cpuProfileDir } : {}),
    };
  } finally {
    await Promise.all([server.stop(), bare.stop(), lean?.stop()]);
    children.delete(server);
    children.delete(bare);
    if (lean) children.delete(lean);
    if (cpuProfileDir) progress(`CPU profile of the server in ${cpuProfileDir}`);
  }
}

const mib = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function formatReport(reports: DbReport[], environment: Record<string, string | number>): string {
  const rows = reports.flatMap((report) => {
    const bareRate = report.loads[0]?.requestsPerSecond ?? 0;
    return report.loads.map((load) => {
      const check = report.verdict.checks.find((item) => item.target === load.target);
      const verdict = check
        ? (check.passed ? 'PASS' : 'FAIL') + (report.verdict.enforced ? '' : ' (info)')
        : '';
      return [
        `${report.db}: ${load.endpoint}`,
        load.requestsPerSecond.toFixed(0),
        load.latencyMs.p50.toFixed(1),
        load.latencyMs.p90.toFixed(1),
        load.latencyMs.p99.toFixed(1),
        load.latencyMs.max.toFixed(0),
        String(load.totalRequests),
        String(load.non2xx + load.errors),
        bareRate > 0 ? `${((load.requestsPerSecond / bareRate) * 100).toFixed(0)} %` : 'n/a',
        load.eventLoopUtilization === undefined ? 'n/a' : `${(load.eventLoopUtilization * 100).toFixed(0)} %`,
        load.cpuMicrosecondsPerRequest === undefined ? 'n/a' : String(load.cpuMicrosecondsPerRequest),
        verdict,
      ];
    });
  });
  const memory = reports.map((report) => [
    report.db,
    mib(report.startupRssBytes.server),
    mib(report.peakRssBytes.server),
    mib(report.peakRssBytes.bare),
    `${report.seed.rows.licenses.toLocaleString('en-US')} / ${report.seed.rows.activations.toLocaleString('en-US')}`,
    report.seed.reused ? 'reused' : `${report.seed.seconds} s`,
  ]);
  return [
    '',
    `Node ${environment.node}, ${environment.cpus} CPU(s) (${environment.cpuModel}), load average before the run ${environment.loadAverage}; ` +
      `${environment.connections} connections, ${environment.seconds} s per target after ${environment.warmupSeconds} s of warm-up` +
      (Number(environment['workers']) > 1 ? `; server with WORKERS=${environment['workers']}` : ''),
    '',
    table(
      [
        'db: target',
        'req/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        'requests',
        'failed',
        'vs bare',
        'loop busy',
        'CPU µs/req',
        'target',
      ],
      rows,
    ),
    '',
    table(
      ['db', 'server RSS at start', 'server peak RSS', 'bare peak RSS', 'licenses / activations', 'seeding'],
      memory,
    ),
    '',
    `Target (SQLite): ${reports[0]?.verdict.target ?? ''}. PostgreSQL is reported, not judged.`,
    '',
  ].join('\n');
}

function onSignal(signal: NodeJS.Signals): void {
  if (interruptedBy) {
    for (const child of children) child.killNow();
    process.exit(130);
  }
  interruptedBy = signal;
  progress(`\n${signal}: stopping the load and the servers…`);
  for (const instance of running) instance.stop();
}

async function main(): Promise<number> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => {
    for (const child of children) child.killNow();
  });
  try {
    const parsed = parseArgs(process.argv.slice(2), {
      values: ['db', 'licenses', 'sample', 'data-dir', 'seconds', 'warmup', 'connections', 'workers'],
      flags: ['reseed', 'cpu-prof', 'strict'],
    });
    const args = commonArgs(parsed, ['sqlite']);
    const options: Options = {
      seconds: positiveInteger(parsed.get('seconds') ?? process.env.BENCH_SECONDS, '--seconds', 15),
      warmupSeconds: positiveInteger(parsed.get('warmup'), '--warmup', 3),
      connections: positiveInteger(parsed.get('connections'), '--connections', 100),
      cpuProfile: parsed.has('cpu-prof'),
      strict: parsed.has('strict'),
      workers: positiveInteger(parsed.get('workers'), '--workers', 1),
    };
    const startedAt = new Date().toISOString();
    const environment = {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      loadAverage: loadavg()
        .map((value) => value.toFixed(2))
        .join(' '),
      connections: options.connections,
      workers: options.workers,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      server: 'src/server/main.ts via tsx',
      host: LOOPBACK_HOST,
    };
    const reports: DbReport[] = [];
    for (const db of args.dbs) reports.push(await benchmarkDb(db, args, options));
    process.stdout.write(formatReport(reports, environment));
    mkdirSync(resultsDir, { recursive: true });
    const path = join(resultsDir, `licensing-${startedAt.replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      path,
      `${JSON.stringify({ startedAt, finishedAt: new Date().toISOString(), environment, licenses: args.licenses, reports }, null, 2)}\n`,
    );
    process.stdout.write(`Results written to ${path}\n`);
    const failed = reports.some((report) => report.verdict.enforced && !report.verdict.passed);
    return failed && options.strict ? 1 : 0;
  } catch (error) {
    progress(`Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return interruptedBy ? 130 : 1;
  } finally {
    await Promise.all([...children].map((child) => child.stop()));
  }
}

process.exitCode = await main();
