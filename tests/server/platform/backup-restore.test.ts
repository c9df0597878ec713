import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { leaseSigningKeysSchema } from '../../../src/shared/api/licenses.js';
import { verifyLease } from '../../../src/shared/lease.js';
import { createPostgresDatabase } from '../../support/databases.js';
import { runCli } from '../../support/run-cli.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { buyInSandbox } from '../helpers/invoice-helpers.js';
import { activate, expectActivation, machine } from '../helpers/license-helpers.js';

const PASSPHRASE = 'a passphrase for the drill';

/** What a customer's day leaves behind: a sign-up (confirmed by mail), a sandbox purchase, an activation. */
async function customerDay(s: TestServer, label: string) {
  const { email, password } = await s.createVerifiedUser();
  const { access_token: token } = await s.login(email, password);
  const bought = await buyInSandbox(s, token);
  const hardwareId = machine(label);
  const activation = expectActivation(await activate(s, token, bought.license.license_key, hardwareId), 201);
  return {
    email,
    password,
    paymentId: bought.payment.id,
    licenseKey: bought.license.license_key,
    hardwareId,
    lease: activation.lease,
  };
}
type CustomerDay = Awaited<ReturnType<typeof customerDay>>;

/** The settings of the server under test, as the CLI reads them (the same data folder and database). */
const cliEnvOf = (s: TestServer): Record<string, string> => ({
  DATA_DIR: s.config.dataDir,
  JWT_SECRET: s.config.jwt.secret ?? '',
  LOG_LEVEL: 'silent',
  WEB_DIR: join(s.config.dataDir, 'no-web-build'),
  ...(s.config.databaseUrl ? { DATABASE_URL: s.config.databaseUrl } : {}),
});

