import { sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  healthResponseSchema,
  healthUnavailableSchema,
  livenessSchema,
  readinessSchema,
  readinessUnavailableSchema,
} from '../../../src/shared/api/health.js';
import { migrations } from '../../../src/server/platform/db/migrate.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';

describeOnEveryDatabase('GET /health', (server) => {
  it('answers 200 with the database status and version, without an API key', async () => {
    const response = await server().api({ path: '/health', withoutApiKey: true });
    expect(response.statusCode).toBe(200);
    const body = healthResponseSchema.parse(response.json());
    expect(body).toMatchObject({ status: 'ok', database: 'ok' });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers over a real socket', async () => {
    const base = await server().listen();
    const response = await fetch(`${base}/api/v1/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });
});

describeOnEveryDatabase('GET /health while draining to stop', (server) => {
  it('answers 503 shutting_down in the error shape, with the status fields, while the database answers', async () => {
    server().app.drain.begin();
    const response = await server().api({ path: '/health', withoutApiKey: true });
    expect(response.statusCode).toBe(503);
    const body = healthUnavailableSchema.parse(response.json());
    expect(body).toMatchObject({ status: 'unavailable', database: 'ok', code: 'shutting_down' });
    expect(body.detail).toBe(body.message);
    expect(body.message).toContain('shutting down');
  });
});

describeOnEveryDatabase('GET /health/live and /health/ready', (server) => {
  it('live answers 200 without an API key; ready names every part it checked', async () => {
    const live = await server().api({ path: '/health/live', withoutApiKey: true });
    expect(live.statusCode).toBe(200);
    expect(livenessSchema.parse(live.json()).status).toBe('ok');

    const ready = await server().api({ path: '/health/ready', withoutApiKey: true });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(readinessSchema.parse(ready.json()).checks).toEqual({
      draining: 'ok',
      database: 'ok',
      migrations: 'ok',
      mail: 'ok',
      webhooks: 'ok',
      scheduler: 'ok',
    });
  });
});

describeOnEveryDatabase('GET /health/ready when a part fails', (server) => {
  it('answers 503 migrations_pending when the schema lacks a migration this code has', async () => {
    const s = server();
    const [newest] = Object.keys(migrations).slice(-1);
    await sql`delete from kysely_migration where name = ${newest}`.execute(s.app.db);
    const response = await s.api({ path: '/health/ready', withoutApiKey: true });
    expect(response.statusCode).toBe(503);
    const body = readinessUnavailableSchema.parse(response.json());
    expect(body).toMatchObject({ code: 'migrations_pending', failed: ['migrations'] });
    expect(body.checks.migrations).toBe('failed');
    expect(body.message).toContain('migrations');
    expect(body.detail).toBe(body.message);
    await sql`insert into kysely_migration (name, timestamp) values (${newest}, ${new Date().toISOString()})`.execute(
      s.app.db,
    );
    expect((await s.api({ path: '/health/ready', withoutApiKey: true })).statusCode).toBe(200);
  });

  it('answers 503 worker_stopped naming the worker once the webhook worker has stopped', async () => {
    const s = server();
    await s.app.webhookDeliveries.close();
    const response = await s.api({ path: '/health/ready', withoutApiKey: true });
    expect(response.statusCode).toBe(503);
    const body = readinessUnavailableSchema.parse(response.json());
    expect(body).toMatchObject({ code: 'worker_stopped', failed: ['webhooks'] });
    expect(body.checks).toMatchObject({ database: 'ok', mail: 'ok', webhooks: 'failed', scheduler: 'ok' });
  });

  it('answers 503 shutting_down while draining, while live still answers 200', async () => {
    const s = server();
    s.app.drain.begin();
    const response = await s.api({ path: '/health/ready', withoutApiKey: true });
    expect(response.statusCode).toBe(503);
    const body = readinessUnavailableSchema.parse(response.json());
    expect(body.code).toBe('shutting_down');
    expect(body.failed[0]).toBe('draining');
    expect((await s.api({ path: '/health/live', withoutApiKey: true })).statusCode).toBe(200);
  });

  it('answers 503 worker_stopped for the mail worker and the scheduler once closed', async () => {
    const s = server();
    await s.app.mailOutbox.close();
    await s.app.scheduler.close();
    const body = readinessUnavailableSchema.parse(
      (await s.api({ path: '/health/ready', withoutApiKey: true })).json(),
    );
    expect(body.failed).toEqual(expect.arrayContaining(['mail', 'scheduler']));
  });
});
