import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { licenseListSchema } from '../../../src/shared/api/licenses.js';
import type { LicenseRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  createPlan,
  expectActivation,
  giveLicense,
  licenseRow,
  licenseSuiteOptions,
  licensingTables,
  machine,
  type Member,
  member,
} from '../helpers/license-helpers.js';

interface Call {
  name: string;
  method: InjectOptions['method'];
  path: (id: string) => string;
  body?: (context: { hw: string; freePlanId: string }) => unknown;
}

/** Every route that names a license by id. */
const licenseRoutes: Call[] = [
  { name: 'GET /licenses/{id}', method: 'GET', path: (id) => `/licenses/${id}` },
  {
    name: 'POST /licenses/{id}/deactivate',
    method: 'POST',
    path: (id) => `/licenses/${id}/deactivate`,
    body: ({ hw }) => ({ hardware_id: hw }),
  },
  { name: 'GET /licenses/{id}/usage', method: 'GET', path: (id) => `/licenses/${id}/usage` },
  {
    name: 'POST /licenses/{id}/usage',
    method: 'POST',
    path: (id) => `/licenses/${id}/usage`,
    body: () => ({ featureId: 'ai_chat' }),
  },
  { name: 'GET /licenses/{id}/features', method: 'GET', path: (id) => `/licenses/${id}/features` },
  {
    name: 'GET /licenses/{id}/features/{featureId}',
    method: 'GET',
    path: (id) => `/licenses/${id}/features/ai_chat`,
  },
  {
    name: 'PUT /licenses/{id}/plan',
    method: 'PUT',
    path: (id) => `/licenses/${id}/plan`,
    body: ({ freePlanId }) => ({ planId: freePlanId }),
  },
  { name: 'GET /licenses/{id}/download', method: 'GET', path: (id) => `/licenses/${id}/download` },
];

/** Routes that need no license id. */
const userRoutes: { name: string; method: InjectOptions['method']; path: string; body?: unknown }[] = [
  { name: 'GET /licenses', method: 'GET', path: '/licenses' },
  { name: 'GET /licenses/current-plan', method: 'GET', path: '/licenses/current-plan' },
  {
    name: 'POST /licenses/activate',
    method: 'POST',
    path: '/licenses/activate',
    body: { license_key: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', hardware_id: 'hw-anonymous-1' },
  },
  {
    name: 'POST /licenses/activate-base',
    method: 'POST',
    path: '/licenses/activate-base',
    body: { hardware_id: 'hw-anonymous-1' },
  },
  {
    name: 'POST /licenses/activate-plan',
    method: 'POST',
    path: '/licenses/activate-plan',
    body: { planId: 'base' },
  },
];

describeOnEveryDatabase(
  'licenses: who may see and change them',
  (server) => {
    let owner: Member;
    let intruder: Member;
    let license: LicenseRow;
    let hw: string;
    let freePlanId: string;

    beforeAll(async () => {
      const s = server();
      owner = await member(s);
      intruder = await member(s);
      license = await giveLicense(s, owner, 'pro-monthly');
      hw = machine('owner');
      expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
      freePlanId = (await createPlan(s, { seats: 3 })).id;
    });

    const send = (s: TestServer, call: Call, id: string, token?: string, withoutApiKey = false) =>
      s.api({
        method: call.method,
        path: call.path(id),
        ...(token ? { token } : {}),
        ...(call.body ? { body: call.body({ hw, freePlanId }) } : {}),
        withoutApiKey,
      });

    describe('another user’s license reads as not found (404, never 403) and is left untouched', () => {
      it.each(licenseRoutes)('$name → 404 license_not_found', async (call) => {
        const s = server();
        const before = await licensingTables(s);
        const body = expectApiError(
          await send(s, call, license.id, intruder.token),
          404,
          'license_not_found',
        );
        expect(body.message).toBe('License not found');
        expect(await licensingTables(s)).toEqual(before);
        expect((await licenseRow(s, license.id)).plan_id).toBe(license.plan_id);
      });

      it('the owner gets past the ownership check on the same routes (the 404 above is about ownership)', async () => {
        const s = server();
        for (const call of licenseRoutes.filter(
          (item) => item.method === 'GET' && !item.name.includes('download'),
        )) {
          const response = await send(s, call, license.id, owner.token);
          expect(response.statusCode, `${call.name}: ${response.body}`).toBe(200);
        }
        // No installer is published in this suite, which is a different 404.
        expectApiError(
          await send(s, licenseRoutes.at(-1)!, license.id, owner.token),
          404,
          'release_not_found',
        );
      });

      it('GET /licenses of another user never lists the license', async () => {
        const s = server();
        const response = await s.api({ path: '/licenses', token: intruder.token });
        expect(response.statusCode).toBe(200);
        expect(licenseListSchema.parse(response.json()).map((item) => item.license_id)).not.toContain(
          license.id,
        );
      });
    });

    describe('anonymous callers → 401 not_authenticated', () => {
      it.each(licenseRoutes)('$name', async (call) => {
        const s = server();
        const before = await licensingTables(s);
        expectApiError(await send(s, call, license.id), 401, 'not_authenticated');
        expect(await licensingTables(s)).toEqual(before);
      });

      it.each(userRoutes)('$name', async (call) => {
        const s = server();
        const before = await licensingTables(s);
        expectApiError(
          await s.api({ method: call.method, path: call.path, ...(call.body ? { body: call.body } : {}) }),
          401,
          'not_authenticated',
        );
        expect(await licensingTables(s)).toEqual(before);
      });
    });

    describe('without X-API-Key → 401 invalid_api_key, even when signed in', () => {
      it.each(licenseRoutes)('$name', async (call) => {
        const s = server();
        expectApiError(await send(s, call, license.id, owner.token, true), 401, 'invalid_api_key');
      });

      it.each(userRoutes)('$name', async (call) => {
        const s = server();
        expectApiError(
          await s.api({
            method: call.method,
            path: call.path,
            token: owner.token,
            withoutApiKey: true,
            ...(call.body ? { body: call.body } : {}),
          }),
          401,
          'invalid_api_key',
        );
      });
    });
  },
  licenseSuiteOptions,
);