describeOnEveryDatabase('backups: the restore drill', (server) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  let folder = '';

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'portal-backup-drill-'));
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await rm(folder, { recursive: true, force: true });
  });

  /** A new, empty place to restore into: a data folder that does not exist yet, and on PostgreSQL an empty database. */
  async function emptyTarget(s: TestServer): Promise<Record<string, string>> {
    const dataDir = join(folder, `restored-${randomBytes(4).toString('hex')}`);
    const env = { ...cliEnvOf(s), DATA_DIR: dataDir, WEB_DIR: join(dataDir, 'no-web-build') };
    if (s.dialect === 'sqlite') return env;
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    return { ...env, DATABASE_URL: database.url };
  }

  async function startOn(env: Record<string, string>, s: TestServer): Promise<FastifyInstance> {
    const app = await buildApp(
      loadConfig({ ...env, NODE_ENV: 'test', AUTH_RATE_LIMIT_PER_MINUTE: '10000' }),
      {
        logger: false,
        clock: s.clock,
      },
    );
    cleanups.push(() => app.close());
    return app;
  }

  const signIn = (app: FastifyInstance, who: CustomerDay) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/json',
      headers: { 'x-api-key': WEB_API_KEY },
      payload: { email: who.email, password: who.password },
    });

  it('brings back every write acknowledged before the backup, with keys that still verify its licence files', async () => {
    const s = server();
    const before = [await customerDay(s, 'before-1'), await customerDay(s, 'before-2')];
    // An installer offered for download: its file lives in DATA_DIR/releases, its row in the database.
    // Random bytes do not compress, so the archive spans many encrypted records.
    const installer = join(folder, 'Assistant-1.0.0.AppImage');
    await writeFile(installer, randomBytes(300_000));
    const published = await runCli(
      ['publish-release', '--platform', 'linux', '--version', '1.0.0', installer],
      cliEnvOf(s),
    );
    expect(published).toMatchObject({ code: 0, stderr: '' });

    // The server keeps taking writes while the backup is taken.
    let writing = true;
    const during = (async () => {
      const done: CustomerDay[] = [];
      while (writing) done.push(await customerDay(s, 'during'));
      return done;
    })();
    const archive = join(folder, 'drill.tar.gz.enc');
    const backup = await runCli(['backup', '--out', archive, '--passphrase-env', 'DRILL_PASSPHRASE'], {
      ...cliEnvOf(s),
      DRILL_PASSPHRASE: PASSPHRASE,
    });
    writing = false;
    expect(backup.stderr).toBe('');
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.stdout).toContain(`Backup written and read back: ${archive}`);
    expect(backup.stdout).toMatch(/encrypted\)/);
    // Signed with the generated lease key of DATA_DIR/keys, which must be in the archive.
    expect(backup.stdout).toMatch(/schema 0\d{3}-[\w-]+, [1-9]\d* key files?/);
    expect((await during).length).toBeGreaterThan(0);
    const after = await customerDay(s, 'after');

    const target = await emptyTarget(s);
    const restored = await runCli(['restore', archive, '--passphrase-env', 'DRILL_PASSPHRASE'], {
      ...target,
      DRILL_PASSPHRASE: PASSPHRASE,
    });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(
      s.dialect === 'sqlite' ? 'SQLite integrity check: ok' : 'pg_restore: ok',
    );

    const app = await startOn(target, s);
    const keys = leaseSigningKeysSchema.parse(
      (
        await app.inject({ url: '/api/v1/licensing/public-key', headers: { 'x-api-key': WEB_API_KEY } })
      ).json(),
    );
    for (const who of before) {
      expect((await signIn(app, who)).statusCode).toBe(200);
      const payment = await app.db
        .selectFrom('payments')
        .select('status')
        .where('id', '=', who.paymentId)
        .executeTakeFirst();
      expect(payment?.status).toBe('paid');
      const check = await app.inject({
        method: 'POST',
        url: '/api/v1/licenses/validate',
        headers: { 'x-api-key': WEB_API_KEY },
        payload: { license_key: who.licenseKey, hardware_id: who.hardwareId },
      });
      expect(check.json()).toMatchObject({ valid: true });
      // The licence file the machine holds still verifies with the keys the restored server serves.
      const verified = await verifyLease(who.lease, {
        keys,
        hardwareId: who.hardwareId,
        nowSeconds: Math.floor(s.clock.now().getTime() / 1000),
      });
      expect(verified).toMatchObject({ ok: true });
    }
    const restoredInstaller = join(
      target['DATA_DIR'] ?? '',
      'releases',
      'linux',
      '1.0.0',
      'Assistant-1.0.0.AppImage',
    );
    expect((await readFile(restoredInstaller)).equals(await readFile(installer))).toBe(true);
    const release = await app.db
      .selectFrom('releases')
      .select('sha256')
      .where('version', '=', '1.0.0')
      .executeTakeFirst();
    expect(release?.sha256).toBe(
      createHash('sha256')
        .update(await readFile(installer))
        .digest('hex'),
    );

    // What came after the backup is not in it: the restore is the backup, not the live data.
    expect((await signIn(app, after)).statusCode).toBe(401);
    expect(
      await app.db.selectFrom('payments').select('id').where('id', '=', after.paymentId).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses a wrong passphrase, an archive cut short and a data folder or database that is not empty', async () => {
    const s = server();
    await customerDay(s, 'refusals');
    const env = { ...cliEnvOf(s), DRILL_PASSPHRASE: PASSPHRASE };
    const encrypted = join(folder, 'refusals.tar.gz.enc');
    const plain = join(folder, 'refusals.tar.gz');
    expect(
      await runCli(['backup', '--out', encrypted, '--passphrase-env', 'DRILL_PASSPHRASE'], env),
    ).toMatchObject({ code: 0 });
    expect(await runCli(['backup', '--out', plain], env)).toMatchObject({ code: 0 });

    const target = await emptyTarget(s);
    const wrong = await runCli(['restore', encrypted, '--passphrase-env', 'WRONG'], {
      ...target,
      WRONG: 'not the passphrase',
    });
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr).toContain('Wrong passphrase');
    const withoutPassphrase = await runCli(['restore', encrypted], target);
    expect(withoutPassphrase.stderr).toContain(
      'The archive is encrypted: give its passphrase with --passphrase-env',
    );

    // One byte changed on the way (a bad disk, a bad copy): it does not authenticate.
    const tampered = join(folder, 'tampered.tar.gz.enc');
    const bytes = await readFile(encrypted);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0x01;
    await writeFile(tampered, bytes);
    const damaged = await runCli(['restore', tampered, '--passphrase-env', 'DRILL_PASSPHRASE'], {
      ...target,
      DRILL_PASSPHRASE: PASSPHRASE,
    });
    expect(damaged).toMatchObject({ code: 1, stdout: '' });
    expect(damaged.stderr).toContain('The archive is damaged: a part of it does not authenticate.');

    for (const archive of [encrypted, plain]) {
      await truncate(archive, Math.floor((await stat(archive)).size / 2));
      const cut = await runCli(['restore', archive, '--passphrase-env', 'DRILL_PASSPHRASE'], {
        ...target,
        DRILL_PASSPHRASE: PASSPHRASE,
      });
      expect(cut).toMatchObject({ code: 1, stdout: '' });
      expect(cut.stderr).toMatch(/cut short/);
    }
    // A refused restore leaves the folder as empty as it found it, ready for the next try.
    expect(existsSync(target['DATA_DIR']!) ? await readdir(target['DATA_DIR']!) : []).toEqual([]);

    const fresh = join(folder, 'refusals-again.tar.gz');
    expect(await runCli(['backup', '--out', fresh], env)).toMatchObject({ code: 0 });
    const intoLive = await runCli(['restore', fresh], cliEnvOf(s));
    expect(intoLive).toMatchObject({ code: 1, stdout: '' });
    expect(intoLive.stderr).toContain(`DATA_DIR (${s.config.dataDir}) is not empty`);
    if (s.dialect === 'postgres') {
      // An empty folder, but the server's own database, which holds everything.
      const intoLiveDatabase = await runCli(['restore', fresh], {
        ...target,
        DATABASE_URL: s.config.databaseUrl ?? '',
      });
      expect(intoLiveDatabase.stderr).toContain('The database of DATABASE_URL is not empty');
    }
    // The archive written over an existing one would lose it: refused too.
    const again = await runCli(['backup', '--out', fresh], env);
    expect(again.stderr).toContain('exists already');
    expect((await readFile(fresh)).length).toBeGreaterThan(0);
  });
});
