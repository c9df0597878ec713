import { randomUUID } from 'node:crypto';
import type { TokenResponse } from '../../../shared/api/auth.js';
import type {
  AssignableOrganisationRole,
  Invitation,
  InvitationPreview,
  Organisation,
} from '../../../shared/api/organisations.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { UserRow } from '../../platform/db/tables.js';
import type {
  OrganisationInvitationsTable,
  OrganisationRow,
} from '../../platform/db/tables-organisations.js';
import { conflict, forbidden, HttpError, notFound } from '../../platform/http-error.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import {
  assertAcceptableNewPassword,
  type AuthService,
  createInvitedAccount,
  findUserByEmail,
  mailLanguage,
  type PasswordHasher,
} from '../../identity/index.js';
import { assertManages, organisationAccess } from './access.js';
import { invitationLink, invitationMail } from './mail.js';
import {
  findInvitation,
  findInvitationByTokenHash,
  findOrganisation,
  findPendingInvitationTo,
  insertInvitation,
  insertMember,
  type InvitationWithInviter,
  listInvitations,
  renewInvitation,
  revokeInvitation,
  spendInvitation,
} from './repository.js';
import {
  countAssignedSeats,
  countSeatsTaken,
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from './seats-repository.js';
import type { LicensingEvents } from '../events.js';
import { floatingTermsOf } from '../floating/repository.js';
import { noSeats, type OrganisationActor, recordOrganisationChange, seatsFull } from './service.js';
import { invitationStatus, invitationView, organisationView } from './views.js';

export interface InvitationsServiceDeps {
  db: Db;
  clock: Clock;
  /** Announces members joining (the owner's mail follows the announcement). */
  events: LicensingEvents;
  mailer: Mailer;
  publicUrl: string;
  /** ORGANISATION_INVITATION_TTL_HOURS: how long a link works after it is sent. */
  ttlHours: number;
  passwords: PasswordHasher;
  /** Account rows and the sign-in a sign-up from a link ends with, as every sign-in starts. */
  auth: Pick<AuthService, 'newAccountRow' | 'startSession'>;
}

/** A fresh invitation link's token, its hash and times (invitations by hand and by provisioning). */
export function newInvitationLink(clock: Clock, ttlSeconds: number) {
  const token = randomToken();
  // One reading of the clock, so the link lasts exactly its lifetime from when it was sent.
  const sentAt = clock.now();
  return {
    token,
    token_hash: sha256(token),
    sent_at: sentAt.toISOString(),
    expires_at: new Date(sentAt.getTime() + ttlSeconds * 1000).toISOString(),
  };
}

const invitationNotFound = () => notFound('invitation_not_found', 'Invitation not found');

/** Why a link no longer works, in words its holder can act on. */
function unusableLink(row: InvitationWithInviter | undefined, nowIso: string): HttpError | null {
  if (!row)
    return notFound(
      'invitation_not_found',
      'This invitation link does not work: it may have been replaced by a newer one. Ask for a new invitation.',
    );
  switch (invitationStatus(row, nowIso)) {
    case 'accepted':
      return new HttpError(410, 'invitation_used', 'This invitation was already accepted: sign in instead.');
    case 'revoked':
      return new HttpError(410, 'invitation_revoked', 'This invitation was withdrawn. Ask for a new one.');
    case 'expired':
      return new HttpError(410, 'invitation_expired', 'This invitation has expired. Ask for a new one.');
    case 'pending':
      return null;
  }
}

/** Invitations by e-mail: sent, re-sent and revoked by managers; previewed, accepted or signed up from by the invitee. */
export function createInvitationsService(deps: InvitationsServiceDeps) {
  const { db, clock, events, mailer } = deps;
  const ttlSeconds = deps.ttlHours * 3600;

  const freshLink = () => newInvitationLink(clock, ttlSeconds);

  /** Seats left for one more invitation: every pending one will take a seat when accepted. */
  async function assertSeatForInvitation(trx: DbOrTransaction, organisationId: string): Promise<void> {
    const license = await findOrganisationLicense(trx, organisationId);
    if (!license) throw noSeats();
    // On a floating plan no one needs a named seat: members share the pool as they run.
    if (await floatingTermsOf(trx, license)) return;
    const { held, pending } = await countSeatsTaken(trx, organisationId, isoNow(clock));
    if (held + pending >= (license.seats ?? 0)) throw seatsFull();
  }

  async function queueMail(
    trx: DbOrTransaction,
    organisation: OrganisationRow,
    invitation: { email: string; role: AssignableOrganisationRole; expires_at: string },
    inviter: UserRow,
    token: string,
  ) {
    // Written in the language of the account the address already has, if any; English otherwise.
    const invitee = await findUserByEmail(trx, invitation.email);
    await mailer.queue(
      trx,
      invitationMail({
        to: invitation.email,
        language: invitee ? mailLanguage(invitee) : null,
        organisationName: organisation.name,
        inviter: inviter.full_name ?? inviter.email,
        role: invitation.role,
        link: invitationLink(deps.publicUrl, token),
        expiresAt: invitation.expires_at,
      }),
    );
  }

  async function answer(organisationId: string, invitationId: string): Promise<Invitation> {
    const row = await findInvitation(db, organisationId, invitationId);
    if (!row) throw invitationNotFound();
    return invitationView(row, isoNow(clock));
  }

  /**
   * Joins `user` to the invitation's organisation with its role and a seat, spending the link,
   * under the organisation's lock: of two acceptances of the last seat exactly one joins.
   */
  async function join(
    trx: DbOrTransaction,
    tokenHash: string,
    user: UserRow,
    meta: RequestMeta,
  ): Promise<OrganisationRow> {
    const found = await findInvitationByTokenHash(trx, tokenHash);
    const refusal = unusableLink(found, isoNow(clock));
    if (refusal || !found) throw refusal ?? invitationNotFound();
    if (found.email !== user.email.toLowerCase())
      throw forbidden(
        'invitation_for_another_account',
        `This invitation is for ${found.email}. Sign in with that address to accept it.`,
      );
    await lockOrganisation(trx, found.organisation_id);
    const organisation = await findOrganisation(trx, found.organisation_id);
    if (!organisation) throw invitationNotFound();
    if (await findMembership(trx, organisation.id, user.id))
      throw conflict('already_member', `You are already a member of ${organisation.name}.`);
    const license = await findOrganisationLicense(trx, organisation.id);
    if (!license) throw noSeats();
    const floating = (await floatingTermsOf(trx, license)) !== undefined;
    // The invitation accepted is one of the pending ones its seat was promised to: only seats held
    // count against it (a seat given by hand or another invitation counted it as promised).
    if (!floating && (await countAssignedSeats(trx, organisation.id)) >= (license.seats ?? 0))
      throw conflict(
        'seats_full',
        `Every seat of ${organisation.name} is taken. Ask its administrators to free or buy a seat.`,
      );
    const now = isoNow(clock);
    // Spent under the lock and only if still usable: a re-send, a revocation or a second tab loses.
    if (!(await spendInvitation(trx, tokenHash, { at: now, by: user.id })))
      throw unusableLink(await findInvitationByTokenHash(trx, tokenHash), now) ?? invitationNotFound();
    await insertMember(trx, {
      organisation_id: organisation.id,
      user_id: user.id,
      role: found.role,
      // On a floating plan a member runs on the shared pool, with no named seat.
      seat_assigned_at: floating ? null : now,
      joined_at: now,
    });
    await recordOrganisationChange(trx, clock, events, {
      type: securityEventTypes.organisationMemberJoined,
      actor: { user, meta },
      userId: user.id,
      organisation,
      details: { invitation_id: found.id, role: found.role, invited_by: found.invited_by },
      webhook: {
        type: 'organisation.member_joined',
        data: { user_id: user.id, role: found.role, has_seat: !floating },
      },
      // The owner is told who joined, on the announcement.
      told: { joined: { member: user, role: found.role, seats: license.seats ?? 0 } },
    });
    return organisation;
  }

  const joinedAnswer = async (organisation: OrganisationRow, user: UserRow) => ({
    organisation: await organisationView(
      db,
      organisation,
      (await findMembership(db, organisation.id, user.id))?.role ?? null,
      isoNow(clock),
    ),
    message: `You joined ${organisation.name}.`,
  });

  return {
    async list(organisationId: string, caller: UserRow): Promise<Invitation[]> {
      assertManages(await organisationAccess(db, organisationId, caller));
      const now = isoNow(clock);
      return (await listInvitations(db, organisationId)).map((row) => invitationView(row, now));
    },

    /** Invites an address; refused while every seat is taken or promised to a pending invitation. */
    async invite(
      organisationId: string,
      body: { email: string; role: AssignableOrganisationRole },
      actor: OrganisationActor,
    ): Promise<Invitation> {
      const email = body.email.toLowerCase();
      const id = randomUUID();
      await db.transaction().execute(async (trx) => {
        await lockOrganisation(trx, organisationId);
        const access = await organisationAccess(trx, organisationId, actor.user);
        assertManages(access);
        const account = await findUserByEmail(trx, email);
        if (account && (await findMembership(trx, organisationId, account.id)))
          throw conflict('already_member', `${email} is already a member of ${access.organisation.name}.`);
        if (await findPendingInvitationTo(trx, organisationId, email, isoNow(clock)))
          throw conflict(
            'already_invited',
            `${email} already has an invitation waiting: send it again instead of a new one.`,
          );
        await assertSeatForInvitation(trx, organisationId);
        const { token, ...link } = freshLink();
        const row: OrganisationInvitationsTable = {
          id,
          organisation_id: organisationId,
          email,
          role: body.role,
          invited_by: actor.user.id,
          created_at: link.sent_at,
          ...link,
          accepted_at: null,
          accepted_by: null,
          revoked_at: null,
        };
        await insertInvitation(trx, row);
        await queueMail(trx, access.organisation, row, actor.user, token);
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationInvitationSent,
          actor,
          userId: account?.id ?? actor.user.id,
          organisation: access.organisation,
          details: { invitation_id: id, email, role: body.role },
        });
      });
      return answer(organisationId, id);
    },

    /** Withdraws an invitation not accepted yet; withdrawing it again is no change. */
    async revoke(
      organisationId: string,
      invitationId: string,
      actor: OrganisationActor,
    ): Promise<Invitation> {
      await db.transaction().execute(async (trx) => {
        const access = await organisationAccess(trx, organisationId, actor.user);
        assertManages(access);
        const row = await findInvitation(trx, organisationId, invitationId);
        if (!row) throw invitationNotFound();
        if (row.accepted_at !== null)
          throw conflict('invitation_used', 'This invitation was accepted: remove the member instead.');
        if (!(await revokeInvitation(trx, invitationId, isoNow(clock)))) return;
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationInvitationRevoked,
          actor,
          userId: actor.user.id,
          organisation: access.organisation,
          details: { invitation_id: invitationId, email: row.email },
        });
      });
      return answer(organisationId, invitationId);
    },

    /** Sends a fresh link with a fresh expiry; the old link stops working. */
    async resend(
      organisationId: string,
      invitationId: string,
      actor: OrganisationActor,
    ): Promise<Invitation> {
      await db.transaction().execute(async (trx) => {
        await lockOrganisation(trx, organisationId);
        const access = await organisationAccess(trx, organisationId, actor.user);
        assertManages(access);
        const row = await findInvitation(trx, organisationId, invitationId);
        if (!row) throw invitationNotFound();
        const status = invitationStatus(row, isoNow(clock));
        if (status === 'accepted' || status === 'revoked')
          throw conflict(
            'invitation_not_pending',
            status === 'accepted'
              ? 'This invitation was already accepted.'
              : 'This invitation was withdrawn: send a new one.',
          );
        // An expired invitation promised no seat any more: sending it again must find one.
        if (status === 'expired') await assertSeatForInvitation(trx, organisationId);
        const { token, ...link } = freshLink();
        if (!(await renewInvitation(trx, invitationId, link))) throw invitationNotFound();
        await queueMail(trx, access.organisation, { ...row, ...link }, actor.user, token);
        await recordOrganisationChange(trx, clock, events, {
          type: securityEventTypes.organisationInvitationResent,
          actor,
          userId: actor.user.id,
          organisation: access.organisation,
          details: { invitation_id: invitationId, email: row.email },
        });
      });
      return answer(organisationId, invitationId);
    },

    /** What the link offers, for anyone holding it; it stays usable. */
    async preview(token: string): Promise<InvitationPreview> {
      const row = await findInvitationByTokenHash(db, sha256(token));
      const refusal = unusableLink(row, isoNow(clock));
      if (refusal || !row) throw refusal ?? invitationNotFound();
      const organisation = await findOrganisation(db, row.organisation_id);
      if (!organisation) throw invitationNotFound();
      return {
        organisation_name: organisation.name,
        email: row.email,
        role: row.role,
        invited_by: row.invited_by_name ?? row.invited_by_email,
        expires_at: row.expires_at,
        account_exists: (await findUserByEmail(db, row.email)) !== undefined,
      };
    },

    /** The signed-in invitee accepts: their account's address must be the invited one. */
    async accept(
      token: string,
      user: UserRow,
      meta: RequestMeta,
    ): Promise<{ organisation: Organisation; message: string }> {
      const organisation = await db.transaction().execute((trx) => join(trx, sha256(token), user, meta));
      return joinedAnswer(organisation, user);
    },

    /**
     * An invitee without an account creates one from the link (the link proves the address, so it
     * is confirmed), joins, and is signed in as by any sign-in. An address that has an account is
     * told to sign in and accept instead.
     */
    async signUp(
      body: { token: string; password: string; full_name?: string | undefined },
      meta: RequestMeta,
    ): Promise<TokenResponse> {
      const tokenHash = sha256(body.token);
      const invitation = await findInvitationByTokenHash(db, tokenHash);
      const refusal = unusableLink(invitation, isoNow(clock));
      if (refusal || !invitation) throw refusal ?? invitationNotFound();
      const accountExists = () =>
        conflict(
          'account_exists',
          `An account already uses ${invitation.email}: sign in with it to accept the invitation.`,
        );
      if (await findUserByEmail(db, invitation.email)) throw accountExists();
      assertAcceptableNewPassword(body.password, invitation.email);
      const user = deps.auth.newAccountRow(
        { email: invitation.email, role: 'user', fullName: body.full_name ?? null, verified: true },
        await deps.passwords.hash(body.password),
      );
      try {
        await db.transaction().execute(async (trx) => {
          await createInvitedAccount(trx, user);
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.userRegistered,
            severity: 'info',
            userId: user.id,
            meta,
            details: { invitation_id: invitation.id, organisation_id: invitation.organisation_id },
          });
          await join(trx, tokenHash, user, meta);
        });
      } catch (error) {
        // Another sign-up took the address meanwhile.
        if (isUniqueViolation(error) && (await findUserByEmail(db, invitation.email))) throw accountExists();
        throw error;
      }
      return deps.auth.startSession(user, meta, ['pwd']);
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
