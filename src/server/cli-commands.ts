import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import semver from 'semver';
import { z } from 'zod';
import { DOWNLOAD_PLATFORMS } from '../shared/api/licenses.js';
import { RELEASE_CHANNELS, releaseNotesSchema, releaseVersionSchema } from '../shared/api/distribution.js';
import { emailSchema, newPasswordSchema } from '../shared/api/common.js';
import type { ContextName } from './app.js';
import { UsageError } from './cli-usage-error.js';
import { BackupError } from './platform/backup/backup-error.js';
import { systemClock } from './platform/clock.js';
import { type Config, ConfigError, loadConfig } from './platform/config.js';
import { createDatabase, SQLITE_FILE_NAME } from './platform/db/database.js';
import { isUniqueViolation } from './platform/db/errors.js';
import { migrateToLatest, migrations, migrationStatus } from './platform/db/migrate.js';
import { requeueFailedMails } from './platform/mail/outbox-upkeep.js';
import {
  findUserByEmail,
  generatePassword,
  newPasswordProblem,
  promoteToAdministrator,
} from './identity/index.js';
import { securityEventTypes } from './platform/security-log/security-events.js';
import { recordSecurityEvent } from './platform/security-log/service.js';

/** Each command's usage, as `<command> --help` prints it; the CLI's usage lists them all. */
const COMMAND_HELP: Record<string, string> = {
  migrate: `migrate [--dry-run]
      Bring the database schema up to date. --dry-run lists the migrations that would run, and
      runs none. Back up first (see backup).`,
  backup: `backup [--out <file>] [--passphrase-env <VARIABLE>]
      Write one archive of everything a restore needs, while the server keeps serving: the
      database (SQLite's online backup, or pg_dump on PostgreSQL), the secrets and signing keys of
      DATA_DIR/keys, and the published installers; then read it back and check every file.
      --out                 the archive to write (default: portal-backup-<time>.tar.gz in
                            BACKUP_DIR, else the current folder)
      --passphrase-env      encrypt it with the passphrase held in this environment variable
                            (at least 12 characters; scrypt and AES-256-GCM)`,
  restore: `restore <archive> [--passphrase-env <VARIABLE>]
      Bring a backup back into an empty DATA_DIR (and, on PostgreSQL, the empty database of
      DATABASE_URL); refuses a folder or database that holds anything. Every file's checksum and
      the database are checked before it reports success.
      --passphrase-env      the environment variable holding the archive's passphrase`,
  'create-admin': `create-admin --email <e> [--password <p>]
      Create an administrator (or promote an existing account).`,
  'reset-password': `reset-password --email <e> [--password <p>]
      Set a new password and sign the account out everywhere.`,
  'publish-release': `publish-release --platform <linux|windows|macos> --version <v> [--channel stable|beta]
                [--rollout <0-100>] [--notes <text> | --notes-file <path>] <file>
      Copy an installer into RELEASES_DIR and offer it for download (stable) and as an update to
      --rollout % of machines (100).`,
  'rotate-keys': `rotate-keys
      Start signing offline leases with a new key (old leases stay valid).`,
  'retry-mail': `retry-mail
      Queue again the mail whose attempts ran out (after fixing SMTP).`,
  'sandbox-renew': `sandbox-renew --subscription <id> [--card succeeds|declines]
      Sandbox only: bring a subscription's next renewal (or retry, or end of grace) forward to
      now and let it happen; --card first chooses whether the sandbox card pays.`,
};

const USAGE = `Usage: npm run cli -- <command> [options]
       npm run cli -- <command> --help

Commands:
${Object.values(COMMAND_HELP)
  .map((help) => `  ${help}`)
  .join('\n')}

Without --password a strong password is generated and printed once.
The database is the one the server uses (DATABASE_URL, else DATA_DIR/portal.sqlite).`;

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

