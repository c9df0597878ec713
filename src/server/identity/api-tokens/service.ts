import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  AdminApiToken,
  adminApiTokenListQuerySchema,
  ApiToken,
  ApiTokenKind,
  CreateApiTokenBody,
  CreatedApiToken,
} from '../../../shared/api/api-tokens.js';
import type { Paged } from '../../../shared/api/paging.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { ApiTokenRow } from '../../platform/db/tables-api-tokens.js';
import type { UserRow } from '../../platform/db/tables.js';
import { forbidden, notFound, unauthorized } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { AuthenticatedUser } from '../auth/service.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import {
  findApiToken,
  findApiTokenByHash,
  insertApiToken,
  listAllTokens,
  listTokensOf,
  revokeApiToken,
} from './repository.js';
import { assertGrantable } from './scopes.js';
import { displayParts, generateApiToken, hasValidChecksum, hashApiToken } from './token-format.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const invalidApiToken = () => unauthorized('invalid_token', 'Invalid, expired or revoked API token');

const statusOf = (row: ApiTokenRow, now: string): ApiToken['status'] =>
  row.revoked_at !== null ? 'revoked' : row.expires_at <= now ? 'expired' : 'active';

const toApiToken = (row: ApiTokenRow, now: string): ApiToken => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  prefix: row.prefix,
  last_four: row.last_four,
  scopes: JSON.parse(row.scopes) as string[],
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
  last_used_ip: row.last_used_ip,
  revoked_at: row.revoked_at,
  status: statusOf(row, now),
});

/**
 * Personal tokens (a customer's own licences and machines) and platform tokens (an
 * administrator's), scoped by OpenAPI tag, shown once, stored as SHA-256, revocable.
 */
export function createApiTokensService({ db, clock }: { db: Db; clock: Clock }) {
  async function create(
    owner: UserRow,
    kind: ApiTokenKind,
    body: CreateApiTokenBody,
    meta: RequestMeta,
  ): Promise<CreatedApiToken> {
    if (kind === 'platform' && owner.role !== 'admin') {
      throw forbidden('admin_required', 'Only administrators may create platform tokens');
    }
    assertGrantable(kind, body.scopes);
    const token = generateApiToken();
    const now = clock.now();
    const row: ApiTokenRow = {
      id: randomUUID(),
      user_id: owner.id,
      kind,
      name: body.name,
      token_hash: hashApiToken(token),
      ...displayParts(token),
      scopes: JSON.stringify(body.scopes),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + body.expires_in_days * DAY_MS).toISOString(),
      last_used_at: null,
      last_used_ip: null,
      revoked_at: null,
      revoked_by: null,
    };
    await db.transaction().execute(async (trx) => {
      await insertApiToken(trx, row);
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.apiTokenCreated,
        severity: kind === 'platform' ? 'warning' : 'info',
        userId: owner.id,
        actorId: owner.id,
        meta,
        details: { token_id: row.id, kind, name: row.name, scopes: body.scopes, expires_at: row.expires_at },
      });
    });
    return { token, api_token: toApiToken(row, row.created_at) };
  }

  async function revoke(
    tokenId: string,
    actor: UserRow,
    meta: RequestMeta,
    { anyOwner }: { anyOwner: boolean },
  ): Promise<ApiToken> {
    const now = isoNow(clock);
    return db.transaction().execute(async (trx) => {
      const found = await findApiToken(trx, tokenId);
      // Another account's token is as absent as one that never was, unless an administrator asks.
      if (!found || (!anyOwner && found.user_id !== actor.id)) {
        throw notFound('api_token_not_found', 'API token not found');
      }
      if (await revokeApiToken(trx, tokenId, { at: now, by: actor.id })) {
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.apiTokenRevoked,
          severity: 'info',
          userId: found.user_id,
          actorId: actor.id,
          meta,
          details: { token_id: found.id, kind: found.kind, name: found.name },
        });
        return toApiToken({ ...found, revoked_at: now, revoked_by: actor.id }, now);
      }
      // Revoking twice is not an error: the token is revoked either way.
      return toApiToken(found, now);
    });
  }

  return {
    create,
    revoke,

    async listOwn(userId: string, kind: ApiTokenKind): Promise<ApiToken[]> {
      const now = isoNow(clock);
      return (await listTokensOf(db, userId, kind)).map((row) => toApiToken(row, now));
    },

    async listAll(query: z.output<typeof adminApiTokenListQuerySchema>): Promise<Paged<AdminApiToken>> {
      const now = isoNow(clock);
      const page = await listAllTokens(db, query, now);
      return {
        ...page,
        data: page.data.map((row) => ({
          ...toApiToken(row, now),
          user_id: row.user_id,
          owner_email: row.owner_email,
        })),
      };
    },

    /**
     * The caller of a bearer that is an API token: 401 `invalid_token` for a bad checksum (before
     * any lookup), an unknown, revoked or expired token, an owner no longer active, or a platform
     * token whose owner is no longer an administrator. A personal token acts as a customer even
     * when its owner is an administrator. Writes nothing: the call's use is noted once it is
     * answered (token-uses.ts), with the token's `last_used_at`.
     */
    async authenticate(token: string): Promise<{ caller: AuthenticatedUser; name: string }> {
      if (!hasValidChecksum(token)) throw invalidApiToken();
      const found = await findApiTokenByHash(db, hashApiToken(token));
      const now = isoNow(clock);
      if (!found) throw invalidApiToken();
      const { token: row, owner } = found;
      if (statusOf(row, now) !== 'active' || owner.status !== 'active') throw invalidApiToken();
      if (row.kind === 'platform' && owner.role !== 'admin') throw invalidApiToken();
      const role = row.kind === 'platform' ? 'admin' : 'user';
      const caller: AuthenticatedUser = {
        user: { ...owner, role },
        claims: {
          sub: owner.id,
          role,
          iat: Math.floor(Date.parse(row.created_at) / 1000),
          exp: Math.floor(Date.parse(row.expires_at) / 1000),
          iss: 'api-token',
          aud: 'api-token',
          jti: row.id,
          sv: owner.session_version,
          sid: `api-token:${row.id}`,
        },
        apiToken: { id: row.id, kind: row.kind, scopes: JSON.parse(row.scopes) as string[] },
      };
      return { caller, name: row.name };
    },
  };
}

export type ApiTokensService = ReturnType<typeof createApiTokensService>;
