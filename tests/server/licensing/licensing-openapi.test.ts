import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { OPENAPI_DOCUMENT_PATH } from '../../../src/shared/routes.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Every licensing operation: method, path, request body component (if any), success status and component. */
const OPERATIONS: [
  method: string,
  path: string,
  body: string | null,
  status: string,
  response: string | null,
][] = [
  ['get', '/plans/public', null, '200', 'PublicPlanList'],
  ['get', '/plans/public/{id}', null, '200', 'Plan'],
  ['get', '/plans', null, '200', 'PlanList'],
  ['post', '/plans', 'CreatePlanRequestInput', '201', 'Plan'],
  ['get', '/plans/stats', null, '200', 'PlanStats'],
  ['get', '/plans/{id}', null, '200', 'Plan'],
  ['put', '/plans/{id}', 'UpdatePlanRequestInput', '200', 'Plan'],
  ['delete', '/plans/{id}', null, '200', 'DeletePlanResponse'],
  ['get', '/admin/features', null, '200', 'FeatureList'],
  ['post', '/admin/features', 'CreateFeatureRequestInput', '201', 'Feature'],
  ['get', '/admin/features/stats', null, '200', 'FeatureStats'],
  ['get', '/admin/features/{id}', null, '200', 'Feature'],
  ['put', '/admin/features/{id}', 'UpdateFeatureRequestInput', '200', 'Feature'],
  ['delete', '/admin/features/{id}', null, '204', null],
  ['get', '/licenses', null, '200', 'LicenseList'],
  ['get', '/licenses/{id}', null, '200', 'License'],
  ['get', '/licenses/current-plan', null, '200', 'CurrentPlan'],
  ['post', '/licenses/activate', 'ActivateLicenseRequestInput', '201', 'ActivationResult'],
  ['post', '/licenses/activate-base', 'ActivateBaseLicenseRequestInput', '201', 'ActivationResult'],
  ['post', '/licenses/activate-plan', 'ActivatePlanRequestInput', '201', 'License'],
  ['post', '/licenses/validate', 'ValidateLicenseRequestInput', '200', 'LicenseStatus'],
  ['post', '/licenses/{id}/deactivate', 'DeactivateRequestInput', '200', 'License'],
  ['get', '/licenses/{id}/usage', null, '200', 'LicenseUsage'],
  ['post', '/licenses/{id}/usage', 'TrackUsageRequestInput', '200', 'TrackUsageResponse'],
  ['get', '/licenses/{id}/features', null, '200', 'LicenseFeatures'],
  ['get', '/licenses/{id}/features/{featureId}', null, '200', 'FeatureUsage'],
  ['put', '/licenses/{id}/plan', 'ChangePlanRequestInput', '200', 'License'],
  ['get', '/licenses/{id}/download', null, '200', 'DownloadResponse'],
  ['get', '/licensing/status', null, '200', 'LicenseStatus'],
  ['get', '/licensing/public-key', null, '200', 'LeaseSigningKeys'],
  ['post', '/machine-trials', 'StartMachineTrialRequestInput', '201', 'MachineTrial'],
  ['get', '/admin/licensing/settings', null, '200', 'LicensingSettings'],
  ['put', '/admin/licensing/settings', 'inline', '200', 'LicensingSettings'],
  ['get', '/downloads/{token}', null, '200', null],
];

let app: FastifyInstance;
let dataDir = '';
let document: OpenApiDocument;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'portal-licensing-openapi-'));
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
  const response = await app.inject(OPENAPI_DOCUMENT_PATH);
  expect(response.statusCode).toBe(200);
  document = response.json<OpenApiDocument>();
});

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const operation = (method: string, path: string): Operation => {
  const found = document.paths[`/api/v1${path}`]?.[method];
  if (!found) throw new Error(`${method.toUpperCase()} /api/v1${path} is not documented`);
  return found;
};

