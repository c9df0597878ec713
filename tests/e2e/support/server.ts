import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import { type Config, loadConfig } from '../../../src/server/platform/config.js';
import { placeMigratedSqlite } from '../../support/databases.js';
import { createTestClock, type TestClock } from '../../support/test-clock.js';
import { STRONG_PASSWORD, TEST_PASSWORD_HASH_COST, uniqueEmail } from '../../support/test-server.js';
import { snapshotRendererBuild } from './build.js';

export interface Credentials {
  email: string;
  password: string;
}

/** The real server, listening on loopback, serving a copy of the real portal build. */
export interface PortalServer {
  app: FastifyInstance;
  config: Config;
  /** Real time plus an offset: move it together with the browser's clock. */
  clock: TestClock;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  outboxDir: string;
  admin: Credentials;
  /** A confirmed account with role user, made directly in the database. */
  createUser(options?: Partial<Credentials> & { fullName?: string }): Promise<Credentials>;
  close(): Promise<void>;
}

export async function startPortalServer(env: Record<string, string> = {}): Promise<PortalServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-e2e-'));
  try {
    const webDir = await snapshotRendererBuild(dataDir);
    await placeMigratedSqlite(dataDir);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      // Every test signs in through the form from one address.
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      WEB_DIR: webDir,
      // Links in mail point here; tests open their path and query on the real address.
      PUBLIC_URL: 'http://portal.test',
      ...env,
    });
    const clock = createTestClock();
    const app = await buildApp(config, { clock, logger: false, passwordHashCost: TEST_PASSWORD_HASH_COST });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = address.replace('localhost', '127.0.0.1');

    const createUser: PortalServer['createUser'] = async (options = {}) => {
      const credentials = {
        email: options.email ?? uniqueEmail('e2e'),
        password: options.password ?? STRONG_PASSWORD,
      };
      await app.authService.createAccount({
        ...credentials,
        role: 'user',
        verified: true,
        ...(options.fullName ? { fullName: options.fullName } : {}),
      });
      return credentials;
    };

    const admin = { email: uniqueEmail('admin'), password: STRONG_PASSWORD };
    await app.authService.createAccount({ ...admin, role: 'admin', verified: true, fullName: 'Ada Admin' });

    return {
      app,
      config,
      clock,
      baseUrl,
      outboxDir: config.mail.outboxDir,
      admin,
      createUser,
      async close() {
        await app.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
