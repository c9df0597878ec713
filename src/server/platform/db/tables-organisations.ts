import type { Selectable } from 'kysely';
import type { OrganisationRole } from '../../../shared/api/organisations.js';

export interface OrganisationsTable {
  id: string;
  name: string;
  /** JSON of the billing details its invoices carry (`BillingDetails` without `updated_at`), or null. */
  billing_details: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export type OrganisationRow = Selectable<OrganisationsTable>;

/** One account in one organisation; the database allows one `owner` per organisation. */
export interface OrganisationMembersTable {
  organisation_id: string;
  user_id: string;
  role: OrganisationRole;
  /** Set while the member holds a seat of the organisation's license. */
  seat_assigned_at: string | null;
  joined_at: string;
}
export type OrganisationMemberRow = Selectable<OrganisationMembersTable>;

/** An invitation by e-mail; only the SHA-256 of its link's token is kept, and a re-send replaces it. */
export interface OrganisationInvitationsTable {
  id: string;
  organisation_id: string;
  /** Lower case. */
  email: string;
  role: Exclude<OrganisationRole, 'owner'>;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  sent_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}
export type OrganisationInvitationRow = Selectable<OrganisationInvitationsTable>;

// The organisations' tables, kept apart from tables.ts so their change stays in one place. The
// columns 0019 adds to licenses (organisation_id, seats), subscriptions (organisation_id, seats)
// and plans (seat_based) are declared with those tables.
/** The SHA-256 of the key a member's machine checks its seat with (migration 0023). */
export interface SeatKeysTable {
  activation_id: string;
  key_hash: string;
  created_at: string;
}

/**
 * A mail domain an organisation claims (migration 0042): pending until the TXT record with its
 * token is found, then verified. The database allows one verified claim per domain.
 */
export interface OrganisationDomainsTable {
  id: string;
  organisation_id: string;
  /** Lower case, without a trailing dot. */
  domain: string;
  /** The random part of the TXT record's value. */
  token: string;
  /** Set while verified; the unique index on it holds one verified claim per domain. */
  verified_domain: string | null;
  created_by: string | null;
  created_at: string;
  verified_at: string | null;
  checked_at: string | null;
  check_failure: string | null;
}
export type OrganisationDomainRow = Selectable<OrganisationDomainsTable>;

/**
 * An organisation's OpenID Connect provider (migration 0043). The client secret is kept only
 * encrypted (AES-256-GCM under a key derived from the server secret) and never answered.
 */
export interface OrganisationSsoTable {
  organisation_id: string;
  issuer: string;
  client_id: string;
  client_secret_encrypted: string;
  /** Space separated, `openid` among them. */
  scopes: string;
  /** The ID token claim listing the person's groups; null: no mapping. */
  group_claim: string | null;
  /** JSON: `[{ group, role }]`, first match wins. */
  role_mapping: string;
  /** 0 or 1: the domain's people may not sign in with a password. */
  require_sso: number;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
  last_test_at: string | null;
  /** JSON: what the last "Test sign-in" found. */
  last_test_result: string | null;
  /**
   * Migration 0047: `saml` keeps the identity provider's entity id in `issuer`, its attribute of
   * groups in `group_claim`, and '' in the columns only OpenID Connect uses.
   */
  protocol: 'oidc' | 'saml';
  /** The identity provider's SingleSignOnService (HTTP-Redirect binding). */
  saml_sso_url: string | null;
  /** JSON: the base64 DER of the certificates its assertions may be signed with. */
  saml_certificates: string | null;
  /** Where its metadata was read, when it was not pasted. */
  saml_metadata_url: string | null;
  /** Migration 0052: when the metadata was last read from `saml_metadata_url` (null when pasted). */
  saml_metadata_read_at: string | null;
}
export type OrganisationSsoRow = Selectable<OrganisationSsoTable>;

/**
 * A single sign-on under way (migration 0043), keyed by the SHA-256 of its state: its nonce and
 * PKCE verifier for the one callback that may use it, then the hash of the hand-over code.
 */
export interface SsoSignInsTable {
  state_hash: string;
  organisation_id: string;
  purpose: 'sign_in' | 'test';
  nonce: string;
  code_verifier: string;
  /** SHA-256 of the cookie set in the browser that started it: another browser's callback is refused. */
  browser_hash: string;
  /** The manager running a test sign-in. */
  started_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  handoff_hash: string | null;
  handoff_expires_at: string | null;
  user_id: string | null;
  /** JSON: what the sign-in did (joined, seat, role), for the hand-over's answer. */
  outcome: string | null;
  /** Migration 0047: for `saml`, `nonce` holds the AuthnRequest's ID and `code_verifier` is ''. */
  protocol: 'oidc' | 'saml';
  /** JSON: what the verified assertion said, until the browser that started comes back for it. */
  saml_identity: string | null;
  /**
   * Migration 0052: a sign-in the desktop app started, bound to it instead of a browser cookie
   * (`browser_hash` is then ''): base64url SHA-256 of the verifier its main process holds, and the
   * port of its loopback listener the browser is sent back to. Null on the web.
   */
  desktop_challenge: string | null;
  desktop_port: number | null;
}
export type SsoSignInRow = Selectable<SsoSignInsTable>;

/** An assertion accepted (migration 0047), refused if it comes again before it expires. */
export interface SamlAssertionsTable {
  organisation_id: string;
  assertion_id: string;
  accepted_at: string;
  expires_at: string;
}

export interface OrganisationTables {
  organisations: OrganisationsTable;
  organisation_domains: OrganisationDomainsTable;
  organisation_sso: OrganisationSsoTable;
  sso_sign_ins: SsoSignInsTable;
  saml_assertions: SamlAssertionsTable;
  seat_keys: SeatKeysTable;
  organisation_members: OrganisationMembersTable;
  organisation_invitations: OrganisationInvitationsTable;
}
