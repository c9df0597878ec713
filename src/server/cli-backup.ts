import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './cli-usage-error.js';
import { archiveName } from './platform/backup/backup-retention.js';
import { createBackup } from './platform/backup/create-backup.js';
import { restoreBackup } from './platform/backup/restore-backup.js';
import type { Config } from './platform/config.js';

/** The CLI's `backup` and `restore` (usage in cli-commands.ts); the work is in platform/backup. */

const MIN_PASSPHRASE_LENGTH = 12;

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: { 'passphrase-env': { type: 'string' }, out: { type: 'string' } },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The passphrase is named, not given: a value on the command line would be in the shell's history and `ps`. */
function passphraseFrom(variable: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (variable === undefined) return undefined;
  const passphrase = env[variable];
  if (!passphrase)
    throw new UsageError(`--passphrase-env ${variable}: the environment variable ${variable} is not set`);
  return passphrase;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

export async function backupCommand(config: Config, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parse(args);
  if (positionals.length > 0)
    throw new UsageError(`backup takes no ${positionals[0]}: give the archive with --out`);
  const passphrase = passphraseFrom(values['passphrase-env'], env);
  if (passphrase !== undefined && passphrase.length < MIN_PASSPHRASE_LENGTH)
    throw new UsageError(
      `--passphrase-env: the passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters`,
    );
  const now = new Date();
  const file = values.out ?? join(config.backup?.dir ?? '.', archiveName(now, passphrase !== undefined));
  const { file: written, bytes, manifest } = await createBackup(config, { file, passphrase, now });
  const keys = manifest.files.filter((entry) => entry.path.startsWith('data/keys/')).length;
  const releases = manifest.files.filter((entry) => entry.path.startsWith('data/releases/')).length;
  const database = manifest.database.dialect === 'sqlite' ? 'the SQLite database' : 'a pg_dump of PostgreSQL';
  console.log(
    `Backup written and read back: ${written} (${megabytes(bytes)}, ${passphrase ? 'encrypted' : 'not encrypted'}).\n` +
      `It holds ${database} at schema ${manifest.database.migration ?? '(none)'}, ${count(keys, 'key file')} ` +
      `and ${count(releases, 'release file')}.`,
  );
  if (manifest.secretsFromEnvironment.length > 0)
    console.log(
      `Not in it, since the environment sets them: ${manifest.secretsFromEnvironment.join(', ')}. ` +
        'Keep them where you keep the archive: a restore needs the same values.',
    );
}

export async function restoreCommand(config: Config, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parse(args);
  if (values.out !== undefined) throw new UsageError('restore writes into DATA_DIR: it takes no --out');
  const [archive, ...extra] = positionals;
  if (!archive || extra.length > 0) throw new UsageError('give exactly one archive to restore');
  const passphrase = passphraseFrom(values['passphrase-env'], env);
  const { manifest, databaseCheck } = await restoreBackup(config, archive, passphrase);
  console.log(
    `Restored the backup of ${manifest.createdAt} (release ${manifest.appVersion}, schema ` +
      `${manifest.database.migration ?? '(none)'}) into ${config.dataDir}: ` +
      `${count(manifest.files.length, 'file')}, every checksum ok; ${databaseCheck}.\n` +
      'Start the server on it (a backup of an older release is migrated as the server starts).',
  );
  const unset = manifest.secretsFromEnvironment.filter((name) => !env[name]);
  if (unset.length > 0)
    console.log(
      `The backup was taken with ${unset.join(', ')} set in the environment, and ${unset.length === 1 ? 'it is' : 'they are'} ` +
        'not set here: set the same values before starting the server, or what they signed will not verify.',
    );
}
