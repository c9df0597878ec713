import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../src/main/app-origin.js';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import { CONTENT_SECURITY_POLICY } from '../../src/main/security.js';
import { ensureRendererBuild, RENDERER_BUILD_DIR } from '../e2e/support/build.js';
import { type LicensingServer, refusedUrl, startLicensingServer } from './support/licensing-server.js';

describe('app:// protocol: the real renderer build, and /api forwarded to the real server', () => {
  let server: LicensingServer;
  let handle: (request: Request) => Promise<Response>;
  let indexHtml: string;
  let script: string;

  beforeAll(async () => {
    await ensureRendererBuild();
    server = await startLicensingServer();
    handle = createAppProtocolHandler({
      rendererDir: RENDERER_BUILD_DIR,
      serverUrl: server.baseUrl,
      apiKey: DESKTOP_API_KEY,
      secrets: createMemorySecretStore(),
    });
    indexHtml = await readFile(join(RENDERER_BUILD_DIR, 'index.html'), 'utf8');
    const firstScript = (await readdir(join(RENDERER_BUILD_DIR, 'assets'))).find((name) =>
      name.endsWith('.js'),
    );
    script = `/assets/${firstScript}`;
  }, 300_000);
  afterAll(() => server?.close());

  const get = (path: string, init?: RequestInit) => handle(new Request(`${APP_ORIGIN}${path}`, init));

  it('/ is the portal’s index.html, with the strict CSP and no caching', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(indexHtml);
  });

  it('deep links without a file extension get index.html (client-side routing)', async () => {
    for (const path of ['/licenses', '/licenses/42', '/admin/users?page=2'])
      expect(await (await get(path)).text(), path).toBe(indexHtml);
  });

  it('built assets are served with their type; a missing asset is a 404, not index.html', async () => {
    const asset = await get(script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('/assets/not-there-1234.js')).status).toBe(404);
  });

  it.each([
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
    '/..%5c..%5cpackage.json',
    '/%00index.html',
    '/%E0%A4%A',
  ])('a path that tries to leave the build (%s) gets nothing from outside it', async (path) => {
    const response = await get(path);
    const body = await response.text();
    expect(body).not.toContain('root:');
    expect(body).not.toContain('"name": "desktop-ai-assistant-portal"');
    expect([200, 404]).toContain(response.status);
    if (response.status === 200) expect(body).toBe(indexHtml);
  });

  it('another host under app:// is not the app', async () => {
    expect((await handle(new Request('app://elsewhere/'))).status).toBe(404);
  });

  it('only GET and HEAD for files', async () => {
    expect((await get('/index.html', { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('/api/v1/* goes to the configured server with the desktop’s API key, whatever key the page sent', async () => {
    const response = await get('/api/v1/licensing/public-key', {
      headers: { 'x-api-key': 'dap-forged-key' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ keys: [expect.objectContaining({ alg: 'EdDSA' })] });
  });

  it('forwards method, query and body: a JSON login answers as the server does', async () => {
    const response = await get('/api/v1/auth/login/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password 123' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    const status = await get('/api/v1/licensing/status?license_key=nonsense&hardware_id=short');
    expect(status.status).toBe(400);
  });

  it('an unreachable server is a clear 502 JSON error, not a hang or a crash', async () => {
    const offline = createAppProtocolHandler({
      rendererDir: RENDERER_BUILD_DIR,
      serverUrl: await refusedUrl(),
      apiKey: DESKTOP_API_KEY,
      secrets: createMemorySecretStore(),
    });
    const response = await offline(new Request(`${APP_ORIGIN}/api/v1/health`));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      detail: expect.stringContaining('could not be reached'),
      message: 'Cannot reach the server. Check your internet connection and try again.',
      code: 'server_unreachable',
    });
  });
});
