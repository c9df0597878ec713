// The security log's export in constant memory (issue "Enterprise organisations", exports for
// audits): seeds a SQLite database with a year of security events at two sizes, starts the real
// server on each, downloads `GET /admin/security-events/export` as CSV, and prints the rows, the
// time, and the server's resident memory before and at its peak during the download. An export
// that held the rows in memory would grow with them; a streamed one stays flat.
//
//   node --import tsx bench/exports.ts [--events N]   (default 100 000 and 1 000 000)
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../src/server/platform/db/database.js';
import { migrateToLatest } from '../src/server/platform/db/migrate.js';
import { API_BASE_PATH } from '../src/shared/routes.js';
import { apiPaths } from '../src/shared/api-paths.js';
import { startPortalServer } from './child-process.js';
import { repoRoot } from './licensing-seed.js';

const MB = 1024 * 1024;
const YEAR_MS = 365 * 86_400_000;
const TYPES = ['login_succeeded', 'license_updated', 'organisation_seat_assigned', 'api_token_used'];
const progress = (message: string) => process.stderr.write(`${message}\n`);

const sizeArgument = process.argv.indexOf('--events');
const sizes = sizeArgument > 0 ? [Number(process.argv[sizeArgument + 1])] : [100_000, 1_000_000];
if (sizes.some((size) => !Number.isInteger(size) || size < 1))
  throw new Error('--events takes a whole number');

async function seed(dataDir: string, count: number) {
  const handle = createDatabase({ dataDir, databaseUrl: undefined });
  await migrateToLatest(handle.db);
  const start = Date.now() - YEAR_MS;
  const BATCH = 1000;
  for (let done = 0; done < count; done += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - done) }, (_, offset) => {
      const index = done + offset;
      return {
        id: randomUUID(),
        type: TYPES[index % TYPES.length]!,
        severity: 'info' as const,
        user_id: null,
        actor_id: null,
        ip: '198.51.100.7',
        user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) DesktopAIAssistant/2.4.0',
        details: JSON.stringify({ organisation_id: randomUUID(), index, route: '/api/v1/licenses/validate' }),
        created_at: new Date(start + Math.floor((index / count) * YEAR_MS)).toISOString(),
      };
    });
    await handle.db.insertInto('security_events').values(rows).execute();
    if ((done / BATCH) % 100 === 0)
      progress(`  seeded ${done.toLocaleString('en-US')} of ${count.toLocaleString('en-US')}`);
  }
  await handle.db.destroy();
}

async function measure(count: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-exports-'));
  const password = randomBytes(18).toString('base64url');
  try {
    progress(`Seeding ${count.toLocaleString('en-US')} security events over a year…`);
    await seed(dataDir, count);
    const server = await startPortalServer({ repoRoot, dataDir, adminPassword: password });
    try {
      const headers = { 'x-api-key': 'dap-web-public', 'content-type': 'application/json' };
      const login = await fetch(`${server.baseUrl}${API_BASE_PATH}${apiPaths.auth.loginJson}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'bench-admin@example.com', password }),
      });
      if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
      const { access_token: token } = (await login.json()) as { access_token: string };
      // Settle after start-up, then take the resting memory.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      server.takeSampledPeakRss();
      const before = server.readRss() ?? 0;
      const begin = performance.now();
      const response = await fetch(
        `${server.baseUrl}${API_BASE_PATH}${apiPaths.admin.securityEventsExport}?format=csv`,
        { headers: { ...headers, authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } },
      );
      if (!response.ok || !response.body) throw new Error(`export failed: ${response.status}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body) {
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === 10) lines += 1;
      }
      const seconds = (performance.now() - begin) / 1000;
      const peak = server.takeSampledPeakRss() ?? 0;
      // Beside the seeded events: those the server wrote itself (the administrator created, signed in).
      const rows = lines - 1;
      console.log(
        `[exports] ${count.toLocaleString('en-US').padStart(9)} events: ${rows.toLocaleString('en-US')} rows, ` +
          `${(bytes / MB).toFixed(0)} MB of CSV in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en-US')} rows/s); ` +
          `server RSS ${(before / MB).toFixed(0)} MB before, ${(peak / MB).toFixed(0)} MB at peak (+${((peak - before) / MB).toFixed(0)} MB)`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

for (const size of sizes) await measure(size);
