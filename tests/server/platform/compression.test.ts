import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../../scripts/precompress-assets.js';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { COMPRESSION_THRESHOLD_BYTES } from '../../../src/server/platform/http/compression.js';
import { describeOnEveryDatabase, STRONG_PASSWORD, uniqueEmail } from '../../support/test-server.js';

/** A page and a script big enough to be worth compressing, written as a build would leave them. */
const INDEX_HTML = `<!doctype html><html><head><title>Portal</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const APP_JS = Array.from({ length: 400 }, (_, index) => `export const value${index} = ${index * 7};`).join(
  '\n',
);
/** The build's copy of index.html for /landing, preloading that screen's chunks. */
const LANDING_HTML = INDEX_HTML.replace(
  '</head>',
  `${'<link rel="modulepreload" crossorigin href="/assets/landing-9f8e7d.js">'.repeat(20)}</head>`,
);
const LOGO_PNG = randomBytes(4096);
const SMALL_JS = 'export const tiny = 1;';

/** The body as the client reads it once it has undone the answer's Content-Encoding. */
function decoded(response: LightMyRequestResponse): Buffer {
  const raw = response.rawPayload;
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw);
  if (encoding === 'gzip') return gunzipSync(raw);
  expect(encoding).toBeUndefined();
  return raw;
}

const varyNames = (response: LightMyRequestResponse) =>
  String(response.headers['vary'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());

describe('precompressing the web build', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'precompress-'));
    await mkdir(join(dir, 'assets'));
    await mkdir(join(dir, '.vite'));
    await writeFile(join(dir, 'index.html'), INDEX_HTML);
    await writeFile(join(dir, 'assets', 'app-1a2b3c.js'), APP_JS);
    await writeFile(join(dir, 'assets', 'tiny-4d5e6f.js'), SMALL_JS);
    await writeFile(join(dir, 'assets', 'logo.png'), LOGO_PNG);
    await writeFile(join(dir, '.vite', 'manifest.json'), JSON.stringify({ padding: 'x'.repeat(4000) }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside each text file worth it, decoding to the same bytes, and nothing else', async () => {
    const written = await precompressDirectory(dir);
    expect(written.map((entry) => entry.file).sort()).toEqual(
      [join(dir, 'assets', 'app-1a2b3c.js'), join(dir, 'index.html')].sort(),
    );
    for (const file of [join(dir, 'index.html'), join(dir, 'assets', 'app-1a2b3c.js')]) {
      const original = await readFile(file);
      expect(brotliDecompressSync(await readFile(`${file}.br`)).equals(original)).toBe(true);
      expect(gunzipSync(await readFile(`${file}.gz`)).equals(original)).toBe(true);
      expect((await readFile(`${file}.br`)).length).toBeLessThan(original.length);
    }
    // Too small to gain, already compressed, or the build's own bookkeeping: left alone.
    for (const file of ['assets/tiny-4d5e6f.js', 'assets/logo.png', '.vite/manifest.json'])
      await expect(readFile(join(dir, `${file}.br`))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the portal served precompressed', () => {
  let app: FastifyInstance | undefined;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-compressed-'));
    const webDir = join(dataDir, 'web');
    await mkdir(join(webDir, 'assets'), { recursive: true });
    await writeFile(join(webDir, 'index.html'), INDEX_HTML);
    await writeFile(join(webDir, 'assets', 'app-1a2b3c.js'), APP_JS);
    await writeFile(join(webDir, 'assets', 'logo.png'), LOGO_PNG);
    await mkdir(join(webDir, 'routes', 'landing'), { recursive: true });
    await writeFile(join(webDir, 'routes', 'landing', 'index.html'), LANDING_HTML);
    await precompressDirectory(webDir);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
    });
    app = await buildApp(config, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  // Pages go out as the build wrote them with the web client's key in the head (web-portal.ts).
  const served = (html: string) =>
    html.replace('<head>', '<head><meta name="portal-api-key" content="dap-web-public" />');
  const get = (url: string, acceptEncoding?: string) => {
    if (!app) throw new Error('app not started');
    return app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
  };

  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])(
    'a script asked for with Accept-Encoding %s comes as %s, the same bytes, varying by encoding',
    async (accept, sent) => {
      const response = await get('/assets/app-1a2b3c.js', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(sent);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varyNames(response)).toContain('accept-encoding');
      expect(decoded(response).toString()).toBe(APP_JS);
    },
  );

  it.each(['/', '/licenses/42', '/index.html'])(
    'the app shell at %s comes brotli-compressed, revalidated, decoding to index.html with the web key',
    async (url) => {
      const response = await get(url, 'gzip, br');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(varyNames(response)).toContain('accept-encoding');
      expect(decoded(response).toString()).toBe(served(INDEX_HTML));
    },
  );

  it.each([
    ['/landing', 'br', LANDING_HTML],
    ['/landing?from=ad', 'gzip', LANDING_HTML],
    ['/landing/more', 'br', INDEX_HTML],
    ['/login', 'br', INDEX_HTML],
  ])('%s gets the page the build wrote for it, if any (%s), revalidated', async (url, encoding, html) => {
    const response = await get(url, encoding);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(varyNames(response)).toContain('accept-encoding');
    expect(decoded(response).toString()).toBe(served(html));
  });

  it('an image goes as it is', async () => {
    const response = await get('/assets/logo.png', 'br, gzip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(LOGO_PNG)).toBe(true);
  });
});

describeOnEveryDatabase('API answers compressed above the threshold', (server) => {
  it('a large answer comes compressed for a client that accepts it, and plain for one that does not', async () => {
    const s = server();
    const compressed = await s.api({ path: '/plans/public', headers: { 'accept-encoding': 'br, gzip' } });
    const plain = await s.api({ path: '/plans/public' });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(varyNames(compressed)).toContain('accept-encoding');
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(decoded(compressed).toString())).toEqual(plain.json());
  });

  it('a small answer goes plain', async () => {
    const response = await server().api({ path: '/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('sign-in answers, which carry tokens, are never compressed, however long', async () => {
    const s = server();
    const email = uniqueEmail('signin');
    await s.createVerifiedUser({ email, password: STRONG_PASSWORD });
    // A full profile makes the answer (tokens and the user) longer than the threshold.
    const profile = await s.api({
      method: 'PUT',
      path: '/users/me',
      token: (await s.login(email, STRONG_PASSWORD)).access_token,
      body: { full_name: 'Maximiliane '.repeat(8).trim(), company: 'Long Company Name '.repeat(5).trim() },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    const login = await s.api({
      method: 'POST',
      path: '/auth/login/json',
      body: { email, password: STRONG_PASSWORD },
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(login.headers['content-encoding']).toBeUndefined();
  });

  it('a compressed request body is refused, not inflated', async () => {
    const s = server();
    const email = uniqueEmail('gzipped');
    await s.createVerifiedUser({ email, password: STRONG_PASSWORD });
    const response = await s.api({
      method: 'POST',
      path: '/auth/login/json',
      body: gzipSync(JSON.stringify({ email, password: STRONG_PASSWORD })),
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: expect.any(String) });
    expect(response.body).not.toContain('access_token');
  });
});
