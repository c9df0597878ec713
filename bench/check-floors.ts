// What each piece of a license check costs on its own, in one process with nothing else running in
// it: the database read (the check's prepared statement), building and signing a new answer, the
// offline allowance a new lease reserves (as the server writes it, and its statements alone), and
// serving a kept one. Together with `bench/licensing.ts`'s bare route of a check's size (HTTP alone),
// these are the floors a check cannot go below.
//
//   node --import tsx bench/check-floors.ts [--licenses N] [--sample N]
//
// Uses the SQLite database `bench/licensing-seed.ts` made (seeding it first when missing).
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { SQLITE_FILE_NAME } from '../src/server/platform/db/database.js';
import type { Database } from '../src/server/platform/db/tables.js';
import { createUsageReservations } from '../src/server/licensing/usage/reservations.js';
import type { UsageReserver } from '../src/server/licensing/leases/lease-signer.js';
import { systemClock } from '../src/server/platform/clock.js';
import { createCheckParts } from './check-parts.js';
import { commonArgs, parseArgs, positiveInteger, seed, seedTarget } from './licensing-seed.js';

const ROUNDS = 3;

/** Microseconds per call of `run` over `count` calls, the best of {@link ROUNDS} rounds. */
async function timePerCall(count: number, run: (index: number) => unknown): Promise<number> {
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let index = 0; index < count; index++) await run(index);
    best = Math.min(best, ((performance.now() - started) * 1000) / count);
  }
  return best;
}

type ReserveRequest = Parameters<UsageReserver>[0];

/**
 * The statements each reservation runs, as Kysely compiles them (SQL and values), caught by its
 * log on a connection of their own: replayed without Kysely, they are what the write itself costs.
 */
async function reservationStatements(file: string, requests: ReserveRequest[]): Promise<CompiledQuery[][]> {
  let caught: CompiledQuery[] = [];
  const connection = new SqliteDatabase(file);
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: connection }),
    log: (event) => {
      // The transaction's own begin and commit are the replay's to make.
      if (!/^(begin|commit|rollback)/i.test(event.query.sql)) caught.push(event.query);
    },
  });
  const reserve = createUsageReservations({ db, clock: systemClock });
  const perRequest: CompiledQuery[][] = [];
  try {
    for (const request of requests) {
      caught = [];
      await reserve(request);
      perRequest.push(caught);
    }
  } finally {
    await db.destroy();
  }
  return perRequest;
}

/** Runs each reservation's statements with better-sqlite3 alone, one write transaction each. */
function replayer(file: string, perRequest: CompiledQuery[][]) {
  const connection = new SqliteDatabase(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const prepared = new Map<string, SqliteDatabase.Statement>();
  const statement = (sql: string) => {
    let found = prepared.get(sql);
    if (!found) prepared.set(sql, (found = connection.prepare(sql)));
    return found;
  };
  const replay = connection.transaction((queries: CompiledQuery[]) => {
    for (const query of queries) {
      const prepared = statement(query.sql);
      if (prepared.reader) prepared.all(...query.parameters);
      else prepared.run(...query.parameters);
    }
  });
  return {
    run: (index: number) => replay.immediate(perRequest[index % perRequest.length] ?? []),
    close: () => connection.close(),
  };
}

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2), { values: ['licenses', 'sample'], flags: [] });
  const args = commonArgs(parsed, ['sqlite']);
  const count = positiveInteger(parsed.get('sample'), '--sample', 20_000);
  const target = seedTarget(args, 'sqlite');
  const pairs = (await seed(target)).sample.slice(0, count);
  const parts = await createCheckParts(target.dataDir);
  const { handle, reads } = parts;
  const service = (entries: number) =>
    parts.checks({ maxEntries: entries, maxBytes: Number.MAX_SAFE_INTEGER });
  try {
    const day = new Date();
    const [dayStart, monthStart] = [
      new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())).toISOString(),
      new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1)).toISOString(),
    ];
    const pair = (index: number) => pairs[index % pairs.length] as (typeof pairs)[number];
    const read = await timePerCall(pairs.length, (index) =>
      reads.read(pair(index).license_key, pair(index).hardware_id, dayStart, monthStart),
    );
    // Nothing kept: every check builds its features, signs a lease and writes the JSON.
    const uncached = service(0);
    const newAnswer = await timePerCall(pairs.length, (index) => uncached.validate(pair(index)));
    // A new answer whose lease reserves the machine's offline allowance, as the server's does.
    const reserve = createUsageReservations({ db: handle.db, clock: systemClock });
    const requests: ReserveRequest[] = [];
    const reservingLeases = await parts.signer((request) => {
      if (requests.length < pairs.length) requests.push(request);
      return reserve(request);
    });
    const reserving = parts.checks({ maxEntries: 0, maxBytes: 0 }, reservingLeases);
    const newReserved = await timePerCall(pairs.length, (index) => reserving.validate(pair(index)));
    const reservation = await timePerCall(requests.length, (index) =>
      reserve(requests[index] as ReserveRequest),
    );
    const file = join(target.dataDir, SQLITE_FILE_NAME);
    const statements = await reservationStatements(file, requests);
    const replay = replayer(file, statements);
    const reservationAlone = await timePerCall(statements.length, replay.run);
    replay.close();
    const perReservation = statements.reduce((sum, each) => sum + each.length, 0) / statements.length;

    // Everything kept: the same checks again find their answers.
    const cached = service(pairs.length);
    for (const each of pairs) await cached.validate(each);
    const keptAnswer = await timePerCall(pairs.length, (index) => cached.validate(pair(index)));

    const [one, five] = loadavg();
    const lines = [
      '',
      `License check floors on ${args.licenses.toLocaleString('en-US')} licenses (SQLite), ${pairs.length.toLocaleString('en-US')} machines, best of ${ROUNDS} rounds; load average ${one?.toFixed(2)} / ${five?.toFixed(2)}`,
      `  database read (one prepared statement)           ${read.toFixed(1).padStart(7)} µs`,
      `  check with a new answer (read + build + sign)    ${newAnswer.toFixed(1).padStart(7)} µs`,
      `  check with a kept answer (read + state + lookup) ${keptAnswer.toFixed(1).padStart(7)} µs`,
      `  check with a new answer and its reservation      ${newReserved.toFixed(1).padStart(7)} µs`,
      `  a reservation alone, as the server makes it      ${reservation.toFixed(1).padStart(7)} µs (${requests.length.toLocaleString('en-US')} reservations)`,
      `  its ${perReservation.toFixed(1)} statements alone (better-sqlite3)       ${reservationAlone.toFixed(1).padStart(7)} µs`,
      `  so: building and signing an answer               ${(newAnswer - read).toFixed(1).padStart(7)} µs`,
      `      finding a kept one                           ${(keptAnswer - read).toFixed(1).padStart(7)} µs`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    await parts.close();
  }
}

await main();
