// Metered usage under load (issue "AI credits", Speed and scale): batched ingest of usage events
// (100 events a batch, 100 connections) through `POST /usage/events` on a database of 100 000
// licenses, then the read a usage page makes (`GET /usage/licenses/{id}`), measured with
// autocannon; afterwards every event the server said it counted is looked up: none lost, none
// counted twice, the counters equal to the events, and a replayed sample counting nothing.
//
//   node --import tsx bench/usage.ts [--db sqlite|postgres|both] [--licenses N] [--seconds S]
//     [--connections C] [--batch N] [--reseed] [--strict] [--cpu-prof]
//
// Seeding is the licensing benchmark's (bench/licensing-seed.ts; reused when the size matches).
// The seeded plans' metered features are set to bill past their allowance, so events count
// instead of being refused at the allowance. Targets (SQLite): at least 20 000 events/s and the
// read under 20 ms p99. PostgreSQL (BENCH_POSTGRES_URL or TEST_POSTGRES_URL) is reported beside.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { API_BASE_PATH } from '../src/shared/routes.js';
import { apiPaths } from '../src/shared/api-paths.js';
import { createDatabase, type DatabaseHandle } from '../src/server/platform/db/database.js';
import {
  displayParts,
  generateApiToken,
  hashApiToken,
} from '../src/server/identity/api-tokens/token-format.js';
import { type ChildHandle, startPortalServer } from './child-process.js';
import { round } from './report.js';
import {
  type BenchDb,
  commonArgs,
  parseArgs,
  positiveInteger,
  repoRoot,
  seed,
  seedTarget,
} from './licensing-seed.js';

const API_KEY = 'dap-web-public';
const INGEST_PATH = `${API_BASE_PATH}${apiPaths.usage.events}`;
const READ_PATH = `${API_BASE_PATH}${apiPaths.usage.license.replace('/:id', '')}`;
const LICENSES = 100_000;
/** Licenses the load spreads over (a random pick of the seeded ones). */
const TARGET_LICENSES = 20_000;
const TARGET_EVENTS_PER_SECOND = 20_000;
const TARGET_READ_P99_MS = 20;
/** Metered on every seeded plan. */
const FEATURE_KEY = 'ai_chat';

const progress = (message: string) => process.stderr.write(`${message}\n`);
const resultsDir = join(import.meta.dirname, 'results');

interface Options {
  seconds: number;
  connections: number;
  batch: number;
  strict: boolean;
  /** Where the server's CPU profile goes (`--cpu-prof`); none when unset. */
  cpuProfileDir: string | undefined;
}

interface SentBatch {
  licenseId: string;
  events: { id: string; feature: string; amount: number }[];
}

interface IngestTally {
  batches200: number;
  other: Record<string, number>;
  counted: number;
  countedAmount: number;
  duplicates: number;
  refused: number;
}