describe(`the licensing API in ${OPENAPI_DOCUMENT_PATH}`, () => {
  it.each(OPERATIONS)(
    'documents %s %s with its request and response schemas',
    (method, path, body, status, response) => {
      const documented = operation(method, path);
      const requestSchema = documented.requestBody?.content?.['application/json']?.schema;
      if (body === null) expect(documented.requestBody).toBeUndefined();
      else if (body === 'inline')
        expect(requestSchema).toMatchObject({ type: 'object', properties: expect.any(Object) });
      else expect(requestSchema).toEqual(ref(body));
      expect(documented.responses?.[status], `${status} response`).toBeDefined();
      if (response !== null)
        expect(documented.responses?.[status]?.content?.['application/json']?.schema).toEqual(ref(response));
    },
  );

  it('names the component schemas of licenses, plans, features, activations, status answers and refusals', () => {
    for (const name of [
      'License',
      'Plan',
      'PlanFeature',
      'Feature',
      'Activation',
      'ActivationResult',
      'FeatureUsage',
      'LicenseStatus',
      'LicenseRefusal',
      'Release',
      'DownloadResponse',
      'LeaseSigningKeys',
    ])
      expect(document.components.schemas[name], name).toBeDefined();
    const plan = document.components.schemas['Plan'];
    expect(Object.keys(plan?.properties ?? {})).toEqual(
      expect.arrayContaining(['price_minor', 'currency', 'max_activations', 'features', 'archived_at']),
    );
    expect(JSON.stringify(plan?.properties?.['features'])).toContain(ref('PlanFeature').$ref);
    const status = document.components.schemas['LicenseStatus'];
    expect(status?.required).toEqual(
      expect.arrayContaining(['valid', 'status', 'lease', 'lease_expires_at']),
    );
    const refusal = JSON.stringify(document.components.schemas['LicenseRefusal']);
    for (const field of ['detail', 'message', 'code', 'valid', 'status', 'requires_activation'])
      expect(refusal).toContain(`"${field}"`);
    expect(JSON.stringify(document.components.schemas['ActivationResult'])).toContain('"lease"');
  });

  it('documents refused license checks with the LicenseRefusal body', () => {
    for (const [method, path] of [
      ['get', '/licensing/status'],
      ['post', '/licenses/validate'],
      ['post', '/licenses/activate'],
      ['get', '/licenses/{id}/download'],
    ] as const)
      for (const status of ['400', '403', '404'])
        expect(
          operation(method, path).responses?.[status]?.content?.['application/json']?.schema,
          `${method} ${path} ${status}`,
        ).toEqual(ref('LicenseRefusal'));
  });

  it('documents the query parameters of the lists, the status check and the download', () => {
    const names = (method: string, path: string, where = 'query') =>
      (operation(method, path).parameters ?? [])
        .filter((p) => p.in === where)
        .map((p) => p.name)
        .sort();
    expect(names('get', '/plans')).toEqual(['page', 'perPage', 'search', 'sort', 'status']);
    expect(names('get', '/admin/features')).toEqual(['kind', 'page', 'perPage', 'search', 'sort']);
    const status = operation('get', '/licensing/status').parameters ?? [];
    expect(status.filter((p) => p.in === 'query').map((p) => [p.name, p.required])).toEqual([
      ['license_key', true],
      ['hardware_id', true],
      ['app_version', false],
      ['nonce', false],
      ['components', false],
    ]);
    const platform = operation('get', '/licenses/{id}/download').parameters?.find(
      (p) => p.name === 'platform',
    );
    expect(platform?.schema).toMatchObject({ enum: ['windows', 'macos', 'linux'] });
    expect(names('get', '/downloads/{token}', 'path')).toEqual(['token']);
  });

  it('marks who may call what: the API key alone for the catalogue and machine checks, a bearer token for the rest, nothing for download links', () => {
    const apiKeyOnly = [{ apiKey: [] }];
    const signedIn = [{ bearerAuth: [], apiKey: [] }];
    for (const [method, path] of [
      ['get', '/plans/public'],
      ['get', '/plans/public/{id}'],
      ['get', '/licensing/status'],
      ['post', '/licenses/validate'],
      ['get', '/licensing/public-key'],
      ['post', '/machine-trials'],
    ])
      expect(operation(method ?? '', path ?? '').security, `${method} ${path}`).toEqual(apiKeyOnly);
    for (const [method, path] of OPERATIONS.filter(
      ([, path]) =>
        !path.startsWith('/plans/public') &&
        !path.startsWith('/licensing/') &&
        !path.startsWith('/downloads/') &&
        path !== '/licenses/validate' &&
        path !== '/machine-trials',
    ))
      expect(operation(method, path).security, `${method} ${path}`).toEqual(signedIn);
    expect(operation('get', '/downloads/{token}').security ?? []).toEqual([]);
  });
});
