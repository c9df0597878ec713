// Seeds a database for the licensing benchmark (bench/licensing.ts): users, licenses of the seeded
// paid plans, two activations per license and some usage counters, through the server's own
// migrations, then writes a random sample of (license_key, hardware_id) pairs for the load phase.
//
//   node --import tsx bench/licensing-seed.ts [--db sqlite|postgres] [--licenses N] [--reseed]
//
// A database that already holds the requested size (and whose sample file matches) is reused.
import { randomFillSync, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { createDatabase, SQLITE_FILE_NAME } from '../src/server/platform/db/database.js';
import { migrateToLatest } from '../src/server/platform/db/migrate.js';
import { currentPeriodStart } from '../src/server/catalogue/features/usage-periods.js';
import { generateLicenseKey } from '../src/shared/license-key.js';
import { FLOATING_PLAN_CODE } from './licensing-floating-seed.js';

export const repoRoot = resolve(import.meta.dirname, '..');

export type BenchDb = 'sqlite' | 'postgres';

export interface SeedSize {
  licenses: number;
  activationsPerLicense: number;
  users: number;
}

export interface SamplePair {
  license_key: string;
  hardware_id: string;
}

export interface SeedTarget {
  db: BenchDb;
  size: SeedSize;
  /** SQLite: the server's DATA_DIR (portal.sqlite inside). PostgreSQL: keys and the sample file. */
  dataDir: string;
  /** PostgreSQL only: the benchmark database (created when missing). */
  databaseUrl?: string;
  sampleSize: number;
  reseed: boolean;
}

export interface SeedOutcome {
  reused: boolean;
  seconds: number;
  rows: { users: number; licenses: number; activations: number; usageCounters: number };
  sample: SamplePair[];
  samplePath: string;
}

interface SampleFile {
  db: BenchDb;
  size: SeedSize;
  seededAt: string;
  seedSeconds: number;
  rows: SeedOutcome['rows'];
  pairs: SamplePair[];
}

export const FULL_LICENSES = 1_000_000;
/** Pairs for the load phase; each route gets half, so a route's first check of a machine is a cold one. */
export const DEFAULT_SAMPLE = 100_000;
const ACTIVATIONS_PER_LICENSE = 2;
const LICENSES_PER_USER = 10;
/** A dummy, never-verified hash: hashing 100 000 real passwords would take longer than the seeding. */
const DUMMY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2htYXJrc2FsdA$YmVuY2htYXJrLW5vdC1hLXJlYWwtaGFzaA';
const SQLITE_BATCH = 50_000;
const POSTGRES_BATCH = 10_000;
/** Every fifth license has this month's counters of its two metered features. */
const COUNTER_EVERY = 5;

const progress = (message: string) => process.stderr.write(`${message}\n`);

export function seedSize(licenses: number): SeedSize {
  return {
    licenses,
    activationsPerLicense: ACTIVATIONS_PER_LICENSE,
    users: Math.max(1, Math.ceil(licenses / LICENSES_PER_USER)),
  };
}

/** Where a size's SQLite data directory lives by default (git-ignored `data/`). */
export const defaultDataDir = (db: BenchDb, licenses: number) =>
  join(repoRoot, 'data', 'bench-licensing', `${db}-${licenses}`);

/** The benchmark database next to the base URL's: `bench_licensing` at full size, else with the size. */
export function benchDatabaseUrl(baseUrl: string, licenses: number): string {
  const url = new URL(baseUrl);
  url.pathname = `/${licenses === FULL_LICENSES ? 'bench_licensing' : `bench_licensing_${licenses}`}`;
  return url.href;
}

/** Shows rows/s while a table fills, at most every two seconds. */
class Meter {
  private readonly started = performance.now();
  private lastPrint = 0;
  constructor(
    private readonly table: string,
    private readonly total: number,
    private readonly note = '',
  ) {}
  tick(done: number): void {
    const now = performance.now();
    if (done < this.total && now - this.lastPrint < 2_000) return;
    this.lastPrint = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    const share = ((done / this.total) * 100).toFixed(0).padStart(3);
    progress(
      `  ${this.table.padEnd(14)} ${share}%  ${done.toLocaleString('en-US')} / ${this.total.toLocaleString('en-US')} rows, ` +
        `${rate.toLocaleString('en-US')} rows/s${this.note}, ${seconds.toFixed(1)} s`,
    );
  }
}

const licenseNote = (size: SeedSize) =>
  ` (each with ${size.activationsPerLicense} activations and 1 in ${COUNTER_EVERY} with usage counters)`;

/** Distinct random license indexes for the sample, spread over the whole table. */
function pickSample(licenses: number, sampleSize: number): Map<number, number> {
  const wanted = Math.min(sampleSize, licenses);
  const picked = new Map<number, number>(); // license index -> which of its activations
  while (picked.size < wanted) {
    const index = Math.floor(Math.random() * licenses);
    if (!picked.has(index)) picked.set(index, Math.floor(Math.random() * ACTIVATIONS_PER_LICENSE));
  }
  return picked;
}

const randomBytes = (bytes: Uint8Array) => randomFillSync(bytes);
const hardwareId = () => `bench-hw-${randomFillSync(Buffer.alloc(12)).toString('hex')}`;

interface Plan {
  id: string;
  max_activations: number;
}
interface Catalogue {
  plans: Plan[];
  meteredFeatureIds: string[];
}

/** What the rows of license `index` look like; the same generator feeds both databases. */
function* licenseRows(size: SeedSize, catalogue: Catalogue, userIds: string[], sample: Map<number, number>) {
  const now = new Date();
  const createdAt = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  // Seen a day ago: the first check of each machine in the load phase writes its heartbeat.
  const lastSeenAt = new Date(now.getTime() - 86_400_000).toISOString();
  const expiresAt = new Date(now.getTime() + 5 * 365 * 86_400_000).toISOString();
  for (let index = 0; index < size.licenses; index += 1) {
    const plan = catalogue.plans[index % catalogue.plans.length] as Plan;
    const license = {
      id: randomUUID(),
      license_key: generateLicenseKey(randomBytes),
      user_id: userIds[index % userIds.length] as string,
      plan_id: plan.id,
      expires_at: expiresAt,
      max_activations: plan.max_activations,
      created_at: createdAt,
    };
    const activations = Array.from({ length: size.activationsPerLicense }, (_, seat) => ({
      id: randomUUID(),
      license_id: license.id,
      hardware_id: hardwareId(),
      device_name: `Bench machine ${seat + 1}`,
      platform: seat % 2 === 0 ? 'win32' : 'darwin',
      app_version: '1.0.0',
      activated_at: createdAt,
      last_seen_at: lastSeenAt,
    }));
    const seat = sample.get(index);
    const pair =
      seat === undefined
        ? undefined
        : {
            license_key: license.license_key,
            hardware_id: (activations[seat] as { hardware_id: string }).hardware_id,
          };
    const counters =
      index % COUNTER_EVERY === 0
        ? catalogue.meteredFeatureIds.map((featureId, order) => ({
            license_id: license.id,
            feature_id: featureId,
            period_start: currentPeriodStart('month', now),
            total: (index + order) % 50,
          }))
        : [];
    yield { license, activations, counters, pair };
  }
}

function userRow(index: number, at: string) {
  return {
    id: randomUUID(),
    email: `bench-user-${index}@example.com`,
    password_hash: DUMMY_PASSWORD_HASH,
    role: 'user',
    status: 'active',
    preferences: '{}',
    email_verified_at: at,
    created_at: at,
    updated_at: at,
  };
}

async function migrate(target: SeedTarget): Promise<void> {
  const { db } = createDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// SQLite

/**
 * The seeded licenses, without the floating scenario's (added beside them by the benchmark): with
 * them counted, every run after the first found the wrong count and seeded again.
 */
const NODE_LOCKED_LICENSES = `licenses where plan_id not in (select id from plans where code = '${FLOATING_PLAN_CODE}')`;

function sqliteCounts(file: string): SeedOutcome['rows'] | undefined {
  if (!existsSync(file)) return undefined;
  const sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) => {
      try {
        return (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      } catch {
        return 0;
      }
    };
    return {
      users: count('users'),
      licenses: count(NODE_LOCKED_LICENSES),
      activations: count('activations'),
      usageCounters: count('usage_counters'),
    };
  } finally {
    sqlite.close();
  }
}

function sqliteHasPair(file: string, pair: SamplePair): boolean {
  const sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return (
      sqlite
        .prepare(
          `select 1 from licenses l join activations a on a.license_id = l.id
           where l.license_key = ? and a.hardware_id = ?`,
        )
        .get(pair.license_key, pair.hardware_id) !== undefined
    );
  } finally {
    sqlite.close();
  }
}

