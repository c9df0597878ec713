// The license check's memory over time (issue "Performance, unblocked"): machines of a seeded
// database check their license in turn, each coming back only after every other has checked,
// for a few minutes at 100 connections, while the server's resident memory is sampled.
//
//   node --import tsx bench/soak.ts [--licenses 200000] [--sample 200000] [--seconds 300]
//     [--connections 100] [--cache-entries N] [--cache-mb N] [--data-dir DIR] [--reseed] [--tsx]
//
// The server runs compiled (`dist/server/main.js`, built first), as `npm start` and the image run
// it: through tsx, its memory holds every module's compiled source as well (about 70 MiB more at
// start). `--tsx` runs the sources through tsx instead.
//
// The seeded sample holds one machine per license, so 200 000 machines take 200 000 licenses (the
// issue's soak had 100 000 licenses of two machines each; the kept answers are per license and
// machine either way). `--cache-entries` and `--cache-mb` are the server's LICENSE_CHECK_CACHE_ENTRIES
// and LICENSE_CHECK_CACHE_MB (their defaults when left out; 0 keeps no answers). SQLite only. Prints checks per second, the server's memory at start, every
// 30 s and at its peak, its CPU per check, and writes bench/results/soak-<timestamp>.json. Each
// sample also splits the resident memory (anonymous and file-backed) and reads V8's heap from the
// server's /metrics, so a peak can be told apart: live objects, heap room V8 kept, or memory
// outside the heap (SQLite's page caches, buffers).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildServer, type ChildHandle, startPortalServer } from './child-process.js';
import {
  commonArgs,
  parseArgs,
  positiveInteger,
  repoRoot,
  resetCheckState,
  seed,
  seedTarget,
} from './licensing-seed.js';

const API_KEY = 'dap-web-public';
/** Lets the soak read the server's own heap figures from /metrics on its port. */
const METRICS_TOKEN = 'soak-metrics-token-of-enough-length';
const STATUS_PATH = '/api/v1/licensing/status';
const SAMPLE_EVERY_MS = 1_000;
const REPORT_EVERY_S = 30;
const MIB = 1024 * 1024;

const progress = (message: string) => process.stderr.write(`${message}\n`);
const mib = (bytes: number | undefined) => (bytes === undefined ? '?' : `${Math.round(bytes / MIB)} MiB`);

/**
 * The resident memory's two parts: anonymous (the heaps, kept answers, SQLite's page caches) and
 * file-backed (the program and the database pages SQLite's memory map has touched).
 */
function rssParts(pid: number): { anon: number; file: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    return { anon: kib('RssAnon'), file: kib('RssFile') };
  } catch {
    return undefined;
  }
}

/** V8's heap as the server's process metrics report it (prom-client's default gauges). */
interface HeapSample {
  heapTotal: number;
  heapUsed: number;
  external: number;
}

