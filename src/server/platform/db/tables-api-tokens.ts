import type { Selectable } from 'kysely';
import type { ApiTokenKind } from '../../../shared/api/api-tokens.js';

/** A personal or platform API token; only `token_hash` (SHA-256, hex) of the secret is kept. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  kind: ApiTokenKind;
  name: string;
  token_hash: string;
  /** The token's first characters (`aap_` and a few more): not secret, shown in lists. */
  prefix: string;
  last_four: string;
  /** JSON array of scopes (`licenses:read`, `admin:write`, …). */
  scopes: string;
  created_at: string;
  expires_at: string;
  /** Updated at most once a minute per token. */
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}
export type ApiTokenRow = Selectable<ApiTokensTable>;

// The API tokens' tables, kept apart from tables.ts so their change stays in one place.
export interface ApiTokenTables {
  api_tokens: ApiTokensTable;
}