function seedSqlite(
  target: SeedTarget,
  sample: Map<number, number>,
): { pairs: SamplePair[]; rows: SeedOutcome['rows'] } {
  const sqlite = new SqliteDatabase(join(target.dataDir, SQLITE_FILE_NAME));
  sqlite.pragma('journal_mode = WAL');
  // Only for the seeding: a crash means seeding again anyway.
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -1000000');
  sqlite.pragma('foreign_keys = OFF');
  const catalogue: Catalogue = {
    plans: sqlite
      .prepare(
        `select id, max_activations from plans
         where max_activations >= ? and is_active = 1 and archived_at is null order by sort_order`,
      )
      .all(target.size.activationsPerLicense) as Plan[],
    meteredFeatureIds: (
      sqlite.prepare(`select id from features where kind = 'metered' order by key`).all() as { id: string }[]
    ).map((row) => row.id),
  };
  if (catalogue.plans.length === 0) throw new Error('the catalogue has no active plan with 2 or more seats');

  const insertUser = sqlite.prepare(
    `insert into users (id, email, password_hash, role, status, preferences, email_verified_at, created_at, updated_at)
     values (@id, @email, @password_hash, @role, @status, @preferences, @email_verified_at, @created_at, @updated_at)`,
  );
  const insertLicense = sqlite.prepare(
    `insert into licenses (id, license_key, user_id, plan_id, subscription_id, status, expires_at, max_activations,
       base_owner_id, metadata, revoked_reason, revoked_at, created_at, updated_at)
     values (@id, @license_key, @user_id, @plan_id, null, 'active', @expires_at, @max_activations,
       null, null, null, null, @created_at, @created_at)`,
  );
  const insertActivation = sqlite.prepare(
    `insert into activations (id, license_id, hardware_id, device_name, platform, app_version, activated_at,
       last_seen_at, deactivated_at, deactivated_reason)
     values (@id, @license_id, @hardware_id, @device_name, @platform, @app_version, @activated_at,
       @last_seen_at, null, null)`,
  );
  const insertCounter = sqlite.prepare(
    `insert into usage_counters (license_id, feature_id, period_start, total)
     values (@license_id, @feature_id, @period_start, @total)`,
  );

  const at = new Date(Date.now() - 60 * 86_400_000).toISOString();
  const userIds: string[] = [];
  const users = new Meter('users', target.size.users);
  const insertUsers = sqlite.transaction((from: number, to: number) => {
    for (let index = from; index < to; index += 1) {
      const row = userRow(index, at);
      insertUser.run(row);
      userIds.push(row.id);
    }
  });
  for (let from = 0; from < target.size.users; from += SQLITE_BATCH) {
    const to = Math.min(target.size.users, from + SQLITE_BATCH);
    insertUsers(from, to);
    users.tick(to);
  }

  const pairs: SamplePair[] = [];
  let counters = 0;
  const meter = new Meter('licenses', target.size.licenses, licenseNote(target.size));
  const rows = licenseRows(target.size, catalogue, userIds, sample);
  const insertBatch = sqlite.transaction((count: number) => {
    for (let done = 0; done < count; done += 1) {
      const next = rows.next();
      if (next.done) return;
      const { license, activations, counters: usage, pair } = next.value;
      insertLicense.run(license);
      for (const activation of activations) insertActivation.run(activation);
      for (const counter of usage) insertCounter.run(counter);
      counters += usage.length;
      if (pair) pairs.push(pair);
    }
  });
  for (let from = 0; from < target.size.licenses; from += SQLITE_BATCH) {
    insertBatch(Math.min(SQLITE_BATCH, target.size.licenses - from));
    meter.tick(Math.min(target.size.licenses, from + SQLITE_BATCH));
  }
  progress('  checkpointing the WAL…');
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  return {
    pairs,
    rows: {
      users: target.size.users,
      licenses: target.size.licenses,
      activations: target.size.licenses * target.size.activationsPerLicense,
      usageCounters: counters,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

const adminUrl = (databaseUrl: string) => {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.href;
};
const databaseName = (databaseUrl: string) => decodeURIComponent(new URL(databaseUrl).pathname.slice(1));

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function postgresDatabaseExists(databaseUrl: string): Promise<boolean> {
  return withClient(adminUrl(databaseUrl), async (client) => {
    const result = await client.query('select 1 from pg_database where datname = $1', [
      databaseName(databaseUrl),
    ]);
    return (result.rowCount ?? 0) > 0;
  });
}

async function recreatePostgresDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`);
  await withClient(adminUrl(databaseUrl), async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  });
}

async function postgresCounts(databaseUrl: string): Promise<SeedOutcome['rows'] | undefined> {
  if (!(await postgresDatabaseExists(databaseUrl))) return undefined;
  return withClient(databaseUrl, async (client) => {
    const count = async (table: string) => {
      try {
        return Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n);
      } catch {
        return 0;
      }
    };
    return {
      users: await count('users'),
      licenses: await count(NODE_LOCKED_LICENSES),
      activations: await count('activations'),
      usageCounters: await count('usage_counters'),
    };
  });
}

async function postgresHasPair(databaseUrl: string, pair: SamplePair): Promise<boolean> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query(
      `select 1 from licenses l join activations a on a.license_id = l.id
       where l.license_key = $1 and a.hardware_id = $2`,
      [pair.license_key, pair.hardware_id],
    );
    return (result.rowCount ?? 0) > 0;
  });
}

/** Columns of a batch as arrays, for `insert … select from unnest($1::text[], …)`. */
function columns<T extends Record<string, unknown>>(rows: T[], names: (keyof T)[]): unknown[][] {
  return names.map((name) => rows.map((row) => row[name]));
}

async function seedPostgres(
  target: SeedTarget,
  sample: Map<number, number>,
): Promise<{ pairs: SamplePair[]; rows: SeedOutcome['rows'] }> {
  const databaseUrl = target.databaseUrl as string;
  return withClient(databaseUrl, async (client) => {
    await client.query('set synchronous_commit = off');
    const catalogue: Catalogue = {
      plans: (
        await client.query(
          `select id, max_activations from plans
           where max_activations >= $1 and is_active = 1 and archived_at is null order by sort_order`,
          [target.size.activationsPerLicense],
        )
      ).rows as Plan[],
      meteredFeatureIds: (
        await client.query(`select id from features where kind = 'metered' order by key`)
      ).rows.map((row: { id: string }) => row.id),
    };
    if (catalogue.plans.length === 0)
      throw new Error('the catalogue has no active plan with 2 or more seats');

    const at = new Date(Date.now() - 60 * 86_400_000).toISOString();
    const userIds: string[] = [];
    const users = new Meter('users', target.size.users);
    for (let from = 0; from < target.size.users; from += POSTGRES_BATCH) {
      const to = Math.min(target.size.users, from + POSTGRES_BATCH);
      const batch = Array.from({ length: to - from }, (_, offset) => userRow(from + offset, at));
      await client.query(
        `insert into users (id, email, password_hash, role, status, preferences, email_verified_at, created_at, updated_at)
         select id, email, $3, 'user', 'active', '{}', $4, $4, $4 from unnest($1::text[], $2::text[]) as t(id, email)`,
        [...columns(batch, ['id', 'email']), DUMMY_PASSWORD_HASH, at],
      );
      for (const row of batch) userIds.push(row.id);
      users.tick(to);
    }

    const pairs: SamplePair[] = [];
    let counters = 0;
    const meter = new Meter('licenses', target.size.licenses, licenseNote(target.size));
    const rows = licenseRows(target.size, catalogue, userIds, sample);
    for (let from = 0; from < target.size.licenses; from += POSTGRES_BATCH) {
      const count = Math.min(POSTGRES_BATCH, target.size.licenses - from);
      const licenses = [];
      const activations = [];
      const usage = [];
      for (let done = 0; done < count; done += 1) {
        const next = rows.next();
        if (next.done) break;
        licenses.push(next.value.license);
        activations.push(...next.value.activations);
        usage.push(...next.value.counters);
        if (next.value.pair) pairs.push(next.value.pair);
      }
      await client.query('begin');
      await client.query(
        `insert into licenses (id, license_key, user_id, plan_id, subscription_id, status, expires_at, max_activations,
           base_owner_id, metadata, revoked_reason, revoked_at, created_at, updated_at)
         select id, license_key, user_id, plan_id, null, 'active', expires_at, max_activations, null, null, null, null,
           created_at, created_at
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[])
           as t(id, license_key, user_id, plan_id, expires_at, max_activations, created_at)`,
        columns(licenses, [
          'id',
          'license_key',
          'user_id',
          'plan_id',
          'expires_at',
          'max_activations',
          'created_at',
        ]),
      );
      await client.query(
        `insert into activations (id, license_id, hardware_id, device_name, platform, app_version, activated_at,
           last_seen_at, deactivated_at, deactivated_reason)
         select id, license_id, hardware_id, device_name, platform, app_version, activated_at, last_seen_at, null, null
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
           as t(id, license_id, hardware_id, device_name, platform, app_version, activated_at, last_seen_at)`,
        columns(activations, [
          'id',
          'license_id',
          'hardware_id',
          'device_name',
          'platform',
          'app_version',
          'activated_at',
          'last_seen_at',
        ]),
      );
      if (usage.length > 0) {
        await client.query(
          `insert into usage_counters (license_id, feature_id, period_start, total)
           select * from unnest($1::text[], $2::text[], $3::text[], $4::int[])`,
          columns(usage, ['license_id', 'feature_id', 'period_start', 'total']),
        );
      }
      await client.query('commit');
      counters += usage.length;
      meter.tick(from + count);
    }
    // What autovacuum would do on a database in use: statistics and the visibility map.
    progress('  vacuum analyze…');
    for (const table of ['users', 'licenses', 'activations', 'usage_counters']) {
      await client.query(`vacuum analyze ${table}`);
    }
    return {
      pairs,
      rows: {
        users: target.size.users,
        licenses: target.size.licenses,
        activations: target.size.licenses * target.size.activationsPerLicense,
        usageCounters: counters,
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------

const samplePathOf = (target: SeedTarget) => join(target.dataDir, 'bench-sample.json');

function readSampleFile(path: string): SampleFile | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SampleFile;
  } catch {
    return undefined;
  }
}

/** Seeds the target unless it already holds the requested size; returns the load sample. */
export async function seed(target: SeedTarget): Promise<SeedOutcome> {
  const { size } = target;
  const samplePath = samplePathOf(target);
  const sqliteFile = join(target.dataDir, SQLITE_FILE_NAME);
  const label =
    target.db === 'sqlite'
      ? sqliteFile
      : `${databaseName(target.databaseUrl ?? '')} (${target.databaseUrl ?? ''})`;
  if (target.db === 'postgres' && !target.databaseUrl)
    throw new Error('PostgreSQL seeding needs a database URL');

  if (!target.reseed) {
    const existing = readSampleFile(samplePath);
    const counts =
      target.db === 'sqlite' ? sqliteCounts(sqliteFile) : await postgresCounts(target.databaseUrl as string);
    const first = existing?.pairs[0];
    if (
      existing &&
      first &&
      counts &&
      counts.licenses === size.licenses &&
      counts.activations === size.licenses * size.activationsPerLicense &&
      existing.size.licenses === size.licenses &&
      existing.pairs.length >= Math.min(target.sampleSize, size.licenses) &&
      (target.db === 'sqlite'
        ? sqliteHasPair(sqliteFile, first)
        : await postgresHasPair(target.databaseUrl as string, first))
    ) {
      progress(
        `Reusing ${label}: ${counts.licenses.toLocaleString('en-US')} licenses, ` +
          `${counts.activations.toLocaleString('en-US')} activations (seeded ${existing.seededAt} in ${existing.seedSeconds} s)`,
      );
      return { reused: true, seconds: 0, rows: counts, sample: existing.pairs, samplePath };
    }
  }

  progress(
    `Seeding ${label}: ${size.users.toLocaleString('en-US')} users, ${size.licenses.toLocaleString('en-US')} licenses, ` +
      `${(size.licenses * size.activationsPerLicense).toLocaleString('en-US')} activations…`,
  );
  const started = performance.now();
  mkdirSync(target.dataDir, { recursive: true });
  rmSync(samplePath, { force: true });
  if (target.db === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqliteFile}${suffix}`, { force: true });
  } else {
    await recreatePostgresDatabase(target.databaseUrl as string);
  }
  await migrate(target);
  const picked = pickSample(size.licenses, target.sampleSize);
  const { pairs, rows } =
    target.db === 'sqlite' ? seedSqlite(target, picked) : await seedPostgres(target, picked);
  // Shuffled, so consecutive requests hit unrelated parts of the tables.
  for (let index = pairs.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [pairs[index], pairs[other]] = [pairs[other] as SamplePair, pairs[index] as SamplePair];
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const file: SampleFile = {
    db: target.db,
    size,
    seededAt: new Date().toISOString(),
    seedSeconds: seconds,
    rows,
    pairs,
  };
  writeFileSync(samplePath, `${JSON.stringify(file)}\n`);
  progress(`Seeded in ${seconds} s; ${pairs.length} sample pairs in ${samplePath}`);
  return { reused: false, seconds, rows, sample: pairs, samplePath };
}

