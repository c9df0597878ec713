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

export interface OrganisationTables {
  organisations: OrganisationsTable;
  seat_keys: SeatKeysTable;
  organisation_members: OrganisationMembersTable;
  organisation_invitations: OrganisationInvitationsTable;
}