function parseEmailAndPassword(args: string[]): { email: string; password: string; generated: boolean } {
  let values: { email?: string | undefined; password?: string | undefined };
  try {
    ({ values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' } } }));
  } catch (error) {
    // Unknown options and missing values are usage mistakes too: answer with the usage text.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const email = emailSchema.safeParse(values.email ?? '');
  if (!email.success) throw new UsageError('--email must be a valid e-mail address');
  if (values.password !== undefined) {
    const password = newPasswordSchema.safeParse(values.password);
    if (!password.success)
      throw new UsageError(`--password: ${password.error.issues[0]?.message ?? 'invalid'}`);
    // The same rule as every other new password: an operator's choice is no exception.
    const problem = newPasswordProblem(password.data, email.data);
    if (problem) throw new UsageError(`--password: ${problem}`);
    return { email: email.data, password: password.data, generated: false };
  }
  return { email: email.data, password: generatePassword(), generated: true };
}

const passwordLine = (password: string, generated: boolean) =>
  generated ? `Password: ${password}   (shown only this once)` : 'Password: as given';

async function publish(config: Config, args: string[]): Promise<void> {
  let values: {
    platform?: string | undefined;
    version?: string | undefined;
    channel?: string | undefined;
    rollout?: string | undefined;
    notes?: string | undefined;
    'notes-file'?: string | undefined;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: {
        platform: { type: 'string' },
        version: { type: 'string' },
        channel: { type: 'string' },
        rollout: { type: 'string' },
        notes: { type: 'string' },
        'notes-file': { type: 'string' },
      },
      allowPositionals: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const platform = z.enum(DOWNLOAD_PLATFORMS).safeParse(values.platform);
  if (!platform.success) throw new UsageError(`--platform must be one of ${DOWNLOAD_PLATFORMS.join(', ')}`);
  const version = values.version ?? '';
  // electron-updater compares versions as semver, so an update's version must be one.
  if (!releaseVersionSchema.safeParse(version).success || semver.valid(version) !== version)
    throw new UsageError(
      '--version must look like 1.2.3 (semantic versioning: 2.0.0-beta.1 for a pre-release)',
    );
  const channel = z.enum(RELEASE_CHANNELS).safeParse(values.channel ?? 'stable');
  if (!channel.success) throw new UsageError(`--channel must be one of ${RELEASE_CHANNELS.join(', ')}`);
  const rolloutText = values.rollout ?? '100';
  if (!/^\d{1,3}$/.test(rolloutText) || Number(rolloutText) > 100)
    throw new UsageError('--rollout must be a whole percentage from 0 to 100');
  const rollout = Number(rolloutText);
  if (values.notes !== undefined && values['notes-file'] !== undefined)
    throw new UsageError('give --notes or --notes-file, not both');
  const notesFile = values['notes-file'];
  if (notesFile !== undefined && !existsSync(notesFile)) throw new UsageError(`No such file: ${notesFile}`);
  const notes = releaseNotesSchema.safeParse(
    notesFile === undefined ? (values.notes ?? '') : readFileSync(notesFile, 'utf8'),
  );
  if (!notes.success) throw new UsageError(notes.error.issues[0]?.message ?? 'release notes are not valid');
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError('give exactly one installer file');
  if (!existsSync(file)) throw new UsageError(`No such file: ${file}`);
  const { db } = createDatabase(config);
  try {
    await migrateToLatest(db);
    const { publishRelease } = await import('./distribution/releases.js');
    const release = await publishRelease(db, config.licensing.releasesDir, {
      platform: platform.data,
      version,
      file,
      channel: channel.data,
      rolloutPercent: rollout,
      releaseNotes: notes.data.trim(),
      now: new Date(),
    });
    console.log(
      `Published ${release.file_name} for ${release.platform} ${release.version} (${release.channel}, ` +
        `rollout ${release.rollout_percent} %): ${release.size_bytes} bytes, SHA-256 ${release.sha256}, ` +
        `SHA-512 ${release.sha512 ?? ''}`,
    );
  } catch (error) {
    if (isUniqueViolation(error) || (error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(`${platform.data} ${version} is already published`);
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

const quietLevel = (config: Config) =>
  ['fatal', 'error', 'silent'].includes(config.logLevel) ? config.logLevel : 'warn';

/**
 * The server with the contexts a command works through (all when not named), logging warnings and errors only (unless
 * LOG_LEVEL asks for even less). Loaded when such a command runs: the server's code is most of a
 * command's start-up, which `--help` and the database's own commands need not wait for.
 */
async function startApp(config: Config, contexts?: readonly ContextName[]) {
  const { buildApp } = await import('./app.js');
  return buildApp({ ...config, logLevel: quietLevel(config) }, contexts ? { contexts } : {});
}

async function sandboxRenew(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { subscription: { type: 'string' }, card: { type: 'string' } },
    strict: true,
  });
  if (!values.subscription) throw new UsageError('sandbox-renew needs --subscription <id>');
  const card = values.card;
  if (card !== undefined && card !== 'succeeds' && card !== 'declines')
    throw new UsageError('--card is succeeds or declines');
  const app = await startApp(config);
  try {
    const after = await app.subscriptions.sandboxAdvance(values.subscription, card ? { card } : {});
    const next = after.next_charge
      ? `next charge ${after.next_charge.at} (${after.next_charge.amount_minor} ${after.next_charge.currency} minor units)`
      : 'no further charge';
    console.log(
      `Subscription ${after.id} (${after.plan.name}) is ${after.status}: paid to ${after.current_period_end ?? '-'}, ${next}` +
        (after.grace_ends_at ? `, grace until ${after.grace_ends_at}` : '') +
        '.',
    );
  } finally {
    await app.close();
  }
}

/** `--help` anywhere, `help [command]`: the usage, on stdout, as asked for rather than as a complaint. */
function printHelp(command: string | undefined, args: string[]): boolean {
  if (command === undefined) return false;
  if (command === 'help' || command === '--help' || command === '-h') {
    const topic = args[0];
    console.log(topic && COMMAND_HELP[topic] ? `Usage: npm run cli -- ${COMMAND_HELP[topic]}` : USAGE);
    return true;
  }
  if (!wantsHelp(args)) return false;
  const help = COMMAND_HELP[command];
  if (!help) throw new UsageError(`Unknown command: ${command}`);
  console.log(`Usage: npm run cli -- ${help}`);
  return true;
}

async function migrate(config: Config, args: string[]): Promise<void> {
  let dryRun: boolean | undefined;
  try {
    ({
      values: { 'dry-run': dryRun },
    } = parseArgs({ args, options: { 'dry-run': { type: 'boolean' } } }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const sqliteFile = join(config.dataDir, SQLITE_FILE_NAME);
  if (dryRun && !config.databaseUrl && !existsSync(sqliteFile)) {
    // Opening it would create it: a dry run leaves no file behind.
    console.log(
      `There is no database at ${sqliteFile} yet; every migration would run:\n  ${Object.keys(migrations).join('\n  ')}`,
    );
    return;
  }
  const { db } = createDatabase(config);
  try {
    if (dryRun) {
      const { applied, pending, unknown } = await migrationStatus(db);
      const level = applied.at(-1) ?? '(none)';
      if (unknown.length > 0)
        console.log(
          `The database has migrations this release does not know (a newer release ran them): ${unknown.join(', ')}`,
        );
      console.log(
        pending.length === 0
          ? `The database is up to date (schema ${level}); nothing would run.`
          : `The database is at schema ${level}. Would run, in this order:\n  ${pending.join('\n  ')}\nNothing was changed.`,
      );
      return;
    }
    const results = await migrateToLatest(db);
    const applied = (results ?? [])
      .filter((result) => result.status === 'Success')
      .map((result) => result.migrationName);
    console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  } finally {
    await db.destroy();
  }
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const [command, ...args] = argv;
  if (printHelp(command, args)) return;
  const config = loadConfig(env);
  if (command === 'migrate') {
    await migrate(config, args);
    return;
  }
  if (command === 'backup') {
    await (await import('./cli-backup.js')).backupCommand(config, args, env);
    return;
  }
  if (command === 'restore') {
    await (await import('./cli-backup.js')).restoreCommand(config, args, env);
    return;
  }
  if (command === 'retry-mail') {
    const { db } = createDatabase(config);
    try {
      await migrateToLatest(db);
      const count = await requeueFailedMails(db, new Date());
      console.log(
        count === 0
          ? 'No mail has run out of attempts.'
          : `${count} mail${count === 1 ? '' : 's'} queued again; the server sends them at its next look at the queue.`,
      );
    } finally {
      await db.destroy();
    }
    return;
  }
  if (command === 'publish-release') {
    await publish(config, args);
    return;
  }
  if (command === 'rotate-keys') {
    if (config.licensing.signingKey) {
      throw new UsageError('LEASE_SIGNING_KEY is set: rotate by setting a new key there (and restarting)');
    }
    const { rotateLeaseKeys } = await import('./licensing/leases/lease-signer.js');
    const { kid, retired } = await rotateLeaseKeys(config.dataDir, systemClock);
    console.log(
      `New lease signing key ${kid} is active after a restart of every server instance.\n` +
        `Still served for verification: ${retired.join(', ') || 'none'}.`,
    );
    return;
  }
  if (command === 'sandbox-renew') {
    await sandboxRenew(config, args);
    return;
  }
  if (command !== 'create-admin' && command !== 'reset-password')
    throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');

  const { email, password, generated } = parseEmailAndPassword(args);
  // Accounts are identity's alone: the other contexts' code is not even loaded.
  const app = await startApp(config, ['identity']);
  try {
    const existing = await findUserByEmail(app.db, email);
    if (command === 'create-admin') {
      let adminId: string;
      if (existing) {
        // An administrator who cannot sign in is no use: promoting confirms the address too.
        await promoteToAdministrator(app.db, systemClock, existing);
        adminId = existing.id;
        const confirmed = existing.email_verified_at ? '' : ', e-mail address marked as confirmed';
        console.log(`${email} is now an administrator (password unchanged${confirmed}).`);
      } else {
        const admin = await app.authService.createAccount({ email, password, role: 'admin', verified: true });
        adminId = admin.id;
        console.log(`Administrator created.\nEmail:    ${email}\n${passwordLine(password, generated)}`);
      }
      await recordSecurityEvent(app.db, systemClock, {
        type: securityEventTypes.adminCreated,
        severity: 'warning',
        userId: adminId,
        details: { email, via: 'cli' },
      });
      return;
    }
    if (!existing) throw new UsageError(`No account with the e-mail ${email}`);
    await app.authService.setPasswordByOperator(email, password);
    console.log(
      `Password reset; every session of ${email} was signed out.\n${passwordLine(password, generated)}`,
    );
  } finally {
    await app.close();
  }
}

/**
 * Runs one command line (what follows `npm run cli --`) with `env` as the settings, as the CLI
 * does; answers the exit code, having said on stderr what went wrong. The tests run most commands
 * this way, in their own process.
 */
export async function runCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    await run(argv, env);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof ConfigError || error instanceof BackupError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}
