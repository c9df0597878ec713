import type { BillingDetails } from '../../../shared/api/billing.js';
import type { Organisation } from '../../../shared/api/organisations.js';
import type { Clock } from '../../clock.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { UserRow } from '../../db/tables.js';
import { findPlanRow } from '../plans/repository.js';
import { LIVE } from '../subscriptions/refusals.js';
import { organisationNotFound } from './seat-purchase-access.js';
import {
  countAssignedSeats,
  countPendingInvitations,
  findMembership,
  findOrganisationLicense,
} from './seats-repository.js';

/** The organisation as its owner or admin sees it after buying seats. */
export async function organisationView(
  db: DbOrTransaction,
  organisationId: string,
  user: Pick<UserRow, 'id'>,
  clock: Clock,
): Promise<Organisation> {
  const organisation = await db
    .selectFrom('organisations')
    .selectAll()
    .where('id', '=', organisationId)
    .executeTakeFirst();
  if (!organisation) throw organisationNotFound();
  const [membership, members, license, subscription] = await Promise.all([
    findMembership(db, organisationId, user.id),
    db
      .selectFrom('organisation_members')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('organisation_id', '=', organisationId)
      .executeTakeFirstOrThrow(),
    findOrganisationLicense(db, organisationId),
    db
      .selectFrom('subscriptions')
      .select('id')
      .where('organisation_id', '=', organisationId)
      .where('status', 'in', [...LIVE])
      .orderBy('created_at', 'desc')
      .executeTakeFirst(),
  ]);
  const plan = license ? await findPlanRow(db, license.plan_id) : undefined;
  const details = organisation.billing_details
    ? (JSON.parse(organisation.billing_details) as Omit<BillingDetails, 'updated_at'>)
    : null;
  return {
    id: organisation.id,
    name: organisation.name,
    role: membership?.role ?? null,
    members_count: Number(members.count),
    seats: license
      ? {
          bought: license.seats ?? 0,
          assigned: await countAssignedSeats(db, organisationId),
          pending_invitations: await countPendingInvitations(db, organisationId, clock.now().toISOString()),
          machines_per_seat: plan?.max_activations ?? 0,
        }
      : null,
    license_id: license?.id ?? null,
    subscription_id: subscription?.id ?? null,
    billing_details: details ? { ...details, updated_at: organisation.updated_at } : null,
    created_at: organisation.created_at,
    updated_at: organisation.updated_at,
  };
}
