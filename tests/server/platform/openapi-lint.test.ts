import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { beforeAll, expect, it } from 'vitest';
import { operationsOf } from '../../../src/server/platform/http/openapi-helpers.js';
import { API_BASE_PATH, OPENAPI_DOCUMENT_PATH, SCIM_BASE_PATH } from '../../../src/shared/routes.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';

/**
 * The served OpenAPI document against Redocly's `recommended` rules (the ones `redocly lint`
 * applies by default), with the rules a client generator depends on raised to errors, plus the
 * walk over every operation that keeps a new route from forgetting its id, tags or security.
 */

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
}
interface OpenApiDocument {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { securitySchemes: Record<string, unknown> };
}

/** Raised from warnings: what generators and integrators rely on. */
const STRICTER_RULES = {
  'operation-operationId': 'error',
  'operation-summary': 'error',
  'operation-tag-defined': 'error',
  'tag-description': 'error',
  'security-defined': 'error',
  'no-server-example.com': 'error',
} as const;

/** The warnings kept, each with why it is not a fault of the document. */
const KEPT_WARNINGS: { ruleId: string; pointer: string; why: string }[] = [
  {
    ruleId: 'operation-2xx-response',
    pointer: '#/paths/~1api~1v1~1auth~1sso~1callback/get/responses',
    why: 'the identity provider’s return only ever sends the browser on to the portal (302)',
  },
  {
    ruleId: 'operation-2xx-response',
    pointer: '#/paths/~1api~1v1~1auth~1sso~1saml~1{organisationId}~1acs/post/responses',
    why: 'the SAML identity provider’s answer only ever sends the browser on (303)',
  },
  {
    ruleId: 'info-license',
    pointer: '#/info',
    why: 'the API is the product’s own, not offered under a licence; naming one is not the document’s call',
  },
  {
    ruleId: 'operation-4xx-response',
    pointer: `#/paths/~1api~1v1~1health/get/responses`,
    why: 'the health check takes no key and no input: it answers 200 or 503, never a client error',
  },
  {
    ruleId: 'operation-4xx-response',
    pointer: `#/paths/~1api~1v1~1health~1live/get/responses`,
    why: 'the liveness probe takes no key and no input: it answers 200 while the process does',
  },
  {
    ruleId: 'operation-4xx-response',
    pointer: `#/paths/~1api~1v1~1health~1ready/get/responses`,
    why: 'the readiness probe takes no key and no input: it answers 200 or 503, never a client error',
  },
  // Reported at each path that comes after /admin/webhooks/deliveries/{deliveryId} (paths are sorted).
  ...['deliveries', 'rotate-secret', 'test'].map((action) => ({
    ruleId: 'no-ambiguous-paths',
    pointer: `#/paths/~1api~1v1~1admin~1webhooks~1{endpointId}~1${action}`,
    why:
      `/admin/webhooks/{endpointId}/${action} and /admin/webhooks/deliveries/{deliveryId} could both match ` +
      `/admin/webhooks/deliveries/${action}, but the router takes the literal \`deliveries\` first and no ` +
      'endpoint is called `deliveries` (ids are made by the server)',
  })),
  {
    ruleId: 'no-ambiguous-paths',
    pointer: `#/paths/~1api~1v1~1plans~1{id}~1publish`,
    why:
      '/plans/public/{id} and /plans/{id}/publish would both match /plans/public/publish, but the router ' +
      'takes the literal `public` first and no plan is called `public` (ids are made by the server)',
  },
];

/** Operations anyone may call without even the client key; any other must name its credentials. */
const OPEN_OPERATIONS = [
  'getHealth', // monitoring
  'getLiveness', // an orchestrator's probes
  'getReadiness',
  'downloadInstaller', // the signed link is the credential
  'downloadDataExport', // the mailed link's random token is the credential
  'getUpdateChannelFile', // electron-updater's feed: the signed token in the path is the credential
  'downloadUpdateFile',
  'previewUnsubscribe', // the signed token of a mail's link is the credential
  'unsubscribe',
  'receiveRazorpayWebhook', // signed by Razorpay over the raw body
  'ssoCallback', // the identity provider's return: the sign-in's state is the credential
  'getSamlServiceProviderMetadata', // public by nature: identity providers read it
  'samlAssertionConsumerService', // the signed assertion and the RelayState's sign-in are the credential
];

