import type {
  Invitation,
  InvitationPreview,
  Organisation,
  OrganisationMember,
} from '../../../src/shared/api/organisations';
import { testUser } from '../support/fake-api';

export const NOW = '2026-11-27T10:00:00.000Z';
export const ORG_ID = '0b6f2a5e-5d1c-4f6e-9a53-8c2f1d7e4b10';
export const OTHER_ID = '6d7c0e3a-1f2b-4c5d-8e9f-0a1b2c3d4e5f';
export const BEA_ID = '3f0a9c1e-2b4d-4e6f-8a1c-5d7e9f0b2c4d';
export const CAL_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

/** An organisation as GET /organisations answers it; the caller (testUser) is its owner. */
export const makeOrganisation = (extra: Partial<Organisation> = {}): Organisation => ({
  id: ORG_ID,
  name: 'Acme Studio',
  role: 'owner',
  members_count: 3,
  seats: { bought: 3, assigned: 2, pending_invitations: 1, machines_per_seat: 2, floating: null },
  license_id: 'lic-acme',
  subscription_id: 'sub-acme',
  billing_details: null,
  created_at: NOW,
  updated_at: NOW,
  ...extra,
});

export const makeMember = (extra: Partial<OrganisationMember> = {}): OrganisationMember => ({
  user_id: BEA_ID,
  email: 'bea@example.com',
  full_name: 'Bea Jones',
  role: 'member',
  has_seat: true,
  seat_assigned_at: NOW,
  joined_at: NOW,
  machines: [],
  ...extra,
});

/** The owner (the signed-in test user), an admin with a machine, and a member without a seat. */
export const MEMBERS: OrganisationMember[] = [
  makeMember({ user_id: testUser.id, email: testUser.email, full_name: testUser.full_name, role: 'owner' }),
  makeMember({
    machines: [
      {
        activation_id: 'act-1',
        device_name: 'bea-laptop',
        label: null,
        platform: 'Linux',
        activated_at: NOW,
        last_seen_at: NOW,
      },
    ],
    role: 'admin',
  }),
  makeMember({
    user_id: CAL_ID,
    email: 'cal@example.com',
    full_name: null,
    has_seat: false,
    seat_assigned_at: null,
  }),
];

export const makeInvitation = (extra: Partial<Invitation> = {}): Invitation => ({
  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  email: 'dan@example.com',
  role: 'member',
  status: 'pending',
  invited_by_email: testUser.email,
  created_at: NOW,
  sent_at: NOW,
  expires_at: '2026-12-04T10:00:00.000Z',
  accepted_at: null,
  ...extra,
});

export const makePreview = (extra: Partial<InvitationPreview> = {}): InvitationPreview => ({
  organisation_name: 'Acme Studio',
  email: 'dan@example.com',
  role: 'member',
  invited_by: 'Ada',
  expires_at: '2026-12-04T10:00:00.000Z',
  account_exists: false,
  ...extra,
});