/**
 * Puts back what checks change in a reused database, so each run starts as a freshly seeded one
 * does: every machine last seen a day ago (its first check writes its check-in at once) and no
 * offline allowance reserved. Without it, a run right after another found its machines seen
 * minutes ago and their reservations there, and two runs compared different work.
 */
export async function resetCheckState(target: SeedTarget, pairs: readonly SamplePair[]): Promise<void> {
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  if (target.db === 'sqlite') {
    const sqlite = new SqliteDatabase(join(target.dataDir, SQLITE_FILE_NAME));
    try {
      sqlite.pragma('busy_timeout = 5000');
      const seen = sqlite.prepare(
        `update activations set last_seen_at = ?
         where license_id = (select id from licenses where license_key = ?) and hardware_id = ?`,
      );
      sqlite.transaction(() => {
        for (const pair of pairs) seen.run(dayAgo, pair.license_key, pair.hardware_id);
        sqlite.prepare('delete from usage_reservations').run();
      })();
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      sqlite.close();
    }
    return;
  }
  await withClient(target.databaseUrl as string, async (client) => {
    await client.query(
      `update activations a set last_seen_at = $1 from licenses l
       where l.id = a.license_id and l.license_key = any($2) and a.hardware_id = any($3)`,
      [dayAgo, pairs.map((pair) => pair.license_key), pairs.map((pair) => pair.hardware_id)],
    );
    await client.query('delete from usage_reservations');
  });
}