interface DbReport {
  db: BenchDb;
  ingest: {
    seconds: number;
    eventsPerSecond: number;
    batchesPerSecond: number;
    latencyMs: { p50: number; p99: number; max: number };
    tally: IngestTally;
    errors: number;
    timeouts: number;
  };
  consistency: {
    eventsInDatabase: number;
    eventsSent: number;
    amountInDatabase: number;
    counterIncrease: number;
    replayedBatches: number;
    replayCounted: number;
    passed: boolean;
  };
  read: {
    requestsPerSecond: number;
    latencyMs: { p50: number; p99: number; max: number };
    non2xx: number;
    /** The server's CPU time per read (user + system, all threads). */
    cpuMicrosecondsPerRequest: number | undefined;
    /** How late the server's timers fired, and its collections' pauses, while the reads ran. */
    eventLoopLagMs: { p99: number; max: number } | undefined;
    gc: { count: number; totalMs: number; maxMs: number } | undefined;
  };
  verdict: { eventsPerSecond: boolean; readP99: boolean; consistent: boolean; enforced: boolean };
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * The platform token the AI backend would hold (`usage:write`), written straight to the database
 * with an administrator to own it, as the console would make them; the token itself is this run's.
 */
async function backendToken(handle: DatabaseHandle): Promise<string> {
  const now = new Date();
  const token = generateApiToken();
  const adminId = randomUUID();
  await handle.db
    .insertInto('users')
    .values({
      id: adminId,
      email: `bench-usage-admin-${adminId}@example.com`,
      // Never signed in with: the token is all the benchmark uses.
      password_hash: '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2h1c2FnZQ$YmVuY2gtdXNhZ2Utbm90LWEtaGFzaA',
      role: 'admin',
      status: 'active',
      full_name: null,
      company: null,
      preferences: '{}',
      email_verified_at: now.toISOString(),
      password_changed_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  await handle.db
    .insertInto('api_tokens')
    .values({
      id: randomUUID(),
      user_id: adminId,
      kind: 'platform',
      name: 'bench AI backend',
      token_hash: hashApiToken(token),
      ...displayParts(token),
      scopes: JSON.stringify(['usage:write']),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      last_used_at: null,
      last_used_ip: null,
      revoked_at: null,
      revoked_by: null,
    })
    .execute();
  return token;
}

/** Bills past the allowance on every seeded metered feature, and picks the licenses the load uses. */
async function prepare(handle: DatabaseHandle): Promise<{ licenseIds: string[]; featureKey: string }> {
  await handle.db
    .updateTable('plan_features')
    .set({ overage_policy: 'bill', overage_price_minor: 100, overage_per_units: 1000, overage_cap: null })
    .where('limit_value', 'is not', null)
    .execute();
  const rows = await handle.db
    .selectFrom('licenses')
    .select('id')
    .where('status', '=', 'active')
    .orderBy(sql`random()`)
    .limit(TARGET_LICENSES)
    .execute();
  return { licenseIds: rows.map((row) => row.id), featureKey: FEATURE_KEY };
}

async function runIngest(
  baseUrl: string,
  token: string,
  licenseIds: string[],
  featureKey: string,
  options: Options,
  runId: string,
) {
  const sent: SentBatch[] = [];
  const tally: IngestTally = {
    batches200: 0,
    other: {},
    counted: 0,
    countedAmount: 0,
    duplicates: 0,
    refused: 0,
  };
  /** Batches whose answer arrived; those still on the wire when the load stopped may count too. */
  const answered = new Set<number>();
  let next = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        duration: options.seconds,
        timeout: 10,
        headers: {
          'x-api-key': API_KEY,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        requests: [
          {
            method: 'POST',
            path: INGEST_PATH,
            setupRequest: (request) => {
              const number = next++;
              const licenseId = licenseIds[number % licenseIds.length] as string;
              const events = Array.from({ length: options.batch }, (_, index) => ({
                id: `${runId}-${number}-${index}`,
                feature: featureKey,
                amount: 1 + ((number + index) % 5),
              }));
              sent[number] = { licenseId, events };
              return {
                ...request,
                body: JSON.stringify({
                  events: events.map((event) => ({ ...event, license_id: licenseId })),
                }),
              };
            },
            onResponse: (status, body) => {
              if (status !== 200) {
                tally.other[status] = (tally.other[status] ?? 0) + 1;
                return;
              }
              tally.batches200 += 1;
              const answer = JSON.parse(body) as { results: { id: string; outcome: string }[] };
              answered.add(Number(answer.results[0]?.id.split('-')[1]));
              for (const item of answer.results) {
                if (item.outcome === 'counted') {
                  tally.counted += 1;
                  const [, , number, index] = item.id.split('-');
                  tally.countedAmount += 1 + ((Number(number) + Number(index)) % 5);
                } else if (item.outcome === 'duplicate') tally.duplicates += 1;
                else tally.refused += 1;
              }
            },
          },
        ],
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error as Error) : resolve(done)),
    );
  });
  return { result, sent, answered: [...answered].map((number) => sent[number] as SentBatch), tally };
}

/** Sends the batches again, ten at a time; answers how many of their events counted this time. */
async function replay(baseUrl: string, token: string, batches: SentBatch[]): Promise<number> {
  let counted = 0;
  let next = 0;
  const sendNext = async (): Promise<void> => {
    const batch = batches[next++];
    if (!batch) return;
    const answer = await json<{ counted: number }>(
      await fetch(`${baseUrl}${INGEST_PATH}`, {
        method: 'POST',
        headers: {
          'x-api-key': API_KEY,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          events: batch.events.map((event) => ({ ...event, license_id: batch.licenseId })),
        }),
      }),
    );
    counted += answer.counted;
    await sendNext();
  };
  await Promise.all(Array.from({ length: 10 }, sendNext));
  return counted;
}