async function readHeap(baseUrl: string): Promise<HeapSample | undefined> {
  try {
    const response = await fetch(`${baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(2_000),
    });
    if (!response.ok) return undefined;
    const text = await response.text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    return {
      heapTotal: gauge('nodejs_heap_size_total_bytes'),
      heapUsed: gauge('nodejs_heap_size_used_bytes'),
      external: gauge('nodejs_external_memory_bytes'),
    };
  } catch {
    // Under load the read may time out; that sample goes without the heap's figures.
    return undefined;
  }
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2), {
    values: ['licenses', 'sample', 'seconds', 'connections', 'cache-entries', 'cache-mb', 'data-dir'],
    flags: ['reseed', 'tsx'],
  });
  const compiled = !parsed.has('tsx');
  if (!parsed.has('licenses')) parsed.set('licenses', '200000');
  if (!parsed.has('sample')) parsed.set('sample', '200000');
  const args = commonArgs(parsed, ['sqlite']);
  const seconds = positiveInteger(parsed.get('seconds'), '--seconds', 300);
  const connections = positiveInteger(parsed.get('connections'), '--connections', 100);
  const cacheEntries = parsed.get('cache-entries');
  if (cacheEntries !== undefined && !/^\d+$/.test(cacheEntries))
    throw new Error(`--cache-entries must be a whole number (got ${cacheEntries})`);
  const cacheMb = parsed.get('cache-mb');
  if (cacheMb !== undefined && !/^\d+$/.test(cacheMb))
    throw new Error(`--cache-mb must be a whole number (got ${cacheMb})`);

  const target = seedTarget(args, 'sqlite');
  const seeded = await seed(target);
  const pairs = seeded.sample;
  if (seeded.reused) {
    progress('Putting back the machines’ check-ins and reservations as seeded…');
    await resetCheckState(target, pairs);
  }
  const load = loadavg();
  progress(
    `${pairs.length.toLocaleString('en-US')} machines of ${args.licenses.toLocaleString('en-US')} licenses`,
  );
  if (compiled) {
    progress('Compiling the server into dist/…');
    buildServer(repoRoot);
  }
  const server: ChildHandle = await startPortalServer({
    repoRoot,
    compiled,
    dataDir: target.dataDir,
    env: {
      LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '100000000',
      METRICS_TOKEN,
      ...(cacheEntries === undefined ? {} : { LICENSE_CHECK_CACHE_ENTRIES: cacheEntries }),
      ...(cacheMb === undefined ? {} : { LICENSE_CHECK_CACHE_MB: cacheMb }),
    },
  });
  const startRss = server.readRss();
  const cpuBefore = server.readCpuSeconds();
  const timeline: {
    second: number;
    rssBytes: number | undefined;
    anonBytes: number | undefined;
    fileBytes: number | undefined;
    heap: HeapSample | undefined;
    checks: number;
  }[] = [];
  let next = 0;
  let answered = 0;
  const startedAt = Date.now();
  const sampler = setInterval(() => {
    const second = Math.round((Date.now() - startedAt) / 1000);
    const parts = rssParts(server.pid);
    const sample = {
      second,
      rssBytes: server.readRss(),
      anonBytes: parts?.anon,
      fileBytes: parts?.file,
      heap: undefined as HeapSample | undefined,
      checks: answered,
    };
    timeline.push(sample);
    void readHeap(server.baseUrl).then((heap) => {
      sample.heap = heap;
      if (second > 0 && second % REPORT_EVERY_S === 0)
        progress(
          `  ${second} s: ${mib(sample.rssBytes)} (${mib(sample.anonBytes)} anonymous; V8 heap ` +
            `${mib(heap?.heapUsed)} used of ${mib(heap?.heapTotal)}, ${mib(heap?.external)} external), ` +
            `${answered.toLocaleString('en-US')} checks`,
        );
    });
  }, SAMPLE_EVERY_MS);
  progress(`Checking in turn for ${seconds} s at ${connections} connections (server at ${mib(startRss)})…`);
  const result = await new Promise<autocannon.Result>((resolvePromise, reject) => {
    autocannon(
      {
        url: server.baseUrl,
        connections,
        duration: seconds,
        timeout: 10,
        headers: { 'x-api-key': API_KEY },
        requests: [
          {
            method: 'GET',
            path: STATUS_PATH,
            setupRequest: (request) => {
              const pair = pairs[next++ % pairs.length]!;
              const query = new URLSearchParams({
                license_key: pair.license_key,
                hardware_id: pair.hardware_id,
              });
              return { ...request, path: `${STATUS_PATH}?${query.toString()}` };
            },
            onResponse: () => {
              answered += 1;
            },
          },
        ],
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error as Error) : resolvePromise(done)),
    );
  });
  clearInterval(sampler);
  const cpuAfter = server.readCpuSeconds();
  const peakRss = server.readPeakRss();
  const endRss = server.readRss();
  const endParts = rssParts(server.pid);
  await server.stop();

  const failed = result.non2xx + result.errors + result.timeouts;
  // The sample with the most resident memory, and what it was made of.
  const peakSample = timeline.reduce<(typeof timeline)[number] | undefined>(
    (most, each) => ((each.rssBytes ?? 0) > (most?.rssBytes ?? 0) ? each : most),
    undefined,
  );
  const report = {
    server: compiled ? 'dist/server/main.js' : 'src/server/main.ts through tsx',
    licenses: args.licenses,
    machines: pairs.length,
    seconds,
    connections,
    cacheEntries: cacheEntries === undefined ? 'default' : Number(cacheEntries),
    cacheMb: cacheMb === undefined ? 'default' : Number(cacheMb),
    loadAverageBefore: load,
    loadAverageAfter: loadavg(),
    checksPerSecond: Math.round(result.requests.average),
    checks: result.requests.total,
    rounds: Math.round((result.requests.total / pairs.length) * 100) / 100,
    failed,
    failedBy: { non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts },
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    cpuMicrosecondsPerCheck:
      cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
        ? undefined
        : Math.round(((cpuAfter - cpuBefore) * 1e6) / result.requests.total),
    rssBytes: {
      start: startRss,
      end: endRss,
      peak: peakRss,
      endAnon: endParts?.anon,
      endFile: endParts?.file,
    },
    peakSample,
    timeline,
  };
  const resultsDir = join(import.meta.dirname, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `cache ${report.cacheEntries} entries, ${report.cacheMb} MiB: ${report.checksPerSecond} checks/s (${report.checks.toLocaleString('en-US')} checks, ` +
      `${report.rounds} rounds of ${pairs.length.toLocaleString('en-US')} machines), p50 ${report.latencyMs.p50} ms, ` +
      `p99 ${report.latencyMs.p99} ms, CPU ${report.cpuMicrosecondsPerCheck} µs/check, failed ${failed} ` +
      `(${result.non2xx} not 2xx, ${result.errors} errors, ${result.timeouts} timeouts); ` +
      `server ${mib(startRss)} at start, ${mib(endRss)} at the end (${mib(endParts?.anon)} anonymous, ` +
      `${mib(endParts?.file)} file-backed), peak ${mib(peakRss)}`,
  );
  if (peakSample)
    console.log(
      `largest sample at ${peakSample.second} s: ${mib(peakSample.rssBytes)} (${mib(peakSample.anonBytes)} anonymous, ` +
        `${mib(peakSample.fileBytes)} file-backed); V8 heap ${mib(peakSample.heap?.heapUsed)} used of ` +
        `${mib(peakSample.heap?.heapTotal)}, ${mib(peakSample.heap?.external)} external`,
    );
  console.log(
    `load average before ${load.map((value) => value.toFixed(2)).join(' ')}, after ${report.loadAverageAfter
      .map((value) => value.toFixed(2))
      .join(' ')}; ${file}`,
  );
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    progress(`Soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
