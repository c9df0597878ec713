import { readFile } from 'node:fs/promises';
import createClient from 'openapi-fetch';
import type { OpenAPI3 } from 'openapi-typescript';
import { beforeAll, expect, it } from 'vitest';
import {
  fetchDocument,
  GENERATED_TYPES_FILE,
  generatePortalApiTypes,
} from '../../../scripts/openapi-types.js';
import { API_TOKEN_PATTERN } from '../../../src/shared/api/api-tokens.js';
import { OPENAPI_DOCUMENT_PATH } from '../../../src/shared/routes.js';
import { describeOnEveryDatabase, WEB_API_KEY } from '../../support/test-server.js';
import type { paths } from '../generated/portal-api.js';
import { activeSeats, createPlan, giveLicense, machine, member } from '../helpers/license-helpers.js';

/**
 * What an integrator does: generate a typed client from the served document (openapi-typescript
 * for the types, openapi-fetch for the calls) and drive the API with a personal API token over
 * real HTTP.
 */

describeOnEveryDatabase('A client generated from the OpenAPI document', (server) => {
  let base = '';
  let document: OpenAPI3;

  beforeAll(async () => {
    base = await server().listen();
    document = await fetchDocument(`${base}${OPENAPI_DOCUMENT_PATH}`);
  });

  /** A typed client of the portal, sending the client key and a bearer token (session or API token). */
  const clientWith = (bearer: string) =>
    createClient<paths>({
      baseUrl: base,
      headers: { 'X-API-Key': WEB_API_KEY, Authorization: `Bearer ${bearer}` },
    });

  /** A customer's license of a two-seat plan, activated on two machines from the desktop app. */
  async function licenseOnTwoMachines() {
    const s = server();
    const owner = await member(s);
    const license = await giveLicense(s, owner, await createPlan(s, { seats: 2 }));
    const desktop = clientWith(owner.token);
    const machines = [machine('laptop'), machine('office')];
    for (const hardware_id of machines) {
      const { response } = await desktop.POST('/api/v1/licenses/activate', {
        body: { license_key: license.license_key, hardware_id, device_name: hardware_id },
      });
      expect(response.status).toBe(201);
    }
    return { owner, license, machines, session: desktop };
  }

  /** A personal API token made through the API by the signed-in owner. */
  async function apiToken(session: ReturnType<typeof clientWith>, scopes: string[]) {
    const { data, error, response } = await session.POST('/api/v1/users/me/api-tokens', {
      body: { name: `Seat manager ${scopes.join(' ')}`, scopes, expires_in_days: 30 },
    });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data?.api_token.scopes).toEqual(scopes);
    expect(data?.token).toMatch(API_TOKEN_PATTERN);
    return data?.token ?? '';
  }

  // Generating takes seconds of CPU; on a loaded machine more than the default test timeout.
  it(
    'has committed types that are what the served document makes (npm run openapi:types)',
    { timeout: 120_000 },
    async () => {
      const committed = await readFile(GENERATED_TYPES_FILE, 'utf8');
      const fresh = await generatePortalApiTypes(document);
      // Compared line by line, so a stale file shows what changed rather than two huge strings.
      expect(committed.split('\n'), 'stale: run `npm run openapi:types` and commit the file').toEqual(
        fresh.split('\n'),
      );
    },
  );

  it('lists licenses and frees a seat with an API token of licenses:read and licenses:write', async () => {
    const { license, machines, session } = await licenseOnTwoMachines();
    const integration = clientWith(await apiToken(session, ['licenses:read', 'licenses:write']));

    const listed = await integration.GET('/api/v1/licenses');
    expect(listed.response.status).toBe(200);
    const mine = listed.data?.find(({ license_id }) => license_id === license.id);
    expect(mine?.activations_used).toBe(2);
    const office = (
      await integration.GET('/api/v1/licenses/{id}', { params: { path: { id: license.id } } })
    ).data?.activations?.find(({ hardware_id }) => hardware_id === machines[1]);
    expect(office?.deactivated_at).toBeNull();

    const freed = await integration.POST('/api/v1/licenses/{id}/deactivate', {
      params: { path: { id: license.id } },
      body: { activation_id: office?.activation_id ?? '' },
    });
    expect(freed.error, JSON.stringify(freed.error)).toBeUndefined();
    expect(freed.response.status).toBe(200);
    expect(freed.data?.activations_used).toBe(1);
    const after = freed.data?.activations?.find(
      ({ activation_id }) => activation_id === office?.activation_id,
    );
    expect(after?.deactivated_reason).toBe('user');
    expect(after?.deactivated_at).not.toBeNull();

    const seats = await activeSeats(server(), license.id);
    expect(seats.map(({ hardware_id }) => hardware_id)).toEqual([machines[0]]);
    const relisted = await integration.GET('/api/v1/licenses');
    expect(relisted.data?.find(({ license_id }) => license_id === license.id)?.activations_used).toBe(1);
  });

  it('gets the typed error body when the token lacks the scope, and frees nothing', async () => {
    const { license, machines, session } = await licenseOnTwoMachines();
    const token = await apiToken(session, ['licenses:read']);
    const readOnly = clientWith(token);

    expect((await readOnly.GET('/api/v1/licenses')).response.status).toBe(200);
    const refused = await readOnly.POST('/api/v1/licenses/{id}/deactivate', {
      params: { path: { id: license.id } },
      body: { hardware_id: machines[0] ?? '' },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.data).toBeUndefined();
    expect(refused.error?.code).toBe('insufficient_scope');
    expect(refused.error?.message).toContain('licenses:write');
    expect(await activeSeats(server(), license.id)).toHaveLength(2);

    // Without the client key, even a good token is refused: 401, with the same error body.
    const keyless = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token}` } });
    const anonymous = await keyless.GET('/api/v1/licenses');
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error?.code).toBe('invalid_api_key');
  });
});