async function runRead(baseUrl: string, token: string, licenseIds: string[], seconds: number) {
  let next = 0;
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections: 10,
        duration: seconds,
        headers: { 'x-api-key': API_KEY, authorization: `Bearer ${token}` },
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => ({
              ...request,
              path: `${READ_PATH}/${licenseIds[next++ % licenseIds.length] as string}?days=30`,
            }),
          },
        ],
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error as Error) : resolve(done)),
    );
  });
}

const runEvents = async (handle: DatabaseHandle, runId: string) =>
  Number(
    (
      await handle.db
        .selectFrom('usage_events')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('event_id', 'like', `${runId}-%`)
        .executeTakeFirstOrThrow()
    ).count,
  );

async function settled(handle: DatabaseHandle, runId: string): Promise<void> {
  let previous = -1;
  for (;;) {
    const now = await runEvents(handle, runId);
    if (now === previous) return;
    previous = now;
    await delay(500);
  }
}

const counterSum = async (handle: DatabaseHandle) =>
  Number(
    (
      await handle.db
        .selectFrom('usage_counters')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('total'), sql<number>`0`).as('sum'))
        .executeTakeFirstOrThrow()
    ).sum,
  );

async function benchOne(
  db: BenchDb,
  args: ReturnType<typeof commonArgs>,
  options: Options,
): Promise<DbReport> {
  const target = seedTarget(args, db);
  await seed(target);
  const handle = createDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  let server: ChildHandle | undefined;
  try {
    const { licenseIds, featureKey } = await prepare(handle);
    const countersBefore = await counterSum(handle);
    const token = await backendToken(handle);
    server = await startPortalServer({
      repoRoot,
      dataDir: target.dataDir,
      databaseUrl: target.databaseUrl,
      cpuProfileDir: options.cpuProfileDir,
    });
    const runId = `bench${randomBytes(4).toString('hex')}`;
    progress(
      `[${db}] ingest: ${options.connections} connections, ${options.batch} events a batch, ${options.seconds} s`,
    );
    const ingest = await runIngest(server.baseUrl, token, licenseIds, featureKey, options, runId);
    // The load generator stops with batches still on the wire: wait until the server has
    // finished them (the count of this run's events holds still) before reading anything.
    await settled(handle, runId);
    const stored = await handle.db
      .selectFrom('usage_events')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string>('amount').as('amount'),
      ])
      .where('event_id', 'like', `${runId}-%`)
      .executeTakeFirstOrThrow();
    const counterIncrease = (await counterSum(handle)) - countersBefore;
    // Every answered batch again: all of it is in the database already, so nothing may count.
    const replayed = ingest.answered;
    const replayCounted = await replay(server.baseUrl, token, replayed);
    progress(`[${db}] read: GET ${READ_PATH}/{id}, 10 connections, ${options.seconds} s`);
    await server.probeSnapshot();
    const cpuBefore = server.readCpuSeconds();
    const read = await runRead(server.baseUrl, token, licenseIds, options.seconds);
    const cpuAfter = server.readCpuSeconds();
    const probe = await server.probeSnapshot();

    const eventsInDatabase = Number(stored.count);
    const amountInDatabase = Number(stored.amount ?? 0);
    // Batches still on the wire when the load stopped may have counted without an answer: the
    // database holds at least what the answers said and at most what was sent, the counters
    // always equal the events, and nothing of an answered batch counts twice.
    const sentEvents = ingest.sent.filter(Boolean).length * options.batch;
    const consistent =
      eventsInDatabase >= ingest.tally.counted &&
      eventsInDatabase <= sentEvents &&
      amountInDatabase === counterIncrease &&
      ingest.tally.duplicates === 0 &&
      replayCounted === 0;
    const eventsPerSecond = ingest.tally.counted / options.seconds;
    return {
      db,
      ingest: {
        seconds: options.seconds,
        eventsPerSecond: Math.round(eventsPerSecond),
        batchesPerSecond: round(ingest.result.requests.average),
        latencyMs: {
          p50: ingest.result.latency.p50,
          p99: ingest.result.latency.p99,
          max: ingest.result.latency.max,
        },
        tally: ingest.tally,
        errors: ingest.result.errors,
        timeouts: ingest.result.timeouts,
      },
      consistency: {
        eventsInDatabase,
        eventsSent: sentEvents,
        amountInDatabase,
        counterIncrease,
        replayedBatches: replayed.length,
        replayCounted,
        passed: consistent,
      },
      read: {
        requestsPerSecond: round(read.requests.average),
        latencyMs: { p50: read.latency.p50, p99: read.latency.p99, max: read.latency.max },
        non2xx: read.non2xx,
        cpuMicrosecondsPerRequest:
          cpuBefore === undefined || cpuAfter === undefined || read.requests.total === 0
            ? undefined
            : Math.round(((cpuAfter - cpuBefore) * 1e6) / read.requests.total),
        eventLoopLagMs: probe ? { p99: probe.eventLoopLagMs.p99, max: probe.eventLoopLagMs.max } : undefined,
        gc: probe?.gc,
      },
      verdict: {
        eventsPerSecond: eventsPerSecond >= TARGET_EVENTS_PER_SECOND,
        readP99: read.latency.p99 < TARGET_READ_P99_MS && read.non2xx === 0,
        consistent,
        enforced: db === 'sqlite',
      },
    };
  } finally {
    await server?.stop();
    await handle.db.destroy();
  }
}

