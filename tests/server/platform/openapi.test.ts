import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { appVersion } from '../../../src/server/platform/version.js';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import { CHROMIUM_PATH, launchChromium } from '../../support/chromium.js';
import {
  API_BASE_PATH,
  API_DOCS_PATH,
  OPENAPI_DOCUMENT_PATH,
  SCIM_BASE_PATH,
  scimPaths,
} from '../../../src/shared/routes.js';
import { apiPaths } from '../../../src/shared/api-paths.js';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}

/** Every path of src/shared/routes.ts as OpenAPI writes it: under /api/v1, `:id` as `{id}`. */
const flattenPaths = (tree: object, base = API_BASE_PATH): string[] =>
  Object.values(tree).flatMap((value: string | object) =>
    typeof value === 'string'
      ? [`${base}${value.replace(/:([A-Za-z]+)/g, '{$1}')}`]
      : flattenPaths(value, base),
  );
/** Back to Fastify's form, to ask the router about a documented path. */
const routerPath = (path: string) => path.replace(/\{([A-Za-z]+)\}/g, ':$1');
/** Operations that answer with a file rather than JSON. */
const FILE_DOWNLOADS = [`get ${API_BASE_PATH}${apiPaths.downloads.file.replace(':token', '{token}')}`];
/** Operations that only ever send the browser on (302, 303): the identity providers' returns. */
const REDIRECTS = [
  `get ${API_BASE_PATH}${apiPaths.auth.ssoCallback}`,
  `post ${API_BASE_PATH}${apiPaths.auth.ssoSamlAcs.replace(':organisationId', '{organisationId}')}`,
];
/** Error bodies: the common one, or one that extends it (a license check's status, why a session ended). */
const ERROR_SCHEMAS = [
  '#/components/schemas/ApiError',
  '#/components/schemas/LicenseRefusal',
  '#/components/schemas/RefreshRefusal',
  // ApiError with the earlier trial a refused trial start names.
  '#/components/schemas/TrialRefusal',
  // ApiError with the machines holding a floating license's seats, when all are out.
  '#/components/schemas/FloatingConflict',
  // SCIM's error schema, with the common body's fields too.
  '#/components/schemas/ScimError',
];
/** The API's paths, and SCIM's under /scim/v2. */
const EXPECTED_PATHS = [...flattenPaths(apiPaths), ...flattenPaths(scimPaths, SCIM_BASE_PATH)];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every `$ref` anywhere in a value. */
const refsIn = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(refsIn)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, inner]) =>
          key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
        )
      : [];

let app: FastifyInstance;
let dataDir = '';
let base = '';
let document: OpenApiDocument;
const operations: { method: string; path: string; operation: Operation }[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'portal-openapi-'));
  app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      WEB_DIR: join(dataDir, 'no-web-build'),
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  const response = await app.inject(OPENAPI_DOCUMENT_PATH);
  expect(response.statusCode).toBe(200);
  document = response.json<OpenApiDocument>();
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item))
      if (HTTP_METHODS.includes(method)) operations.push({ method, path, operation });
});

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`GET ${OPENAPI_DOCUMENT_PATH}`, () => {
  it('is an OpenAPI 3.1 document of this server, served as JSON without an API key', async () => {
    const response = await app.inject(OPENAPI_DOCUMENT_PATH);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe(`${PRODUCT_NAME} portal API`);
    expect(document.info.version).toBe(appVersion);
  });

  it('documents exactly the paths of src/shared/routes.ts under /api/v1 and /scim/v2', () => {
    expect(EXPECTED_PATHS.length).toBeGreaterThanOrEqual(15);
    expect(EXPECTED_PATHS).toContain('/api/v1/auth/login/json');
    expect(EXPECTED_PATHS).toContain('/api/v1/users/me/preferences');
    expect(Object.keys(document.paths).sort()).toEqual([...new Set(EXPECTED_PATHS)].sort());
  });

  it('documents only operations the server really answers', () => {
    expect(operations.length).toBeGreaterThanOrEqual(EXPECTED_PATHS.length);
    for (const { method, path } of operations) {
      expect(
        app.hasRoute({ method: method.toUpperCase() as HTTPMethods, url: routerPath(path) }),
        `${method} ${path}`,
      ).toBe(true);
    }
  });

  it('gives every POST, PUT and PATCH a request body schema', () => {
    const withBodies = operations.filter(({ method }) => ['post', 'put', 'patch'].includes(method));
    expect(withBodies.length).toBeGreaterThanOrEqual(14);
    for (const { method, path, operation } of withBodies) {
      const content = operation.requestBody?.content ?? {};
      const types = Object.keys(content);
      expect(types.length, `${method} ${path} has no request body`).toBeGreaterThan(0);
      for (const type of types) expect(content[type]?.schema, `${method} ${path} ${type}`).toBeTruthy();
    }
    const formLogin = document.paths[`${API_BASE_PATH}${apiPaths.auth.login}`]?.['post'];
    expect(Object.keys(formLogin?.requestBody?.content ?? {})).toEqual(['application/x-www-form-urlencoded']);
    const jsonLogin = document.paths[`${API_BASE_PATH}${apiPaths.auth.loginJson}`]?.['post'];
    expect(Object.keys(jsonLogin?.requestBody?.content ?? {})).toEqual(['application/json']);
    // Naming a machine, by its owner or an administrator: the same body.
    for (const path of [apiPaths.licenses.activation, apiPaths.admin.activation]) {
      const rename = document.paths[`${API_BASE_PATH}${path.replace(/:([A-Za-z]+)/g, '{$1}')}`]?.['patch'];
      expect(rename?.requestBody?.content?.['application/json']?.schema, path).toEqual({
        $ref: '#/components/schemas/RenameActivationRequestInput',
      });
    }
  });

  it('gives every operation a success response schema and documents errors with the error body', () => {
    for (const { method, path, operation } of operations) {
      const responses = operation.responses ?? {};
      const success = Object.keys(responses).filter((status) =>
        (REDIRECTS.includes(`${method} ${path}`) ? /^30[23]$/ : /^2\d\d$/).test(status),
      );
      expect(success.length, `${method} ${path} has no 2xx response`).toBeGreaterThan(0);
      for (const status of success.filter((code) => code !== '204'))
        if (!FILE_DOWNLOADS.includes(`${method} ${path}`))
          expect(
            responses[status]?.content?.['application/json']?.schema,
            `${method} ${path} ${status}`,
          ).toBeTruthy();
      for (const status of Object.keys(responses).filter((code) => /^4\d\d$/.test(code))) {
        const schema = responses[status]?.content?.['application/json']?.schema as { $ref?: string };
        expect(ERROR_SCHEMAS, `${method} ${path} ${status}`).toContain(schema?.$ref);
      }
    }
    const apiError = JSON.stringify(document.components.schemas['ApiError']);
    for (const field of ['detail', 'message', 'code']) expect(apiError).toContain(`"${field}"`);
  });

  it('resolves every $ref to a component schema', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });

  it('declares the API key and bearer schemes and uses them on the operations', () => {
    expect(document.components.securitySchemes['apiKey']).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(document.components.securitySchemes['bearerAuth']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });

    const securityOf = (method: string, path: string) =>
      document.paths[`${API_BASE_PATH}${path}`]?.[method]?.security;
    expect(securityOf('get', apiPaths.health)).toEqual([]);
    expect(securityOf('post', apiPaths.auth.loginJson)).toEqual([{ apiKey: [] }]);
    expect(securityOf('get', apiPaths.users.me)).toEqual([{ bearerAuth: [], apiKey: [] }]);
    for (const { path, operation } of operations.filter(({ path }) =>
      path.startsWith(`${API_BASE_PATH}/users`),
    ))
      expect(operation.security?.[0], path).toHaveProperty('bearerAuth');
  });
});

