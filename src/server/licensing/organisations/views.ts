import type { BillingDetails, BillingDetailsInput } from '../../../shared/api/invoices.js';
import type {
  Invitation,
  InvitationStatus,
  Organisation,
  OrganisationMember,
  OrganisationRole,
} from '../../../shared/api/organisations.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow } from '../../platform/db/tables.js';
import type { OrganisationRow } from '../../platform/db/tables-organisations.js';
import {
  activeMachinesOf,
  countMembers,
  findOrganisationSubscription,
  type InvitationWithInviter,
  type MemberWithAccount,
  planMachinesPerSeat,
} from './repository.js';
import { currentCountryCode } from '../../../shared/countries.js';
import { floatingTermsOf } from '../floating/repository.js';
import { countAssignedSeats, countPendingInvitations, findOrganisationLicense } from './seats-repository.js';

// How organisations, members and invitations are answered: rows never leave the module.

/**
 * The billing details an organisation's invoices carry, stored as JSON without `updated_at`; a
 * country saved under a code since withdrawn reads as the current one.
 */
export function organisationBillingDetails(row: OrganisationRow): BillingDetailsInput | null {
  if (row.billing_details === null) return null;
  const details = JSON.parse(row.billing_details) as BillingDetailsInput;
  return { ...details, country: currentCountryCode(details.country) ?? details.country };
}

const billingDetailsOf = (row: OrganisationRow): BillingDetails | null => {
  const details = organisationBillingDetails(row);
  return details === null ? null : { ...details, updated_at: row.updated_at };
};

/** The organisation as `role` sees it (null: a platform administrator who is not a member). */
export async function organisationView(
  db: DbOrTransaction,
  row: OrganisationRow,
  role: OrganisationRole | null,
  nowIso: string,
): Promise<Organisation> {
  const license = await findOrganisationLicense(db, row.id);
  const floating = license ? await floatingTermsOf(db, license) : undefined;
  const subscription = license?.subscription_id
    ? { id: license.subscription_id }
    : await findOrganisationSubscription(db, row.id);
  return {
    id: row.id,
    name: row.name,
    role,
    members_count: await countMembers(db, row.id),
    seats: license
      ? {
          bought: license.seats ?? 0,
          assigned: await countAssignedSeats(db, row.id),
          pending_invitations: await countPendingInvitations(db, row.id, nowIso),
          machines_per_seat: await planMachinesPerSeat(db, license.plan_id),
          floating: floating
            ? {
                concurrent: floating.seats,
                lease_minutes: floating.leaseMinutes,
                max_borrow_days: floating.maxBorrowDays,
              }
            : null,
        }
      : null,
    license_id: license?.id ?? null,
    subscription_id: subscription?.id ?? null,
    billing_details: billingDetailsOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const machineView = (activation: ActivationRow) => ({
  activation_id: activation.id,
  device_name: activation.device_name,
  label: activation.label,
  platform: activation.platform,
  activated_at: activation.activated_at,
  last_seen_at: activation.last_seen_at,
});

/** Members with their active machines on the organisation's license. */
export async function memberViews(
  db: DbOrTransaction,
  organisationId: string,
  members: MemberWithAccount[],
): Promise<OrganisationMember[]> {
  const license = await findOrganisationLicense(db, organisationId);
  const machines = license
    ? await activeMachinesOf(
        db,
        license.id,
        members.map((member) => member.user_id),
      )
    : [];
  return members.map((member) => ({
    user_id: member.user_id,
    email: member.email,
    full_name: member.full_name,
    role: member.role,
    has_seat: member.seat_assigned_at !== null,
    seat_assigned_at: member.seat_assigned_at,
    joined_at: member.joined_at,
    machines: machines.filter((machine) => machine.activated_by === member.user_id).map(machineView),
  }));
}

export function invitationStatus(row: InvitationWithInviter, nowIso: string): InvitationStatus {
  if (row.accepted_at !== null) return 'accepted';
  if (row.revoked_at !== null) return 'revoked';
  return row.expires_at <= nowIso ? 'expired' : 'pending';
}

export const invitationView = (row: InvitationWithInviter, nowIso: string): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: invitationStatus(row, nowIso),
  invited_by_email: row.invited_by_email,
  created_at: row.created_at,
  sent_at: row.sent_at,
  expires_at: row.expires_at,
  accepted_at: row.accepted_at,
});
