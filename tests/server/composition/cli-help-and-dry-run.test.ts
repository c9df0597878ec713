import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, SQLITE_FILE_NAME } from '../../../src/server/platform/db/database.js';
import { migrations } from '../../../src/server/platform/db/migrate.js';
import {
  createPostgresDatabase,
  type DialectUnderTest,
  postgresSkipReason,
  TEST_POSTGRES_URL,
} from '../../support/databases.js';
import { runCli } from '../../support/run-cli.js';

const COMMANDS = [
  'migrate',
  'backup',
  'restore',
  'create-admin',
  'reset-password',
  'publish-release',
  'rotate-keys',
  'retry-mail',
  'sandbox-renew',
];

describe('npm run cli -- --help', () => {
  it('prints the usage of every command on stdout and exits 0, needing no settings', async () => {
    // Not even a valid configuration: help must work before anything is set up.
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = await runCli(args, { PORT: 'not a port' });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^Usage: npm run cli -- <command> \[options\]/);
      for (const command of COMMANDS) expect(result.stdout).toContain(`\n  ${command}`);
    }
  });

  it("prints one command's usage for <command> --help and help <command>", async () => {
    for (const command of COMMANDS) {
      const result = await runCli([command, '--help'], {});
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(new RegExp(`^Usage: npm run cli -- ${command}\\b`));
      expect(result.stdout).not.toContain('Commands:');
      expect(await runCli(['help', command], {})).toEqual(result);
    }
    expect((await runCli(['backup', '--help'], {})).stdout).toContain('--passphrase-env');
  });

  it('still refuses an unknown command, on stderr with the usage', async () => {
    const result = await runCli(['backpu', '--help'], {});
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^Unknown command: backpu\n\nUsage: /);
  });
});

function defineDryRunSuite(dialect: DialectUnderTest): void {
  let dataDir = '';
  let env: Record<string, string> = {};
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-dry-run-'));
    const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    drop = postgres?.drop;
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(postgres ? { DATABASE_URL: postgres.url } : {}) };
  });
  afterAll(async () => {
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  const names = Object.keys(migrations).sort();

  it('lists the migrations that would run, runs none, and then says there are none', async () => {
    if (dialect === 'sqlite') {
      const none = await runCli(['migrate', '--dry-run'], env);
      expect(none).toMatchObject({ code: 0, stderr: '' });
      expect(none.stdout).toContain(`every migration would run:\n  ${names.join('\n  ')}\n`);
      // A dry run leaves no database behind.
      expect(existsSync(join(dataDir, SQLITE_FILE_NAME))).toBe(false);
    }

    // The database of an older release: all but the last two migrations.
    const older = names.at(-3) ?? '';
    const { db } = createDatabase({ databaseUrl: env['DATABASE_URL'], dataDir });
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo(older)).error).toBeUndefined();
    } finally {
      await db.destroy();
    }
    const pending = names.slice(-2);
    const dryRun = await runCli(['migrate', '--dry-run'], env);
    expect(dryRun).toEqual({
      code: 0,
      stdout: `The database is at schema ${older}. Would run, in this order:\n  ${pending.join('\n  ')}\nNothing was changed.\n`,
      stderr: '',
    });
    // It changed nothing: the real run applies exactly those two.
    const real = await runCli(['migrate'], env);
    expect(real).toMatchObject({ code: 0, stdout: `Applied: ${pending.join(', ')}\n` });
    expect((await runCli(['migrate', '--dry-run'], env)).stdout).toBe(
      `The database is up to date (schema ${names.at(-1)}); nothing would run.\n`,
    );
  });
}

describe('npm run cli -- migrate --dry-run [sqlite]', () => defineDryRunSuite('sqlite'));
if (TEST_POSTGRES_URL)
  describe('npm run cli -- migrate --dry-run [postgres]', () => defineDryRunSuite('postgres'));
else
  describe.skip(`npm run cli -- migrate --dry-run [postgres: skipped, ${postgresSkipReason}]`, () =>
    undefined);
