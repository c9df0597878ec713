// The license check's own parts on a seeded SQLite database, built as the server builds them but
// with nothing around them: no HTTP pipeline, no heartbeat writes (they are noted and dropped).
// `bench/check-floors.ts` times them in one process; `bench/licensing-lean.ts` serves them behind
// a bare Fastify route.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlanCatalogueCache } from '../src/server/catalogue/plans/catalogue-cache.js';
import { createCheckAnswers } from '../src/server/licensing/licenses/check-answers.js';
import { createLicenseCheckReads } from '../src/server/licensing/licenses/check-repository.js';
import { createLicenseChecksService } from '../src/server/licensing/licenses/check-service.js';
import { createHeartbeats } from '../src/server/licensing/licenses/heartbeats.js';
import { createLeaseSigner, type UsageReserver } from '../src/server/licensing/leases/lease-signer.js';
import { systemClock } from '../src/server/platform/clock.js';
import { createDatabase } from '../src/server/platform/db/database.js';

/** The server's defaults for kept answers (LICENSE_CHECK_CACHE_ENTRIES, LICENSE_CHECK_CACHE_MB). */
export const SERVER_KEPT_ANSWERS = { maxEntries: 50_000, maxBytes: 32 * 1024 * 1024 } as const;

export type CheckParts = Awaited<ReturnType<typeof createCheckParts>>;

export async function createCheckParts(dataDir: string) {
  const keysDir = await mkdtemp(join(tmpdir(), 'check-parts-'));
  const handle = createDatabase({ databaseUrl: undefined, dataDir });
  const reads = createLicenseCheckReads(handle.raw);
  const signer = (reserveUsage?: UsageReserver) =>
    createLeaseSigner({
      dataDir: keysDir,
      configuredKey: undefined,
      issuer: 'bench',
      ttlSeconds: 7 * 86_400,
      clock: systemClock,
      ...(reserveUsage ? { reserveUsage } : {}),
    });
  const leases = await signer();
  const heartbeats = createHeartbeats({
    writer: { write: async () => undefined, close: async () => undefined },
    flushIntervalMs: 3_600_000,
    onFlushError: () => undefined,
  });
  return {
    handle,
    reads,
    heartbeats,
    signer,
    /** A check service keeping at most `kept` answers, signing with `withLeases` (else the parts' own signer). */
    checks: (kept: { maxEntries: number; maxBytes: number }, withLeases = leases) =>
      createLicenseChecksService({
        clock: systemClock,
        leases: withLeases,
        planCatalogue: createPlanCatalogueCache(handle.db),
        reads,
        heartbeats,
        answers: createCheckAnswers(kept),
        leaseReuseShare: 0.1,
      }),
    async close(): Promise<void> {
      await heartbeats.close();
      reads.close();
      await handle.db.destroy();
      await rm(keysDir, { recursive: true, force: true });
    },
  };
}