const describeProblem = (problem: NormalizedProblem) =>
  `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`;

describeOnEveryDatabase('The served OpenAPI document', (server) => {
  let text = '';
  let document: OpenApiDocument;
  let operations: { path: string; method: string; operation: Operation }[] = [];

  beforeAll(async () => {
    const base = await server().listen();
    const response = await fetch(`${base}${OPENAPI_DOCUMENT_PATH}`);
    expect(response.status).toBe(200);
    text = await response.text();
    document = JSON.parse(text) as OpenApiDocument;
    operations = operationsOf<Operation>(document);
  });

  it('passes Redocly’s recommended rules: no errors, and only the warnings listed here with a reason', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: STRICTER_RULES });
    const problems = await lintFromString({
      source: text,
      absoluteRef: `${server().config.publicUrl}${OPENAPI_DOCUMENT_PATH}`,
      config,
    });
    expect(problems.filter(({ severity }) => severity === 'error').map(describeProblem)).toEqual([]);
    const unexplained = problems.filter(
      (problem) =>
        problem.severity === 'warn' &&
        !KEPT_WARNINGS.some(
          ({ ruleId, pointer }) => problem.ruleId === ruleId && problem.location[0]?.pointer === pointer,
        ),
    );
    expect(unexplained.map(describeProblem)).toEqual([]);
  });

  it('names the portal as its server, and the paths carry /api/v1 (or /scim/v2), so server + path is the URL to call', () => {
    expect(document.servers).toEqual([{ url: server().config.publicUrl, description: 'This portal' }]);
    expect(operations.length).toBeGreaterThan(100);
    for (const { path } of operations)
      expect(path.startsWith(`${API_BASE_PATH}/`) || path.startsWith(`${SCIM_BASE_PATH}/`), path).toBe(true);
  });

  it('gives every operation a unique camelCase operationId that is not made from its path', () => {
    const ids = operations.map(({ method, path, operation }) => {
      const id = operation.operationId;
      expect(id, `${method} ${path} has no operationId`).toBeDefined();
      expect(id, `${method} ${path}`).toMatch(/^[a-z][a-z]*(?:[A-Z0-9][a-z0-9]*)*$/);
      // The generator's own names look like postApiV1LicensesIdDeactivate.
      expect(id, `${method} ${path}`).not.toMatch(/^(get|post|put|patch|delete)Api/);
      return id;
    });
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated).toEqual([]);
  });

  it('declares the security of every operation: the API key, and the bearer token where a user is needed', () => {
    const schemes = Object.keys(document.components.securitySchemes).sort();
    expect(schemes).toEqual(['apiKey', 'bearerAuth', 'scimBearer']);
    const open: string[] = [];
    for (const { method, path, operation } of operations) {
      const where = `${method} ${path} (${operation.operationId})`;
      expect(Array.isArray(operation.security), `${where} declares no security`).toBe(true);
      const requirements = operation.security ?? [];
      if (requirements.length === 0) {
        open.push(operation.operationId ?? where);
        continue;
      }
      for (const requirement of requirements) {
        expect(
          Object.keys(requirement).every((name) => schemes.includes(name)),
          where,
        ).toBe(true);
        // A bearer token never replaces the client key; SCIM's token alone is the credential of SCIM's
        // routes, which identity providers call without a client key.
        if (path.startsWith(`${SCIM_BASE_PATH}/`))
          expect(Object.keys(requirement), where).toEqual(['scimBearer']);
        else expect(Object.keys(requirement), where).toContain('apiKey');
      }
    }
    expect(open.sort()).toEqual([...OPEN_OPERATIONS].sort());
  });

  it('tags every operation with declared tags, each described', () => {
    const declared = document.tags ?? [];
    expect(declared.length).toBeGreaterThan(10);
    for (const tag of declared) expect(tag.description?.length ?? 0, tag.name).toBeGreaterThan(20);
    const names = declared.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    const used = new Set<string>();
    for (const { method, path, operation } of operations) {
      expect(operation.tags?.length ?? 0, `${method} ${path} has no tag`).toBeGreaterThan(0);
      expect(operation.summary, `${method} ${path} has no summary`).toBeTruthy();
      for (const tag of operation.tags ?? []) {
        expect(names, `${method} ${path}: tag ${tag}`).toContain(tag);
        used.add(tag);
      }
    }
    expect(names.filter((name) => !used.has(name))).toEqual([]);
  });
});