// ---------------------------------------------------------------------------------------------
// Command line (shared with bench/licensing.ts)

export interface CommonArgs {
  dbs: BenchDb[];
  licenses: number;
  sampleSize: number;
  reseed: boolean;
  dataDir: string | undefined;
  postgresBaseUrl: string | undefined;
}

export function postgresBaseUrlFromEnv(): string | undefined {
  return process.env.BENCH_POSTGRES_URL?.trim() || process.env.TEST_POSTGRES_URL?.trim() || undefined;
}

/** Reads `--name value` and `--flag` arguments; unknown ones are an error. */
export function parseArgs(argv: string[], known: { values: string[]; flags: string[] }): Map<string, string> {
  const parsed = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const [name, inline] = argument.replace(/^--/, '').split('=', 2) as [string, string | undefined];
    if (!argument.startsWith('--')) throw new Error(`unexpected argument ${argument}`);
    if (known.flags.includes(name)) parsed.set(name, 'true');
    else if (known.values.includes(name)) {
      const value = inline ?? argv[(index += 1)];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      parsed.set(name, value);
    } else throw new Error(`unknown option --${name}`);
  }
  return parsed;
}

export function positiveInteger(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive whole number (got ${raw})`);
  return value;
}

export function commonArgs(parsed: Map<string, string>, defaultDbs: BenchDb[]): CommonArgs {
  const db = parsed.get('db') ?? process.env.BENCH_DB;
  const dbs: BenchDb[] =
    db === undefined
      ? defaultDbs
      : db === 'both'
        ? ['sqlite', 'postgres']
        : db === 'sqlite' || db === 'postgres'
          ? [db]
          : [];
  if (dbs.length === 0) throw new Error(`--db must be sqlite, postgres or both (got ${db})`);
  return {
    dbs,
    licenses: positiveInteger(
      parsed.get('licenses') ?? process.env.BENCH_LICENSES,
      '--licenses',
      FULL_LICENSES,
    ),
    sampleSize: positiveInteger(parsed.get('sample') ?? process.env.BENCH_SAMPLE, '--sample', DEFAULT_SAMPLE),
    reseed: parsed.has('reseed'),
    dataDir: parsed.get('data-dir'),
    postgresBaseUrl: postgresBaseUrlFromEnv(),
  };
}

export function seedTarget(args: CommonArgs, db: BenchDb): SeedTarget {
  if (db === 'postgres' && !args.postgresBaseUrl) {
    throw new Error(
      'PostgreSQL needs BENCH_POSTGRES_URL or TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)',
    );
  }
  return {
    db,
    size: seedSize(args.licenses),
    dataDir: args.dataDir ? join(resolve(args.dataDir), db) : defaultDataDir(db, args.licenses),
    ...(db === 'postgres'
      ? { databaseUrl: benchDatabaseUrl(args.postgresBaseUrl as string, args.licenses) }
      : {}),
    sampleSize: args.sampleSize,
    reseed: args.reseed,
  };
}

async function main(): Promise<number> {
  try {
    const parsed = parseArgs(process.argv.slice(2), {
      values: ['db', 'licenses', 'sample', 'data-dir'],
      flags: ['reseed'],
    });
    const args = commonArgs(parsed, ['sqlite']);
    for (const db of args.dbs) await seed(seedTarget(args, db));
    return 0;
  } catch (error) {
    progress(`Seeding failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main();
}
