import type { LicensingEvents, OrganisationAnnouncements, OrganisationEvent } from '../events.js';
import { randomUUID } from 'node:crypto';
import type { BillingDetailsInput } from '../../../shared/api/invoices.js';
import type {
  AssignableOrganisationRole,
  Organisation,
  OrganisationMember,
} from '../../../shared/api/organisations.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { SecuritySeverity, UserRow } from '../../platform/db/tables.js';
import type { OrganisationRow } from '../../platform/db/tables-organisations.js';
import { conflict, forbidden, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes, type SecurityEventType } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { assertManages, organisationAccess, type OrganisationAccess } from './access.js';
import {
  deleteMember,
  findOwner,
  insertMember,
  insertOrganisation,
  listMembers,
  organisationsOf,
  transferOrganisationLicenses,
  updateMember,
  updateOrganisation,
} from './repository.js';
import { endMemberFloatingSeats, endSeatMachines } from './seat-take-back.js';
import {
  countSeatsTaken,
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from './seats-repository.js';
import { memberViews, organisationView } from './views.js';

/** The account acting, and where the request came from: every change is logged with both. */
export interface OrganisationActor {
  user: UserRow;
  meta: RequestMeta;
}

const memberNotFound = () =>
  notFound('member_not_found', 'That account is not a member of this organization');

export const seatsFull = () =>
  conflict('seats_full', 'Every seat of the organization is taken: buy more seats or free one first.');
/** Free seats that pending invitations will take: giving one away would break an invitee's link. */
export const seatsPromised = (pending: number) =>
  conflict(
    'seats_full',
    `Every free seat is promised to ${pending === 1 ? 'a pending invitation' : `${pending} pending invitations`}: ` +
      'revoke an invitation, take a seat back or buy more seats first.',
  );
export const noSeats = () =>
  conflict('no_seats', 'The organization has no seats yet: buy the Business plan for it first.');

/** The security event and the webhook event of one change, in its transaction. */
export async function recordOrganisationChange(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  change: {
    type: SecurityEventType;
    severity?: SecuritySeverity;
    actor: OrganisationActor;
    /** The account the change is about (the actor's own when it concerns nobody else). */
    userId: string;
    organisation: OrganisationRow;
    details?: Record<string, unknown>;
    webhook?: { type: OrganisationEvent['type']; data?: Record<string, unknown> };
    /** What the event carries beyond the webhook's data, for the mail that follows it. */
    told?: Pick<OrganisationEvent, 'joined' | 'removal'>;
  },
): Promise<void> {
  await recordSecurityEvent(trx, clock, {
    type: change.type,
    severity: change.severity ?? 'info',
    userId: change.userId,
    actorId: change.actor.user.id,
    meta: change.actor.meta,
    details: { organisation_id: change.organisation.id, ...change.details },
  });
  if (change.webhook)
    await events.publish(trx, {
      type: change.webhook.type,
      organisation: change.organisation,
      details: change.webhook.data,
      ...change.told,
    });
}

export interface OrganisationsServiceDeps {
  db: Db;
  clock: Clock;
  /** Announces each change of an organisation (a removed member is told on its announcement). */
  events: OrganisationAnnouncements;
}

/** Organisations, their members, roles, seats assigned by hand, ownership and leaving. */
export function createOrganisationsService({ db, clock, events }: OrganisationsServiceDeps) {
  /** Runs `work` in a transaction that holds the organisation's lock, after checking the caller's access. */
  const underLock = <T>(
    organisationId: string,
    actor: OrganisationActor,
    work: (trx: DbOrTransaction, access: OrganisationAccess) => Promise<T>,
  ): Promise<T> =>
    db.transaction().execute(async (trx) => {
      await lockOrganisation(trx, organisationId);
      return work(trx, await organisationAccess(trx, organisationId, actor.user));
    });

  /** A member of this organisation other than through the caller's own membership. */
  async function memberOf(trx: DbOrTransaction, organisationId: string, userId: string) {
    const member = await findMembership(trx, organisationId, userId);
    if (!member) throw memberNotFound();
    return member;
  }

  /** Frees a member's seat and ends their machines on it; false when they held none. */
  async function freeSeat(trx: DbOrTransaction, organisationId: string, userId: string, held: boolean) {
    if (held) await updateMember(trx, organisationId, userId, { seat_assigned_at: null });
    return endSeatMachines(trx, clock, events, organisationId, userId);
  }

  /** One member as the members list shows them. */
  async function memberAnswer(organisationId: string, userId: string): Promise<OrganisationMember> {
    const member = (await listMembers(db, organisationId)).find((row) => row.user_id === userId);
    const [answer] = member ? await memberViews(db, organisationId, [member]) : [];
    if (!answer) throw memberNotFound();
    return answer;
  }

  async function view(organisationId: string, caller: UserRow): Promise<Organisation> {
    const access = await organisationAccess(db, organisationId, caller);
    return organisationView(db, access.organisation, access.role, isoNow(clock));
  }

  return {
    async create(
      actor: OrganisationActor,
      body: { name: string; billing_details?: BillingDetailsInput | undefined },
    ): Promise<Organisation> {
      const now = isoNow(clock);
      const row: OrganisationRow = {
        id: randomUUID(),
        name: body.name,
        billing_details: body.billing_details ? JSON.stringify(body.billing_details) : null,
        created_by: actor.user.id,
        created_at: now,
        updated_at: now,
      };
      await db.transaction().execute(async (trx) => {
        await insertOrganisation(trx, row);
        await insertMember(trx, {
          organisation_id: row.id,
          user_id: actor.user.id,
          role: 'owner',
          seat_assigned_at: null,
          joined_at: now,
        });
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationCreated,
          actor,
          userId: actor.user.id,
          organisation: row,
          details: { name: row.name },
          webhook: { type: 'organisation.created', data: { owner_id: actor.user.id } },
        });
      });
      return organisationView(db, row, 'owner', now);
    },

    async listMine(caller: UserRow): Promise<Organisation[]> {
      const now = isoNow(clock);
      const rows = await organisationsOf(db, caller.id);
      return Promise.all(rows.map(({ role, ...row }) => organisationView(db, row, role, now)));
    },

    get: view,

    async update(
      organisationId: string,
      actor: OrganisationActor,
      body: { name?: string | undefined; billing_details?: BillingDetailsInput | undefined },
    ): Promise<Organisation> {
      await underLock(organisationId, actor, async (trx, access) => {
        assertManages(access);
        const changes = {
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.billing_details === undefined
            ? {}
            : { billing_details: JSON.stringify(body.billing_details) }),
          updated_at: isoNow(clock),
        };
        await updateOrganisation(trx, organisationId, changes);
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationUpdated,
          actor,
          userId: actor.user.id,
          organisation: { ...access.organisation, ...changes },
          details: { changed: Object.keys(changes).filter((key) => key !== 'updated_at') },
          webhook: { type: 'organisation.updated' },
        });
      });
      return view(organisationId, actor.user);
    },

    async listMembers(organisationId: string, caller: UserRow): Promise<OrganisationMember[]> {
      await organisationAccess(db, organisationId, caller);
      return memberViews(db, organisationId, await listMembers(db, organisationId));
    },

    /** Makes a member an admin or a plain member; the owner's role changes only by a transfer. */
    async changeRole(
      organisationId: string,
      userId: string,
      role: AssignableOrganisationRole,
      actor: OrganisationActor,
    ): Promise<OrganisationMember> {
      await underLock(organisationId, actor, async (trx, access) => {
        assertManages(access);
        const member = await memberOf(trx, organisationId, userId);
        if (member.role === 'owner')
          throw conflict(
            'owner_role_fixed',
            'The owner stays the owner until they transfer ownership to another member.',
          );
        if (member.role === role) return;
        await updateMember(trx, organisationId, userId, { role });
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationRoleChanged,
          actor,
          userId,
          organisation: access.organisation,
          details: { from: member.role, to: role },
        });
      });
      return memberAnswer(organisationId, userId);
    },

    /**
     * Removes a member (not the owner): their seat is freed and their machines on it end, and the
     * removal is announced with what they are told by mail in the same transaction.
     */
    async removeMember(organisationId: string, userId: string, actor: OrganisationActor): Promise<void> {
      await underLock(organisationId, actor, async (trx, access) => {
        assertManages(access);
        const member = await memberOf(trx, organisationId, userId);
        if (member.role === 'owner')
          throw conflict(
            'owner_cannot_be_removed',
            'The owner cannot be removed: they may transfer ownership to another member first.',
          );
        await deleteMember(trx, organisationId, userId);
        const machinesEnded = await freeSeat(trx, organisationId, userId, false);
        const floatingSeatsFreed = await endMemberFloatingSeats(trx, organisationId, userId);
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationMemberRemoved,
          severity: 'warning',
          actor,
          userId,
          organisation: access.organisation,
          details: {
            role: member.role,
            had_seat: member.seat_assigned_at !== null,
            machines_ended: machinesEnded,
            floating_seats_freed: floatingSeatsFreed,
          },
          webhook: {
            type: 'organisation.member_removed',
            data: { user_id: userId, reason: 'removed', seat_freed: member.seat_assigned_at !== null },
          },
          told: {
            removal: {
              memberId: userId,
              // Acting without a membership: a platform administrator as the owner.
              by: access.membership ? actor.user : null,
              hadSeat: member.seat_assigned_at !== null,
              machinesEnded,
            },
          },
        });
      });
    },

    /** Gives a member a seat by hand, within the seats bought; holding one already is no change. */
    async assignSeat(
      organisationId: string,
      userId: string,
      actor: OrganisationActor,
    ): Promise<OrganisationMember> {
      await underLock(organisationId, actor, async (trx, access) => {
        assertManages(access);
        const member = await memberOf(trx, organisationId, userId);
        if (member.seat_assigned_at !== null) return;
        const license = await findOrganisationLicense(trx, organisationId);
        if (!license) throw noSeats();
        const { held, pending } = await countSeatsTaken(trx, organisationId, isoNow(clock));
        const seats = license.seats ?? 0;
        if (held >= seats) throw seatsFull();
        if (held + pending >= seats) throw seatsPromised(pending);
        await updateMember(trx, organisationId, userId, { seat_assigned_at: isoNow(clock) });
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationSeatAssigned,
          actor,
          userId,
          organisation: access.organisation,
          webhook: { type: 'organisation.seats_changed', data: { user_id: userId, change: 'assigned' } },
        });
      });
      return memberAnswer(organisationId, userId);
    },

    /** Takes a member's seat back: their machines on it end at their next check. */
    async unassignSeat(
      organisationId: string,
      userId: string,
      actor: OrganisationActor,
    ): Promise<OrganisationMember> {
      await underLock(organisationId, actor, async (trx, access) => {
        assertManages(access);
        const member = await memberOf(trx, organisationId, userId);
        // As the owner's role and membership, the owner's seat is not an admin's to end (it would
        // end the owner's machines); the owner may give it up, and a platform administrator as them.
        if (member.role === 'owner' && !access.ownerPowers)
          throw conflict('owner_seat_fixed', 'The owner’s seat stays theirs: only the owner may give it up.');
        if (member.seat_assigned_at === null) return;
        const machinesEnded = await freeSeat(trx, organisationId, userId, true);
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationSeatUnassigned,
          severity: 'warning',
          actor,
          userId,
          organisation: access.organisation,
          details: { machines_ended: machinesEnded },
          webhook: { type: 'organisation.seats_changed', data: { user_id: userId, change: 'unassigned' } },
        });
      });
      return memberAnswer(organisationId, userId);
    },

    /**
     * Hands the organisation to another member: they become the owner and the old owner an admin,
     * and the organisation's license (its `user_id`) follows. Only the owner (or a platform
     * administrator) may.
     */
    async transferOwnership(
      organisationId: string,
      userId: string,
      actor: OrganisationActor,
    ): Promise<Organisation> {
      await underLock(organisationId, actor, async (trx, access) => {
        if (!access.ownerPowers)
          throw forbidden('owner_only', 'Only the owner may transfer ownership of the organization.');
        const target = await memberOf(trx, organisationId, userId);
        if (target.role === 'owner') return;
        const owner = await findOwner(trx, organisationId);
        const now = isoNow(clock);
        // One owner per organisation is a unique index: the old owner steps down first.
        if (owner) await updateMember(trx, organisationId, owner.user_id, { role: 'admin' });
        await updateMember(trx, organisationId, userId, { role: 'owner' });
        await transferOrganisationLicenses(trx, organisationId, userId, now);
        // What the previous owner held for the organisation (billing's subscriptions) follows too:
        // the new owner manages it, gets its mail and pays from then on.
        if (owner)
          await events.publish(trx, {
            type: 'organisation.ownership_transferred',
            organisationId,
            previousOwnerId: owner.user_id,
            newOwnerId: userId,
            at: now,
          });
        await updateOrganisation(trx, organisationId, { updated_at: now });
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationOwnershipTransferred,
          severity: 'warning',
          actor,
          userId,
          organisation: access.organisation,
          details: { from: owner?.user_id ?? null, to: userId },
          webhook: {
            type: 'organisation.updated',
            data: { owner_id: userId, previous_owner_id: owner?.user_id ?? null },
          },
        });
      });
      return view(organisationId, actor.user);
    },

    /** The caller leaves: their seat is freed and their machines on it end. The owner transfers first. */
    async leave(organisationId: string, actor: OrganisationActor): Promise<void> {
      await underLock(organisationId, actor, async (trx, access) => {
        const member = access.membership;
        if (!member) throw conflict('not_a_member', 'You are not a member of this organization.');
        if (member.role === 'owner')
          throw conflict(
            'owner_cannot_leave',
            'The owner cannot leave: transfer ownership to another member first.',
          );
        await deleteMember(trx, organisationId, actor.user.id);
        const machinesEnded = await freeSeat(trx, organisationId, actor.user.id, false);
        const floatingSeatsFreed = await endMemberFloatingSeats(trx, organisationId, actor.user.id);
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationMemberLeft,
          actor,
          userId: actor.user.id,
          organisation: access.organisation,
          details: {
            role: member.role,
            had_seat: member.seat_assigned_at !== null,
            machines_ended: machinesEnded,
            floating_seats_freed: floatingSeatsFreed,
          },
          webhook: {
            type: 'organisation.member_removed',
            data: { user_id: actor.user.id, reason: 'left', seat_freed: member.seat_assigned_at !== null },
          },
        });
      });
    },
  };
}

export type OrganisationsService = ReturnType<typeof createOrganisationsService>;
