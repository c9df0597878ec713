import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppOverrides, buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';

const WEB_KEY = 'contexts-test-web-key';
const folders: string[] = [];
const apps: FastifyInstance[] = [];

async function build(overrides: AppOverrides): Promise<FastifyInstance> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-contexts-'));
  folders.push(dataDir);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    WEB_DIR: join(dataDir, 'no-web-build'),
    JWT_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
    API_KEYS: `web:${WEB_KEY}`,
  });
  const app = await buildApp(config, { logger: false, ...overrides });
  apps.push(app);
  return app;
}

const get = (app: FastifyInstance, path: string) =>
  app.inject({ url: `${API_BASE_PATH}${path}`, headers: { 'x-api-key': WEB_KEY } });

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('The server’s contexts as plugins', () => {
  it('refuses to boot a context without one it names as a dependency', async () => {
    await expect(build({ contexts: ['licensing'] })).rejects.toMatchObject({
      code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
      message: expect.stringMatching(/identity.*licensing/),
    });
    await expect(build({ contexts: ['identity', 'billing'] })).rejects.toMatchObject({
      code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
      message: expect.stringMatching(/catalogue.*billing/),
    });
  });

  it('refuses to boot a context whose routes need identity’s guards when identity is missing', async () => {
    await expect(build({ contexts: ['catalogue'] })).rejects.toMatchObject({
      code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE',
      message: expect.stringMatching(/requireUser.*catalogue/),
    });
  });

  it('builds only the contexts asked for: identity answers, the catalogue’s paths are unknown', async () => {
    const app = await build({ contexts: ['identity'] });
    expect((await get(app, '/health')).statusCode).toBe(200);
    const me = await get(app, '/users/me');
    expect(me.statusCode).toBe(401);
    expect(me.json()).toMatchObject({ code: 'not_authenticated' });
    const plans = await get(app, '/plans');
    expect(plans.statusCode).toBe(404);
    expect(plans.json()).toMatchObject({ code: 'not_found' });
  });

  it('builds every context by default, each answering under /api/v1 behind the API key', async () => {
    const app = await build({});
    expect((await get(app, '/plans/public')).statusCode).toBe(200);
    const withoutKey = await app.inject({ url: `${API_BASE_PATH}/plans/public` });
    expect(withoutKey.statusCode).toBe(401);
    expect(withoutKey.json()).toMatchObject({ code: 'invalid_api_key' });
  });
});
