import type { z } from 'zod';
import type { adminApiTokenListQuerySchema, ApiTokenKind } from '../../../shared/api/api-tokens.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import { preparedQuery } from '../../platform/db/prepared-query.js';
import type { ApiTokenRow, ApiTokensTable } from '../../platform/db/tables-api-tokens.js';
import type { UserRow } from '../../platform/db/tables.js';

export type ApiTokenWithOwner = ApiTokenRow & { owner_email: string };

export async function insertApiToken(db: DbOrTransaction, row: ApiTokensTable): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** The token of a hash with its owner, whatever its state: the caller decides whether it is live. */
export async function findApiTokenByHash(
  db: DbOrTransaction,
  tokenHash: string,
): Promise<{ token: ApiTokenRow; owner: UserRow } | undefined> {
  const [token] = await tokenByHash(db, tokenHash);
  if (!token) return undefined;
  const [owner] = await userById(db, token.user_id);
  return owner ? { token, owner } : undefined;
}

// Every call made with a token reads both: prepared once (prepared-query.ts).
const tokenByHash = preparedQuery((db, tokenHash: string) =>
  db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash),
);
const userById = preparedQuery((db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id));

export const findApiToken = (db: DbOrTransaction, id: string): Promise<ApiTokenWithOwner | undefined> =>
  withOwner(db).where('api_tokens.id', '=', id).executeTakeFirst();

/** One account's tokens of one kind, newest first. */
export const listTokensOf = (db: DbOrTransaction, userId: string, kind: ApiTokenKind) =>
  db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

const withOwner = (db: DbOrTransaction) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('api_tokens')
    .select('users.email as owner_email');

/** Every account's tokens, for administrators looking for a leaked one. */
export async function listAllTokens(
  db: DbOrTransaction,
  query: z.output<typeof adminApiTokenListQuerySchema>,
  now: string,
): Promise<Paged<ApiTokenWithOwner>> {
  let select = withOwner(db);
  if (query.kind) select = select.where('api_tokens.kind', '=', query.kind);
  if (query.user_id) select = select.where('api_tokens.user_id', '=', query.user_id);
  if (query.status === 'active') {
    select = select.where('api_tokens.revoked_at', 'is', null).where('api_tokens.expires_at', '>', now);
  } else if (query.status === 'inactive') {
    select = select.where((eb) =>
      eb.or([eb('api_tokens.revoked_at', 'is not', null), eb('api_tokens.expires_at', '<=', now)]),
    );
  }
  if (query.search) {
    select = select.where(
      matchesSearch(
        ['api_tokens.name', 'api_tokens.prefix', 'api_tokens.last_four', 'users.email'],
        query.search,
      ),
    );
  }
  const field = query.sort?.field ?? 'created_at';
  const direction = query.sort?.direction ?? 'desc';
  select = select.orderBy(`api_tokens.${field}`, direction).orderBy('api_tokens.id', direction);
  return fetchPage(select, query);
}

/** Revokes a live token; false when it was already revoked (or does not exist). */
export async function revokeApiToken(
  db: DbOrTransaction,
  id: string,
  revoked: { at: string; by: string },
): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: revoked.at, revoked_by: revoked.by })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Notes when and from where a token was last used; never moves `last_used_at` back (another instance may be ahead). */
export async function noteTokenUse(db: DbOrTransaction, id: string, at: string, ip: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: at, last_used_ip: ip })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', at)]))
    .execute();
}
