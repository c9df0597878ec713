// What each piece of a license check costs on its own, in one process with nothing else running in
// it: the database read (the check's prepared statement), building and signing a new answer, and
// serving a kept one. Together with `bench/licensing.ts`'s bare route of a check's size (HTTP alone),
// these are the floors a check cannot go below.
//
//   node --import tsx bench/check-floors.ts [--licenses N] [--sample N]
//
// Uses the SQLite database `bench/licensing-seed.ts` made (seeding it first when missing).
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDatabase } from '../src/server/platform/db/database.js';
import { createCheckAnswers } from '../src/server/licensing/licenses/check-answers.js';
import { createLicenseCheckReads } from '../src/server/licensing/licenses/check-repository.js';
import { createLicenseChecksService } from '../src/server/licensing/licenses/check-service.js';
import { createHeartbeats } from '../src/server/licensing/licenses/heartbeats.js';
import { createLeaseSigner } from '../src/server/licensing/leases/lease-signer.js';
import { createPlanCatalogueCache } from '../src/server/catalogue/plans/catalogue-cache.js';
import { systemClock } from '../src/server/platform/clock.js';
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

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2), { values: ['licenses', 'sample'], flags: [] });
  const args = commonArgs(parsed, ['sqlite']);
  const count = positiveInteger(parsed.get('sample'), '--sample', 20_000);
  const target = seedTarget(args, 'sqlite');
  const pairs = (await seed(target)).sample.slice(0, count);
  const keysDir = await mkdtemp(join(tmpdir(), 'check-floors-'));

  const handle = createDatabase({ databaseUrl: undefined, dataDir: target.dataDir });
  const reads = createLicenseCheckReads(handle.raw);
  const leases = await createLeaseSigner({
    dataDir: keysDir,
    configuredKey: undefined,
    issuer: 'bench',
    ttlSeconds: 7 * 86_400,
    clock: systemClock,
  });
  const heartbeats = createHeartbeats({
    writer: { write: async () => undefined, close: async () => undefined },
    flushIntervalMs: 3_600_000,
    onFlushError: () => undefined,
  });
  const service = (entries: number) =>
    createLicenseChecksService({
      clock: systemClock,
      leases,
      planCatalogue: createPlanCatalogueCache(handle.db),
      reads,
      heartbeats,
      answers: createCheckAnswers({ maxEntries: entries, maxBytes: Number.MAX_SAFE_INTEGER }),
      leaseReuseShare: 0.1,
    });
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
      `  so: building and signing an answer               ${(newAnswer - read).toFixed(1).padStart(7)} µs`,
      `      finding a kept one                           ${(keptAnswer - read).toFixed(1).padStart(7)} µs`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    await heartbeats.close();
    reads.close();
    await handle.db.destroy();
    await rm(keysDir, { recursive: true, force: true });
  }
}

await main();
