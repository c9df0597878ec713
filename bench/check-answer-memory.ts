// What a kept license-check answer costs in memory, without HTTP or timing: real checks of a seeded
// database (leases signed, offline allowances reserved, as the server does) fill the store, and the
// heap and the memory outside it are compared, after full collections, with the same checks made
// with nothing kept. Independent of the machine's load; the figure the store's byte budget counts
// (`ENTRY_OVERHEAD_BYTES` plus its strings) is printed beside it.
//
//   node --expose-gc --import tsx bench/check-answer-memory.ts [--licenses 10000] [--sample N]
//
// Works on a copy of the SQLite database `bench/licensing-seed.ts` made (seeding it first when
// missing), so the reservations it writes stay out of the benchmarks' data.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, SQLITE_FILE_NAME } from '../src/server/platform/db/database.js';
import { createCheckAnswers } from '../src/server/licensing/licenses/check-answers.js';
import { createLicenseCheckReads } from '../src/server/licensing/licenses/check-repository.js';
import { createLicenseChecksService } from '../src/server/licensing/licenses/check-service.js';
import { createHeartbeats } from '../src/server/licensing/licenses/heartbeats.js';
import { createLeaseSigner } from '../src/server/licensing/leases/lease-signer.js';
import { createUsageReservations } from '../src/server/licensing/usage/reservations.js';
import { createPlanCatalogueCache } from '../src/server/catalogue/plans/catalogue-cache.js';
import { systemClock } from '../src/server/platform/clock.js';
import { commonArgs, parseArgs, positiveInteger, seed, seedTarget } from './licensing-seed.js';

const collect = (globalThis as { gc?: () => void }).gc;

/** The heap after full collections, and what lives outside it (Buffers' bytes, native memory). */
function settledMemory() {
  // Several rounds: weak references and finalizers free more on the next one.
  for (let round = 0; round < 4; round++) collect?.();
  const { heapUsed, external } = process.memoryUsage();
  return { heapUsed, external };
}

async function main(): Promise<void> {
  if (!collect) throw new Error('run with node --expose-gc (the measure needs full collections)');
  const parsed = parseArgs(process.argv.slice(2), { values: ['licenses', 'sample'], flags: [] });
  if (!parsed.has('licenses')) parsed.set('licenses', '10000');
  const args = commonArgs(parsed, ['sqlite']);
  const target = seedTarget(args, 'sqlite');
  const seeded = await seed(target);
  const pairs = seeded.sample.slice(
    0,
    positiveInteger(parsed.get('sample'), '--sample', seeded.sample.length),
  );
  const workDir = await mkdtemp(join(tmpdir(), 'check-answer-memory-'));
  await copyFile(join(target.dataDir, SQLITE_FILE_NAME), join(workDir, SQLITE_FILE_NAME));

  const handle = createDatabase({ databaseUrl: undefined, dataDir: workDir });
  const reads = createLicenseCheckReads(handle.raw);
  const leases = await createLeaseSigner({
    dataDir: workDir,
    configuredKey: undefined,
    issuer: 'bench',
    ttlSeconds: 7 * 86_400,
    clock: systemClock,
    reserveUsage: createUsageReservations({ db: handle.db, clock: systemClock }),
  });
  const heartbeats = createHeartbeats({
    writer: { write: async () => undefined, close: async () => undefined },
    flushIntervalMs: 3_600_000,
    onFlushError: () => undefined,
  });
  const planCatalogue = createPlanCatalogueCache(handle.db);
  const service = (answers: ReturnType<typeof createCheckAnswers>) =>
    createLicenseChecksService({
      clock: systemClock,
      leases,
      planCatalogue,
      reads,
      heartbeats,
      answers,
      leaseReuseShare: 0.1,
    });
  try {
    // Nothing kept, twice over every machine: reservations made, check-ins noted, statements and
    // feature blocks warm, so what the kept answers add is all that differs afterwards.
    const none = service(createCheckAnswers({ maxEntries: 0, maxBytes: 0 }));
    for (let pass = 0; pass < 2; pass++) for (const pair of pairs) await none.validate(pair);
    const before = settledMemory();
    const answers = createCheckAnswers({ maxEntries: pairs.length, maxBytes: Number.MAX_SAFE_INTEGER });
    const kept = service(answers);
    let answerBytes = 0;
    for (const pair of pairs) answerBytes += (await kept.validate(pair)).length;
    const after = settledMemory();
    const per = (bytes: number) =>
      Math.round(bytes / answers.size)
        .toLocaleString('en-US')
        .padStart(7);
    const [one, five] = loadavg();
    process.stdout.write(
      [
        '',
        `Kept license-check answers: ${answers.size.toLocaleString('en-US')} of ${pairs.length.toLocaleString('en-US')} machines (${args.licenses.toLocaleString('en-US')} licenses, SQLite); load average ${one?.toFixed(2)} / ${five?.toFixed(2)}`,
        `  an answer as sent                ${per(answerBytes)} bytes`,
        `  heap (V8) an answer kept         ${per(after.heapUsed - before.heapUsed)} bytes`,
        `  outside the heap (Buffers, …)    ${per(after.external - before.external)} bytes`,
        `  what the byte budget counts      ${per(answers.bytes)} bytes`,
        '',
      ].join('\n'),
    );
  } finally {
    await heartbeats.close();
    reads.close();
    await handle.db.destroy();
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
