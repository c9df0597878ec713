// The license check's memory over time (issue "Performance, unblocked"): machines of a seeded
// database check their license in turn, each coming back only after every other has checked,
// for a few minutes at 100 connections, while the server's resident memory is sampled.
//
//   node --import tsx bench/soak.ts [--licenses 200000] [--sample 200000] [--seconds 300]
//     [--connections 100] [--cache-entries N] [--cache-mb N] [--data-dir DIR] [--reseed]
//
// The seeded sample holds one machine per license, so 200 000 machines take 200 000 licenses (the
// issue's soak had 100 000 licenses of two machines each; the kept answers are per license and
// machine either way). `--cache-entries` and `--cache-mb` are the server's LICENSE_CHECK_CACHE_ENTRIES
// and LICENSE_CHECK_CACHE_MB (their defaults when left out; 0 keeps no answers). SQLite only. Prints checks per second, the server's memory at start, every
// 30 s and at its peak, its CPU per check, and writes bench/results/soak-<timestamp>.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type ChildHandle, startPortalServer } from './child-process.js';
import { commonArgs, parseArgs, positiveInteger, repoRoot, seed, seedTarget } from './licensing-seed.js';

const API_KEY = 'dap-web-public';
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

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2), {
    values: ['licenses', 'sample', 'seconds', 'connections', 'cache-entries', 'cache-mb', 'data-dir'],
    flags: ['reseed'],
  });
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
  const load = loadavg();
  progress(
    `${pairs.length.toLocaleString('en-US')} machines of ${args.licenses.toLocaleString('en-US')} licenses`,
  );
  const server: ChildHandle = await startPortalServer({
    repoRoot,
    dataDir: target.dataDir,
    env: {
      LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '100000000',
      ...(cacheEntries === undefined ? {} : { LICENSE_CHECK_CACHE_ENTRIES: cacheEntries }),
      ...(cacheMb === undefined ? {} : { LICENSE_CHECK_CACHE_MB: cacheMb }),
    },
  });
  const startRss = server.readRss();
  const cpuBefore = server.readCpuSeconds();
  const timeline: { second: number; rssBytes: number | undefined; checks: number }[] = [];
  let next = 0;
  let answered = 0;
  const startedAt = Date.now();
  const sampler = setInterval(() => {
    const second = Math.round((Date.now() - startedAt) / 1000);
    timeline.push({ second, rssBytes: server.readRss(), checks: answered });
    if (second > 0 && second % REPORT_EVERY_S === 0)
      progress(`  ${second} s: ${mib(server.readRss())}, ${answered.toLocaleString('en-US')} checks`);
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
  const report = {
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
