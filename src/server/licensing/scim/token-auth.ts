import type { FastifyRequest } from 'fastify';
import { SCIM_TOKEN_PREFIX } from '../../../shared/api/scim.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import { sha256 } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import { requestMeta } from '../../platform/request-meta.js';
import { scimError } from './errors.js';
import { findScimTokenByHash, touchScimToken } from './repository.js';
import type { ScimCaller } from './users.js';

const USE_RECORDED_EVERY_MS = 60_000;

const refused = () => {
  const error = scimError(
    401,
    'scim_token_invalid',
    'Send the organization’s provisioning token as Authorization: Bearer scim_…; this one is missing, revoked or replaced.',
  );
  Object.assign(error.headers, { 'www-authenticate': 'Bearer realm="SCIM"' });
  return error;
};

/**
 * The organisation a SCIM request's bearer token belongs to: every query of the request is then
 * limited to it, so another organisation's users and groups are simply not found (404).
 */
export function createScimTokenAuth({ db, clock }: { db: Db; clock: Clock }) {
  return async function scimCallerOf(request: FastifyRequest): Promise<ScimCaller> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const token = match?.[1];
    if (!token?.startsWith(SCIM_TOKEN_PREFIX) || token.length > 200) throw refused();
    const row = await findScimTokenByHash(db, sha256(token));
    if (!row) throw refused();
    const now = clock.now();
    await touchScimToken(
      db,
      row.id,
      isoNow(clock),
      new Date(now.getTime() - USE_RECORDED_EVERY_MS).toISOString(),
    );
    return {
      organisationId: row.organisation_id,
      actor: { tokenId: row.id, userId: null, meta: requestMeta(request) },
    };
  };
}
