import type { Selectable } from 'kysely';

// The SCIM provisioning of organisations (migration 0045): a bearer token per organisation, and
// the users and groups its identity provider pushed, as the provider named them.

/** An organisation's one SCIM token; only its SHA-256 is kept, and rotating replaces it. */
export interface ScimTokensTable {
  organisation_id: string;
  id: string;
  token_hash: string;
  /** The last four characters, so the portal can tell tokens apart. */
  last_four: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
}
export type ScimTokenRow = Selectable<ScimTokensTable>;

/** A person the identity provider provisioned; `user_id` once an account holds the address. */
export interface ScimUsersTable {
  id: string;
  organisation_id: string;
  user_name: string;
  /** Lower case: SCIM's userName is compared without case. */
  user_name_key: string;
  external_id: string | null;
  /** Lower case: the address invited and matched to an account. */
  email: string;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  /** 0 or 1: SQLite has no boolean type. */
  active: number;
  user_id: string | null;
  created_at: string;
  updated_at: string;
}
export type ScimUserRow = Selectable<ScimUsersTable>;

/** A group the identity provider pushed; `role` is what the owner maps its members to. */
export interface ScimGroupsTable {
  id: string;
  organisation_id: string;
  display_name: string;
  external_id: string | null;
  role: 'admin' | 'member' | null;
  created_at: string;
  updated_at: string;
}
export type ScimGroupRow = Selectable<ScimGroupsTable>;

export interface ScimGroupMembersTable {
  group_id: string;
  scim_user_id: string;
}

export interface ScimTables {
  scim_tokens: ScimTokensTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
}
