import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';

const INDEX_HTML =
  '<!doctype html><html><head><title>Portal</title></head><body><div id="root"></div></body></html>';
/** The shell as served: the build's with the web key of API_KEYS (the default here) in its head. */
const SERVED_HTML = INDEX_HTML.replace(
  '<head>',
  '<head><meta name="portal-api-key" content="dap-web-public" />',
);
const APP_JS = 'console.log("portal bundle abc123");';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** An app on SQLite in a temp dir whose WEB_DIR is prepared by `prepareWebDir`. */
function useApp(prepareWebDir: (webDir: string) => Promise<void>, env: Record<string, string> = {}) {
  let app: FastifyInstance | undefined;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-web-'));
    // The build sits below a folder that is itself called `assets`: only the build's own
    // assets/ folder may be cached as immutable, never index.html.
    const webDir = join(dataDir, 'assets', 'portal-build');
    await mkdir(webDir, { recursive: true });
    await prepareWebDir(webDir);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      ...env,
    });
    app = await buildApp(config, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return (options: InjectOptions | string) => {
    if (!app) throw new Error('app not started');
    return app.inject(options);
  };
}

const expectJsonNotFound = (response: {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}) => {
  expect(response.statusCode).toBe(404);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.body).not.toContain('<!doctype html>');
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body).toEqual({ detail: expect.any(String), message: expect.any(String), code: 'not_found' });
  expect(body['message']).toBe(body['detail']);
};

describe('web portal with a build', () => {
  const inject = useApp(async (webDir) => {
    await mkdir(join(webDir, 'assets'));
    await writeFile(join(webDir, 'index.html'), INDEX_HTML);
    await writeFile(join(webDir, 'assets', 'app-abc123.js'), APP_JS);
    await mkdir(join(webDir, '.vite'));
    await writeFile(join(webDir, '.vite', 'manifest.json'), '{"src/main.tsx":{}}');
  });

  it.each(['/', '/licenses/42', '/admin/users', '/login?next=%2Fdashboard', '/index.html'])(
    'GET %s answers the app shell, revalidated on every load',
    async (url) => {
      const response = await inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(SERVED_HTML);
    },
  );

  it('HEAD of a client route answers like GET without a body', async () => {
    const response = await inject({ method: 'HEAD', url: '/dashboard' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe('');
  });

  it('serves hashed assets cached as immutable for a year', async () => {
    const response = await inject('/assets/app-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.body).toBe(APP_JS);
  });

  it('keeps the build’s own bookkeeping (.vite/manifest.json) off the site', async () => {
    expectJsonNotFound(await inject('/.vite/manifest.json'));
  });

  it('answers a missing asset with a JSON 404, never the app shell', async () => {
    const response = await inject('/assets/missing.js');
    expectJsonNotFound(response);
    expect(response.headers['cache-control']).not.toBe(IMMUTABLE);
    expectJsonNotFound(await inject('/favicon.ico'));
  });

  it.each(['/api/v1/unknown', '/api/anything', '/api', '/api/v1/no-such-area/42'])(
    'GET %s is a JSON 404, not the app',
    async (url) => {
      expectJsonNotFound(await inject(url));
    },
  );

  it.each([
    ['POST', '/nonexistent'],
    ['DELETE', '/licenses/42'],
    ['PUT', '/api/v1/unknown'],
  ] as const)('%s %s is a JSON 404', async (method, url) => {
    const response = await inject({ method, url, payload: {} });
    expectJsonNotFound(response);
    expect(response.json<{ message: string }>().message).toContain(url);
  });

  it('keeps the API working next to the portal', async () => {
    const response = await inject('/api/v1/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });
});

describe('web portal with its key set where the server runs', () => {
  const inject = useApp(
    async (webDir) => {
      await writeFile(join(webDir, 'index.html'), INDEX_HTML);
      await mkdir(join(webDir, 'routes', 'landing'), { recursive: true });
      await writeFile(
        join(webDir, 'routes', 'landing', 'index.html'),
        INDEX_HTML.replace('Portal', 'Landing'),
      );
    },
    { API_KEYS: 'desktop:dap-desktop-public,web:site-key-"<&>-2026' },
  );

  it.each(['/', '/dashboard', '/index.html', '/landing'])(
    'GET %s hands the portal the web key of API_KEYS, escaped, in a meta tag',
    async (url) => {
      const response = await inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(
        '<head><meta name="portal-api-key" content="site-key-&quot;&lt;&amp;&gt;-2026" />',
      );
    },
  );

  it('sends the page built for the path, with the key too', async () => {
    expect((await inject('/landing')).body).toContain('<title>Landing</title>');
    expect((await inject('/dashboard')).body).toContain('<title>Portal</title>');
  });

  it('never serves a page as the build wrote it, without the key', async () => {
    expect((await inject('/routes/landing/index.html')).statusCode).toBe(404);
  });
});

describe('web portal without a web key in API_KEYS', () => {
  const inject = useApp(
    async (webDir) => {
      await writeFile(join(webDir, 'index.html'), INDEX_HTML);
    },
    { API_KEYS: 'desktop:dap-desktop-public' },
  );

  it('sends the page without a key (the desktop shell still works; the web portal cannot sign in)', async () => {
    expect((await inject('/')).body).toBe(INDEX_HTML);
  });
});

describe('web portal over a real socket', () => {
  let app: FastifyInstance | undefined;
  let dataDir = '';
  let base = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-web-socket-'));
    const webDir = join(dataDir, 'web');
    await mkdir(join(webDir, 'assets'), { recursive: true });
    await writeFile(join(webDir, 'index.html'), INDEX_HTML);
    await writeFile(join(webDir, 'assets', 'app-abc123.js'), APP_JS);
    app = await buildApp(
      loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, WEB_DIR: webDir, LOG_LEVEL: 'silent' }),
      { logger: false },
    );
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('sends the shell for a deep link and the asset with its caching headers', async () => {
    const page = await fetch(`${base}/settings/profile`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toBe(SERVED_HTML);

    const asset = await fetch(`${base}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await asset.text()).toBe(APP_JS);

    // no-cache means "revalidate": the shell's ETag must let the browser skip the download.
    // (fetch adds `cache-control: no-cache` to conditional requests unless one is given.)
    const revalidated = await fetch(`${base}/dashboard`, {
      headers: { 'if-none-match': page.headers.get('etag') ?? '', 'cache-control': 'max-age=0' },
    });
    expect(revalidated.status).toBe(304);

    const api = await fetch(`${base}/api/v1/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('web portal without a build', () => {
  const inject = useApp(async () => {
    // An empty WEB_DIR: `npm run build` has not run.
  });

  it('still serves the API', async () => {
    const response = await inject('/api/v1/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok' });
    const openApi = await inject('/api/openapi.json');
    expect(openApi.statusCode).toBe(200);
  });

  it.each(['/', '/dashboard', '/assets/app-abc123.js', '/api/v1/unknown'])(
    'GET %s is a JSON 404',
    async (url) => {
      expectJsonNotFound(await inject(url));
    },
  );
});
