import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLicensingApi } from '../../src/main/licensing-api.js';
import { toLicenseCheckResult } from '../../src/shared/bridge.js';
import type { LicenseStatusAnswer } from '../../src/shared/api/licenses.js';

/**
 * The version the app runs travels with each license check, so a perpetual license whose update
 * window ended can answer whether it covers it; and the answer's window reaches the renderer through
 * the bridge's check result. The server here is a loopback HTTP server that records the query and
 * refuses (the real server's window answers are tested in tests/server/distribution/update-windows).
 */
describe('desktop license check: the app version goes out, the update window comes back', () => {
  let server: Server;
  let baseUrl: string;
  const queries: URLSearchParams[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      queries.push(new URL(request.url ?? '/', 'http://x').searchParams);
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ valid: false, status: 'not_found', message: 'Unknown key' }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const check = async (appVersion: string | undefined) => {
    const api = createLicensingApi({
      serverUrl: baseUrl,
      apiKey: 'desktop-key',
      timeoutMs: 30_000,
      appVersion,
    });
    await api.status('KEY-1', 'a'.repeat(64));
    return queries.at(-1);
  };

  it('sends app_version with the key and the machine when the app runs a version number', async () => {
    const query = await check('2.4.0');
    expect(query?.get('license_key')).toBe('KEY-1');
    expect(query?.get('app_version')).toBe('2.4.0');
  });

  it('leaves it out when the version is not a version number (a development build), so the check is not refused', async () => {
    expect((await check('dev'))?.has('app_version')).toBe(false);
    expect((await check(undefined))?.has('app_version')).toBe(false);
  });

  it('the bridge result keeps the window of a perpetual license and its covered version', () => {
    const answer = {
      valid: true,
      status: 'active',
      message: 'Your license covers versions up to 2.3. Renew updates to get 2.4 and later.',
      requires_activation: false,
      license_id: 'license-1',
      expires_at: null,
      features: [],
      trial: null,
      updates_until: '2026-01-01T00:00:00.000Z',
      update_window_ended: true,
      covered_version: '2.3.0',
    } as unknown as LicenseStatusAnswer;
    expect(toLicenseCheckResult(answer)).toMatchObject({
      valid: true,
      message: answer.message,
      updates_until: '2026-01-01T00:00:00.000Z',
      update_window_ended: true,
      covered_version: '2.3.0',
    });
  });
});
