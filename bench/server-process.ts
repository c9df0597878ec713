// Starts the real API server as a child process on a free loopback port with a throw-away data
// directory, watches its memory, and stops it again (removing the directory).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildHandle, LOOPBACK_HOST, startChild } from './child-process.js';

export { LOOPBACK_HOST };

export interface ServerOptions {
  repoRoot: string;
  adminEmail: string;
  adminPassword: string;
  databaseUrl: string | undefined;
  useDist: boolean;
}

export type ServerHandle = ChildHandle;

export async function startServer(options: ServerOptions): Promise<ServerHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    return await startChild({
      label: 'the server',
      repoRoot: options.repoRoot,
      entry: options.useDist ? 'dist/server/main.js' : 'src/server/main.ts',
      readyPath: '/api/v1/health',
      // The hashing cap is the one setting of the shell kept: sweeps vary it.
      passThrough: ['ARGON2_MAX_CONCURRENCY'],
      afterStop: removeDataDir,
      env: {
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // Nothing balances load in front of it: stop at once.
        SHUTDOWN_DRAIN_SECONDS: '0',
        ADMIN_EMAIL: options.adminEmail,
        ADMIN_PASSWORD: options.adminPassword,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
        LOGIN_LOCKOUT_THRESHOLD: '1000000',
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      },
    });
  } catch (error) {
    removeDataDir();
    throw error;
  }
}
