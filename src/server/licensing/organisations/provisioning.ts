import { randomUUID } from 'node:crypto';
import type { AssignableOrganisationRole } from '../../../shared/api/organisations.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, UserRow } from '../../platform/db/tables.js';
import type { OrganisationRow } from '../../platform/db/tables-organisations.js';
import { conflict } from '../../platform/http-error.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { type SecurityEventType, securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import type { LicensingEvents } from '../events.js';
import { floatingTermsOf } from '../floating/repository.js';
import { newInvitationLink } from './invitations.js';
import { invitationLink, invitationMail } from './mail.js';
import {
  deleteMember,
  findOrganisation,
  findPendingInvitationTo,
  insertInvitation,
  insertMember,
  revokeInvitation,
  updateMember,
} from './repository.js';
import { endMemberFloatingSeats, endSeatMachines } from './seat-take-back.js';
import {
  countSeatsTaken,
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from './seats-repository.js';

/**
 * Who changes members through provisioning: a client (an identity provider through SCIM), whose
 * token is the actor, or the owner mapping a group to a role.
 */
export interface ProvisioningActor {
  tokenId: string | null;
  /** The account acting, when a person does (the owner); null for a provisioning client. */
  userId: string | null;
  meta: RequestMeta;
}

export interface ProvisioningDeps {
  clock: Clock;
  events: LicensingEvents;
  mailer: Mailer;
  publicUrl: string;
  /** ORGANISATION_INVITATION_TTL_HOURS, as for invitations by hand. */
  ttlHours: number;
}

/** What provisioning a person did: joined with or without a seat, invited (a seat promised), or nothing new. */
export type ProvisionOutcome = 'joined' | 'invited' | 'already_member' | 'already_invited';

const noFreeSeat = (organisation: OrganisationRow) =>
  conflict(
    'seats_full',
    `Every seat of ${organisation.name} is taken or promised to a pending invitation: ` +
      'buy more seats or deactivate someone first, then provision again.',
  );

/**
 * The organisation's members and seats as a provisioning client changes them, in the caller's
 * transaction and under the organisation's lock, with the same seat rules as invitations and seats
 * given by hand: a seat held or promised to a pending invitation is never given away twice, a seat
 * taken back ends the member's machines at their next check, and the owner is never touched.
 */
export function createProvisioning({ clock, events, mailer, publicUrl, ttlHours }: ProvisioningDeps) {
  async function record(
    trx: DbOrTransaction,
    type: SecurityEventType,
    actor: ProvisioningActor,
    organisation: OrganisationRow,
    userId: string | null,
    details: Record<string, unknown>,
  ) {
    await recordSecurityEvent(trx, clock, {
      type,
      severity: type === securityEventTypes.organisationSeatUnassigned ? 'warning' : 'info',
      userId,
      actorId: actor.userId,
      meta: actor.meta,
      details: {
        organisation_id: organisation.id,
        by: 'scim',
        ...(actor.tokenId ? { scim_token_id: actor.tokenId } : {}),
        ...details,
      },
    });
  }

  async function locked(trx: DbOrTransaction, organisationId: string): Promise<OrganisationRow> {
    await lockOrganisation(trx, organisationId);
    const organisation = await findOrganisation(trx, organisationId);
    if (!organisation) throw new Error(`organization ${organisationId} vanished`);
    return organisation;
  }

  /** Seats of `license` neither held nor promised: what one more seat or invitation may take. */
  async function seatFree(
    trx: DbOrTransaction,
    organisationId: string,
    license: LicenseRow | undefined,
  ): Promise<boolean> {
    if (!license) return false;
    const { held, pending } = await countSeatsTaken(trx, organisationId, isoNow(clock));
    return held + pending < (license.seats ?? 0);
  }

  /**
   * Whether the organisation's license is on a floating plan: its people share the pool as their
   * machines run, with no named seat, as invitations and joins by hand do (invitations.ts).
   */
  const isFloating = async (trx: DbOrTransaction, license: LicenseRow | undefined): Promise<boolean> =>
    license !== undefined && (await floatingTermsOf(trx, license)) !== undefined;

  async function seat(
    trx: DbOrTransaction,
    organisation: OrganisationRow,
    userId: string,
    actor: ProvisioningActor,
  ): Promise<void> {
    await updateMember(trx, organisation.id, userId, { seat_assigned_at: isoNow(clock) });
    await record(trx, securityEventTypes.organisationSeatAssigned, actor, organisation, userId, {});
    await events.publish(trx, {
      type: 'organisation.seats_changed',
      organisation,
      details: { user_id: userId, change: 'assigned' },
    });
  }

  /** Revokes the address's pending invitation, if it has one: the seat it promised is free again. */
  async function withdrawInvitation(
    trx: DbOrTransaction,
    organisation: OrganisationRow,
    email: string,
    actor: ProvisioningActor,
  ): Promise<boolean> {
    const pending = await findPendingInvitationTo(trx, organisation.id, email, isoNow(clock));
    if (!pending || !(await revokeInvitation(trx, pending.id, isoNow(clock)))) return false;
    await record(trx, securityEventTypes.organisationInvitationRevoked, actor, organisation, null, {
      invitation_id: pending.id,
      email,
    });
    return true;
  }

  /**
   * Removes the person from the organisation (seat freed, machines ended, floating seats back), or
   * withdraws their invitation. Answers how many machines and floating seats ended.
   */
  async function remove(
    trx: DbOrTransaction,
    organisationId: string,
    person: { email: string; userId: string | null },
    actor: ProvisioningActor,
  ): Promise<number> {
    const organisation = await locked(trx, organisationId);
    await withdrawInvitation(trx, organisation, person.email, actor);
    if (!person.userId) return 0;
    const member = await findMembership(trx, organisationId, person.userId);
    if (!member) return 0;
    await deleteMember(trx, organisationId, person.userId);
    const machinesEnded = await endSeatMachines(trx, clock, events, organisationId, person.userId);
    const floatingSeatsFreed = await endMemberFloatingSeats(trx, organisationId, person.userId);
    const hadSeat = member.seat_assigned_at !== null;
    await record(trx, securityEventTypes.organisationMemberRemoved, actor, organisation, person.userId, {
      role: member.role,
      had_seat: hadSeat,
      machines_ended: machinesEnded,
      floating_seats_freed: floatingSeatsFreed,
    });
    await events.publish(trx, {
      type: 'organisation.member_removed',
      organisation,
      details: { user_id: person.userId, reason: 'removed', seat_freed: hadSeat },
    });
    return machinesEnded + floatingSeatsFreed;
  }

  return {
    /**
     * Brings a person into the organisation with a seat: an account of that address joins at once,
     * anyone else is invited by mail (the invitation promises the seat). 409 `seats_full` when no
     * seat is free, also for an account already a member without a seat (it is given one when one
     * is free): a provisioned person holds a seat, or the call is refused.
     */
    async provision(
      trx: DbOrTransaction,
      organisationId: string,
      person: { email: string; account: UserRow | undefined; role: AssignableOrganisationRole },
      actor: ProvisioningActor,
    ): Promise<ProvisionOutcome> {
      const organisation = await locked(trx, organisationId);
      const { account, email, role } = person;
      const license = await findOrganisationLicense(trx, organisationId);
      const floating = await isFloating(trx, license);
      if (account) {
        const member = await findMembership(trx, organisationId, account.id);
        if (member) {
          if (member.seat_assigned_at === null && !floating) {
            if (!(await seatFree(trx, organisationId, license))) throw noFreeSeat(organisation);
            await seat(trx, organisation, account.id, actor);
          }
          return 'already_member';
        }
        if (!floating && !(await seatFree(trx, organisationId, license))) throw noFreeSeat(organisation);
        const now = isoNow(clock);
        await insertMember(trx, {
          organisation_id: organisationId,
          user_id: account.id,
          role,
          seat_assigned_at: floating ? null : now,
          joined_at: now,
        });
        await record(trx, securityEventTypes.organisationMemberJoined, actor, organisation, account.id, {
          role,
        });
        await events.publish(trx, {
          type: 'organisation.member_joined',
          organisation,
          details: { user_id: account.id, role, has_seat: !floating },
          joined: { member: account, role, seats: license?.seats ?? 0 },
        });
        return 'joined';
      }
      if (await findPendingInvitationTo(trx, organisationId, email, isoNow(clock))) return 'already_invited';
      if (!floating && !(await seatFree(trx, organisationId, license))) throw noFreeSeat(organisation);
      const { token, ...link } = newInvitationLink(clock, ttlHours * 3600);
      const id = randomUUID();
      await insertInvitation(trx, {
        id,
        organisation_id: organisationId,
        email,
        role,
        invited_by: null,
        created_at: link.sent_at,
        ...link,
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      });
      // To an address without an account (one with an account joined above): in English.
      await mailer.queue(
        trx,
        invitationMail({
          to: email,
          organisationName: organisation.name,
          inviter: { identityProvider: true },
          role,
          link: invitationLink(publicUrl, token),
          expiresAt: link.expires_at,
        }),
      );
      await record(trx, securityEventTypes.organisationInvitationSent, actor, organisation, null, {
        invitation_id: id,
        email,
        role,
      });
      return 'invited';
    },

    /**
     * Takes the person's seat back (they stay a member, so reactivating seats them again): their
     * machines on it end at their next check; a pending invitation is withdrawn instead. On a
     * floating plan, where no one holds a named seat, the person leaves the pool instead: removed
     * (the seats their machines hold come back at once, their keys are refused), and reactivating
     * joins them again. Answers how many machines ended.
     */
    async takeSeatBack(
      trx: DbOrTransaction,
      organisationId: string,
      person: { email: string; userId: string | null },
      actor: ProvisioningActor,
    ): Promise<number> {
      if (await isFloating(trx, await findOrganisationLicense(trx, organisationId)))
        return remove(trx, organisationId, person, actor);
      const organisation = await locked(trx, organisationId);
      await withdrawInvitation(trx, organisation, person.email, actor);
      if (!person.userId) return 0;
      const member = await findMembership(trx, organisationId, person.userId);
      if (!member || member.seat_assigned_at === null) return 0;
      await updateMember(trx, organisationId, person.userId, { seat_assigned_at: null });
      const machinesEnded = await endSeatMachines(trx, clock, events, organisationId, person.userId);
      await record(trx, securityEventTypes.organisationSeatUnassigned, actor, organisation, person.userId, {
        machines_ended: machinesEnded,
      });
      await events.publish(trx, {
        type: 'organisation.seats_changed',
        organisation,
        details: { user_id: person.userId, change: 'unassigned' },
      });
      return machinesEnded;
    },

    remove,

    /** Whether the account is the organisation's owner, whom provisioning never deactivates or removes. */
    async isOwner(trx: DbOrTransaction, organisationId: string, userId: string): Promise<boolean> {
      return (await findMembership(trx, organisationId, userId))?.role === 'owner';
    },

    /** Gives a provisioned member the role their groups map to; the owner keeps theirs. */
    async setRole(
      trx: DbOrTransaction,
      organisationId: string,
      userId: string,
      role: AssignableOrganisationRole,
      actor: ProvisioningActor,
    ): Promise<void> {
      const member = await findMembership(trx, organisationId, userId);
      if (!member || member.role === 'owner' || member.role === role) return;
      const organisation = await locked(trx, organisationId);
      await updateMember(trx, organisationId, userId, { role });
      await record(trx, securityEventTypes.organisationRoleChanged, actor, organisation, userId, {
        from: member.role,
        to: role,
      });
    },
  };
}

export type Provisioning = ReturnType<typeof createProvisioning>;
