import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Timestamps are ISO-8601 UTC strings and flags are nullable timestamps, so the same rows and
// comparisons work on SQLite and PostgreSQL alike.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  status: 'active' | 'disabled';
  full_name: string | null;
  company: string | null;
  /** JSON text of the user's preferences. */
  preferences: string;
  email_verified_at: string | null;
  password_changed_at: string | null;
  /** Carried by access tokens as `sv`; raising it ends every token issued before. */
  session_version: Generated<number>;
  created_at: string;
  updated_at: string;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

/** One sign-in: every rotated refresh token of it belongs to the family; revoking it ends the session. */
export interface RefreshTokenFamiliesTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface RefreshTokensTable {
  id: string;
  family_id: string;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  used_at: string | null;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export interface EmailTokensTable {
  id: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export type SecuritySeverity = 'info' | 'warning' | 'critical';

export interface SecurityEventsTable {
  id: string;
  type: string;
  severity: SecuritySeverity;
  /** The account concerned; kept as plain text so events outlive deleted users. */
  user_id: string | null;
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** JSON text with event-specific details. */
  details: string | null;
  created_at: string;
}
export type SecurityEventRow = Selectable<SecurityEventsTable>;

/** Failed sign-ins counted per (account, client address) pair. */
export interface LoginThrottlesTable {
  key: string;
  failures: number;
  first_failure_at: string;
  locked_until: string | null;
}

export interface Database {
  users: UsersTable;
  refresh_token_families: RefreshTokenFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  security_events: SecurityEventsTable;
  login_throttles: LoginThrottlesTable;
}