describe(`${API_DOCS_PATH} (Swagger UI)`, () => {
  it('answers an HTML page (following any redirect) whose assets load', async () => {
    const response = await fetch(`${base}${API_DOCS_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<div id="swagger-ui"></div>');

    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const script of scripts) {
      const asset = await fetch(new URL(script, response.url));
      expect(asset.status, script).toBe(200);
      expect(asset.headers.get('content-type'), script).toMatch(/javascript/);
      // Read to the end: the asset must arrive whole, and an unread body would keep its
      // keep-alive connection busy so the server could not close.
      expect((await asset.arrayBuffer()).byteLength, script).toBeGreaterThan(0);
    }

    const styles = [...html.matchAll(/<link rel="stylesheet" type="text\/css" href="([^"]+)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(styles.length).toBeGreaterThanOrEqual(1);
    for (const style of styles) {
      const asset = await fetch(new URL(style, response.url));
      expect(asset.status, style).toBe(200);
      expect(asset.headers.get('content-type'), style).toMatch(/^text\/css/);
      expect((await asset.arrayBuffer()).byteLength, style).toBeGreaterThan(0);
    }

    const slash = await fetch(`${base}${API_DOCS_PATH}/`);
    expect(slash.status).toBe(200);
    expect(await slash.text()).toContain('swagger-ui-bundle.js');
  });
});

const SCREENSHOT = resolve(import.meta.dirname, '../../../test-results/api-docs.png');
const browserTitle = `${API_DOCS_PATH} in headless Chromium`;

function defineBrowserSuite(): void {
  it('renders the API title and the operations under the server CSP', { timeout: 120_000 }, async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
      });

      await page.goto(`${base}${API_DOCS_PATH}`);
      const title = page.locator('.information-container .info .title');
      await title.waitFor({ timeout: 20_000 });
      expect(await title.innerText()).toContain(`${PRODUCT_NAME} portal API`);
      await page.locator('.opblock-summary-path', { hasText: '/api/v1/auth/login/json' }).first().waitFor();
      // From 150 rows on, Swagger UI draws only the operations near the viewport: scroll through
      // the page, half a screen at a time, and collect every operation drawn (its block's id ends
      // in `-<operationId>`), until each operation of the document has been seen.
      const drawn = new Set<string>();
      const everyOperationId = operations.map(({ operation }) => operation.operationId ?? '');
      await expect
        .poll(
          async () => {
            const ids = (await page.evaluate(
              `[...document.querySelectorAll('.opblock')].map((block) => block.id)`,
            )) as string[];
            for (const id of ids) drawn.add(id.slice(id.lastIndexOf('-') + 1));
            await page.evaluate(
              `window.scrollTo(0, window.scrollY + window.innerHeight >= document.body.scrollHeight - 1
                ? 0 : window.scrollY + window.innerHeight / 2)`,
            );
            return everyOperationId.filter((id) => !drawn.has(id));
          },
          { timeout: 60_000 },
        )
        .toEqual([]);
      await page.evaluate('window.scrollTo(0, 0)');

      await mkdir(resolve(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      expect((await stat(SCREENSHOT)).size).toBeGreaterThan(10_000);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
}

if (existsSync(CHROMIUM_PATH)) describe(browserTitle, defineBrowserSuite);
else
  describe.skip(
    `${browserTitle} [skipped: ${CHROMIUM_PATH} is missing; apt-get install chromium]`,
    defineBrowserSuite,
  );
