import { spawn } from 'node:child_process';
import { BackupError } from './backup-error.js';

/**
 * pg_dump and pg_restore (PostgreSQL's client tools, of the server's major version or newer) on
 * the server's DATABASE_URL. The password goes to them in PGPASSWORD, not on their command line,
 * where every user of the machine could read it.
 */
function connection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    dbname: url.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (stderr.length < 10_000) stderr += text;
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${tool} was not found: install PostgreSQL's client tools, of the server's major version ` +
                'or newer (Debian and Ubuntu: apt-get install postgresql-client).',
            )
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${tool} failed (exit code ${code}): ${stderr.trim() || 'no message'}`));
    });
  });
}

/** One consistent dump of the whole database (pg_dump reads in one snapshot), in pg_dump's custom format. */
export async function dumpPostgres(databaseUrl: string, targetFile: string): Promise<void> {
  const { dbname, env } = connection(databaseUrl);
  await run('pg_dump', ['--format=custom', `--file=${targetFile}`, `--dbname=${dbname}`], env);
}

/**
 * Loads a dump into an empty database, all or nothing (one transaction): a failure leaves the
 * database as empty as it was. Owners and grants are left to the connecting role, since the
 * roles of the machine the dump came from need not exist here.
 */
export async function restorePostgres(databaseUrl: string, dumpFile: string): Promise<void> {
  const { dbname, env } = connection(databaseUrl);
  await run(
    'pg_restore',
    [
      '--exit-on-error',
      '--single-transaction',
      '--no-owner',
      '--no-privileges',
      `--dbname=${dbname}`,
      dumpFile,
    ],
    env,
  );
}
