import { expect } from 'vitest';
import { SCIM_SCHEMAS, scimTokenCreatedSchema } from '../../../src/shared/api/scim.js';
import { SCIM_BASE_PATH } from '../../../src/shared/routes.js';
import type { TestServer } from '../../support/test-server.js';

/** An answer of the SCIM server, read off the real socket. */
export interface ScimAnswer {
  status: number;
  contentType: string;
  body: Record<string, unknown> & {
    id?: string;
    active?: boolean;
    totalResults?: number;
    Resources?: Record<string, unknown>[];
    scimType?: string;
    code?: string;
    detail?: string;
  };
}

/** The owner creates the organisation's SCIM token in the portal; the answer shows it once. */
export async function createScimToken(s: TestServer, ownerToken: string, organisationId: string) {
  const response = await s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/provisioning/token`,
    token: ownerToken,
  });
  expect(response.statusCode, response.body).toBe(201);
  return scimTokenCreatedSchema.parse(response.json());
}

/**
 * A SCIM client over HTTP, as an identity provider calls: `Authorization: Bearer scim_…`, bodies
 * as application/scim+json, no API key.
 */
export function scimClient(baseUrl: string, token: string) {
  return async function scim(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ScimAnswer> {
    const response = await fetch(`${baseUrl}${SCIM_BASE_PATH}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: text === '' ? {} : (JSON.parse(text) as ScimAnswer['body']),
    };
  };
}

/** Asserts a SCIM error: its status, the SCIM error schema with `scimType`, and the API's own fields. */
export function expectScimError(answer: ScimAnswer, status: number, scimType?: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.contentType).toMatch(/^application\/scim\+json/);
  expect(answer.body.schemas).toEqual([SCIM_SCHEMAS.error]);
  expect(answer.body.status).toBe(String(status));
  if (scimType) expect(answer.body.scimType).toBe(scimType);
  expect(answer.body.detail).toBeTruthy();
  expect(answer.body.message).toBe(answer.body.detail);
  expect(answer.body.code).toBeTruthy();
}

/** A user as Entra ID's provisioning service creates one (its request body, attribute for attribute). */
export const entraUser = (email: string, externalId: string, given = 'Ada', family = 'Lovelace') => ({
  schemas: [SCIM_SCHEMAS.user, SCIM_SCHEMAS.enterpriseUser],
  externalId,
  userName: email,
  active: true,
  displayName: `${given} ${family}`,
  emails: [{ primary: true, type: 'work', value: email }],
  meta: { resourceType: 'User' },
  name: { formatted: `${given} ${family}`, familyName: family, givenName: given },
  title: 'Engineer',
  [SCIM_SCHEMAS.enterpriseUser]: { department: 'Research' },
});

/** Entra ID's deactivation: a PatchOp replacing `active` with the string "False". */
export const entraDeactivate = {
  schemas: [SCIM_SCHEMAS.patchOp],
  Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
};

const listening = new WeakMap<TestServer, Promise<string>>();
/** The suite's server on a loopback socket: it listens once, whichever test asks first. */
export function baseUrlOf(s: TestServer): Promise<string> {
  let url = listening.get(s);
  if (!url) {
    url = s.listen();
    listening.set(s, url);
  }
  return url;
}
