import { existsSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { SQLITE_FILE_NAME } from '../../../src/server/platform/db/database.js';
import { STRONG_PASSWORD, uniqueEmail } from '../../support/test-server.js';

/** The permission bits of a file or directory, e.g. `0600`. */
const modeOf = (path: string) => `0${(statSync(path).mode & 0o777).toString(8)}`;

const databaseFiles = (dataDir: string) =>
  ['', '-wal', '-shm'].map((suffix) => join(dataDir, `${SQLITE_FILE_NAME}${suffix}`));

let parent: string | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  if (parent) await rm(parent, { recursive: true, force: true });
  parent = undefined;
});

/** Starts the server on SQLite in `dataDir` (JWT secret generated into keys/) and writes a row. */
async function startAndWrite(dataDir: string): Promise<FastifyInstance> {
  const started = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      WEB_DIR: join(dataDir, 'no-web-build'),
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
  // A write, so SQLite has its write-ahead log and shared-memory files open beside the database.
  await started.authService.createAccount({
    email: uniqueEmail('modes'),
    password: STRONG_PASSWORD,
    role: 'user',
    verified: true,
  });
  return started;
}

const onWindows = process.platform === 'win32';

describe.skipIf(onWindows)(
  `data directory file modes [sqlite]${onWindows ? ' [skipped: Windows has no POSIX file modes]' : ''}`,
  () => {
    it('a first start creates the data directory 0700 and the database with its -wal and -shm files 0600, like keys/', async () => {
      parent = await mkdtemp(join(tmpdir(), 'portal-modes-'));
      const dataDir = join(parent, 'data');
      app = await startAndWrite(dataDir);

      expect(modeOf(dataDir)).toBe('0700');
      expect(modeOf(join(dataDir, 'keys'))).toBe('0700');
      expect(modeOf(join(dataDir, 'keys', 'jwt-secret'))).toBe('0600');
      for (const file of databaseFiles(dataDir)) {
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file), file).toBe('0600');
      }
    });

    it('a start on an older install narrows database files created readable by others to 0600', async () => {
      parent = await mkdtemp(join(tmpdir(), 'portal-modes-'));
      const dataDir = join(parent, 'data');
      await (await startAndWrite(dataDir)).close();
      for (const file of databaseFiles(dataDir)) if (existsSync(file)) await chmod(file, 0o644);
      expect(modeOf(join(dataDir, SQLITE_FILE_NAME))).toBe('0644');

      app = await startAndWrite(dataDir);
      for (const file of databaseFiles(dataDir)) expect(modeOf(file), file).toBe('0600');
    });

    it('leaves alone a data directory the operator made, with its own mode', async () => {
      parent = await mkdtemp(join(tmpdir(), 'portal-modes-'));
      await chmod(parent, 0o750);
      app = await startAndWrite(parent);
      expect(modeOf(parent)).toBe('0750');
      expect(modeOf(join(parent, SQLITE_FILE_NAME))).toBe('0600');
    });
  },
);
