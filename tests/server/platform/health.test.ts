import { expect, it } from 'vitest';
import { healthResponseSchema, healthUnavailableSchema } from '../../../src/shared/api/health.js';
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