function print(report: DbReport): void {
  const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const { ingest, consistency, read, verdict } = report;
  const lines = [
    `== ${report.db}${verdict.enforced ? '' : ' (reported beside SQLite; targets not enforced)'}`,
    `ingest  ${ingest.eventsPerSecond.toLocaleString('en-US')} events/s (${ingest.batchesPerSecond} batches/s), ` +
      `batch p50 ${ingest.latencyMs.p50} ms, p99 ${ingest.latencyMs.p99} ms; ` +
      `answers: ${ingest.tally.batches200} ok, other ${JSON.stringify(ingest.tally.other)}, ` +
      `${ingest.errors} errors, ${ingest.timeouts} timeouts  [${pass(verdict.eventsPerSecond)} ≥ ${TARGET_EVENTS_PER_SECOND}]`,
    `events  answered counted ${ingest.tally.counted}, in the database ${consistency.eventsInDatabase} ` +
      `(sent ${consistency.eventsSent}); ` +
      `amount ${consistency.amountInDatabase} = counters +${consistency.counterIncrease}; ` +
      `${consistency.replayedBatches} batches replayed counted ${consistency.replayCounted}  [${pass(verdict.consistent)}]`,
    `read    ${read.requestsPerSecond} req/s, p50 ${read.latencyMs.p50} ms, p99 ${read.latencyMs.p99} ms, ` +
      `non-2xx ${read.non2xx}  [${pass(verdict.readP99)} < ${TARGET_READ_P99_MS} ms]`,
    `        server CPU ${read.cpuMicrosecondsPerRequest ?? '?'} µs a read; event loop late by p99 ` +
      `${read.eventLoopLagMs?.p99 ?? '?'} ms, max ${read.eventLoopLagMs?.max ?? '?'} ms; ` +
      `${read.gc ? `${read.gc.count} collections, ${read.gc.totalMs} ms in all, longest ${read.gc.maxMs} ms` : 'collections unknown'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2), {
    values: ['db', 'licenses', 'seconds', 'connections', 'batch', 'data-dir'],
    flags: ['reseed', 'strict', 'cpu-prof'],
  });
  if (!parsed.has('licenses')) parsed.set('licenses', String(LICENSES));
  parsed.set('sample', '1000');
  const args = commonArgs(parsed, ['sqlite']);
  const options: Options = {
    seconds: positiveInteger(parsed.get('seconds'), '--seconds', 10),
    connections: positiveInteger(parsed.get('connections'), '--connections', 100),
    batch: positiveInteger(parsed.get('batch'), '--batch', 100),
    strict: parsed.has('strict'),
    cpuProfileDir: parsed.has('cpu-prof') ? join(resultsDir, `usage-cpu-${Date.now()}`) : undefined,
  };
  const startedAt = new Date().toISOString();
  const reports: DbReport[] = [];
  for (const db of args.dbs) {
    const report = await benchOne(db, args, options);
    print(report);
    reports.push(report);
  }
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `usage-${startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt, finishedAt: new Date().toISOString(), cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverage: loadavg(), options, reports }, null, 2)}\n`,
  );
  progress(
    `Wrote ${file} (load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')})`,
  );
  const failed = reports.some(
    (report) =>
      !report.verdict.consistent ||
      (report.verdict.enforced && (!report.verdict.eventsPerSecond || !report.verdict.readP99)),
  );
  return options.strict && failed ? 1 : reports.every((report) => report.verdict.consistent) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    progress(
      `The usage benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
