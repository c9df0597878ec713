import { describe, expect, it } from 'vitest';
import type { Organisation, OrganisationMember } from '../../../src/shared/api/organisations.js';
import { createApiTokensService } from '../../../src/server/identity/api-tokens/service.js';
import {
  describeOnEveryDatabase,
  type TestServer,
  uniqueEmail,
  WEB_API_KEY,
} from '../../support/test-server.js';
import { type SignedIn, signIn } from '../helpers/admin-helpers.js';
import { securityEvents } from '../helpers/auth-helpers.js';
import { countAssignedSeats } from '../../../src/server/licensing/organisations/seats-repository.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import { buildApp } from '../../../src/server/app.js';
import {
  acceptInvitation,
  addMember,
  createOrganisation,
  expectRefusal,
  giveSeats,
  inviteAndReadLink,
} from '../helpers/organisation-helpers.js';

const billing = {
  name: 'Acme Research Pvt Ltd',
  address_line1: '12 MG Road',
  city: 'Bengaluru',
  postal_code: '560001',
  country: 'IN',
};

/** An organisation with an owner, an admin and a member (both with seats) and 3 seats bought. */
async function team(s: TestServer) {
  const owner = await signIn(s, 'user', 'org-owner');
  const admin = await signIn(s, 'user', 'org-admin');
  const member = await signIn(s, 'user', 'org-member');
  const organisation = await createOrganisation(s, owner);
  const licenseId = await giveSeats(s, organisation.id, 3);
  await addMember(s, organisation.id, admin.id, 'admin');
  await addMember(s, organisation.id, member.id, 'member');
  return { owner, admin, member, organisation, licenseId };
}

const path = (organisationId: string, rest = '') => `/organisations/${organisationId}${rest}`;

/** A machine of the member's on the organisation's license, as a seat activation leaves it. */
async function machineOf(
  s: TestServer,
  licenseId: string,
  who: SignedIn,
  hardwareId: string,
): Promise<string> {
  const id = crypto.randomUUID();
  const now = s.clock.now().toISOString();
  await s.app.db
    .insertInto('activations')
    .values({
      id,
      license_id: licenseId,
      hardware_id: hardwareId,
      device_name: 'Work laptop',
      platform: 'windows',
      app_version: '1.0.0',
      activated_at: now,
      last_seen_at: now,
      deactivated_at: null,
      deactivated_reason: null,
      activated_by: who.id,
      label: null,
    })
    .execute();
  return id;
}

describeOnEveryDatabase('organisations', (server) => {
  describe('creating and reading', () => {
    it('makes the creator the owner, lists it as theirs and logs the creation', async () => {
      const s = server();
      const owner = await signIn(s, 'user', 'org-creator');
      const created = await s.api({
        method: 'POST',
        path: '/organisations',
        token: owner.token,
        body: { name: '  Acme Research  ', billing_details: billing },
      });
      expect(created.statusCode, created.body).toBe(201);
      const organisation = created.json<Organisation>();
      expect(organisation).toMatchObject({
        name: 'Acme Research',
        role: 'owner',
        members_count: 1,
        seats: null,
        license_id: null,
        billing_details: { name: billing.name, country: 'IN', tax_id: null },
      });
      const mine = await s.api({ path: '/organisations', token: owner.token });
      expect(mine.json<Organisation[]>().map((item) => item.id)).toEqual([organisation.id]);
      const [event] = await securityEvents(s, { type: 'organisation_created', userId: owner.id });
      expect(event?.actor_id).toBe(owner.id);
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({ organisation_id: organisation.id });
    });

    it('refuses bad input with a clear 400', async () => {
      const s = server();
      const owner = await signIn(s, 'user', 'org-bad-input');
      for (const body of [
        {},
        { name: '' },
        { name: 'x'.repeat(101) },
        { name: 'Acme', billing_details: { ...billing, postal_code: '012' } },
        { name: 'Acme', extra: true },
      ]) {
        const response = await s.api({ method: 'POST', path: '/organisations', token: owner.token, body });
        expectRefusal(response, 400, 'validation_error');
      }
      const organisation = await createOrganisation(s, owner);
      expectRefusal(
        await s.api({ method: 'PATCH', path: path(organisation.id), token: owner.token, body: {} }),
        400,
        'validation_error',
      );
      expectRefusal(
        await s.api({ path: '/organisations/not-a-uuid', token: owner.token }),
        400,
        'validation_error',
      );
    });

    it('shows the seats bought, assigned and machines per seat to members; outsiders get 404', async () => {
      const s = server();
      const { member, organisation, licenseId } = await team(s);
      const seen = (await s.api({ path: path(organisation.id), token: member.token })).json<Organisation>();
      expect(seen).toMatchObject({
        role: 'member',
        members_count: 3,
        license_id: licenseId,
        seats: { bought: 3, assigned: 2, pending_invitations: 0, machines_per_seat: 2, floating: null },
      });
      const outsider = await signIn(s, 'user', 'org-outsider');
      for (const rest of ['', '/members', '/invitations'])
        expectRefusal(
          await s.api({ path: path(organisation.id, rest), token: outsider.token }),
          404,
          'organisation_not_found',
        );
      expectRefusal(
        await s.api({ path: path(crypto.randomUUID()), token: outsider.token }),
        404,
        'organisation_not_found',
      );
    });

    it('lets managers rename and set billing details, not members; the change is logged', async () => {
      const s = server();
      const { admin, member, organisation } = await team(s);
      const renamed = await s.api({
        method: 'PATCH',
        path: path(organisation.id),
        token: admin.token,
        body: { name: 'Acme Labs', billing_details: billing },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json<Organisation>()).toMatchObject({ name: 'Acme Labs', role: 'admin' });
      expectRefusal(
        await s.api({
          method: 'PATCH',
          path: path(organisation.id),
          token: member.token,
          body: { name: 'Mine' },
        }),
        403,
        'organisation_admin_required',
      );
      expect(await securityEvents(s, { type: 'organisation_updated', userId: admin.id })).toHaveLength(1);
    });
  });

  describe('members and roles', () => {
    it('lists members with their roles, seats and active machines', async () => {
      const s = server();
      const { owner, member, organisation, licenseId } = await team(s);
      await machineOf(s, licenseId, member, 'member-laptop');
      const members = (await s.api({ path: path(organisation.id, '/members'), token: member.token })).json<
        OrganisationMember[]
      >();
      expect(members.map((m) => m.role)).toEqual(['owner', 'admin', 'member']);
      expect(members[0]).toMatchObject({ user_id: owner.id, has_seat: false, machines: [] });
      expect(members[2]).toMatchObject({
        user_id: member.id,
        has_seat: true,
        machines: [{ device_name: 'Work laptop', platform: 'windows' }],
      });
    });

    it('changes roles; the owner’s role never changes but by a transfer', async () => {
      const s = server();
      const { owner, admin, member, organisation } = await team(s);
      const promoted = await s.api({
        method: 'PATCH',
        path: path(organisation.id, `/members/${member.id}`),
        token: admin.token,
        body: { role: 'admin' },
      });
      expect(promoted.json<OrganisationMember>().role).toBe('admin');
      expectRefusal(
        await s.api({
          method: 'PATCH',
          path: path(organisation.id, `/members/${owner.id}`),
          token: admin.token,
          body: { role: 'member' },
        }),
        409,
        'owner_role_fixed',
      );
      expectRefusal(
        await s.api({
          method: 'PATCH',
          path: path(organisation.id, `/members/${owner.id}`),
          token: owner.token,
          body: { role: 'owner' },
        }),
        400,
        'validation_error',
      );
      const demoted = await s.api({
        method: 'PATCH',
        path: path(organisation.id, `/members/${admin.id}`),
        token: owner.token,
        body: { role: 'member' },
      });
      expect(demoted.json<OrganisationMember>().role).toBe('member');
      // Now a member, the former admin manages nothing.
      expectRefusal(
        await s.api({
          method: 'PATCH',
          path: path(organisation.id, `/members/${member.id}`),
          token: admin.token,
          body: { role: 'member' },
        }),
        403,
        'organisation_admin_required',
      );
      const events = await securityEvents(s, { type: 'organisation_role_changed', userId: admin.id });
      expect(events.map((event) => event.actor_id)).toEqual([owner.id]);
      expectRefusal(
        await s.api({
          method: 'PATCH',
          path: path(organisation.id, `/members/${crypto.randomUUID()}`),
          token: owner.token,
          body: { role: 'member' },
        }),
        404,
        'member_not_found',
      );
    });

    it('removing a member frees the seat and ends their machines with the reason', async () => {
      const s = server();
      const { owner, admin, member, organisation, licenseId } = await team(s);
      const machine = await machineOf(s, licenseId, member, 'member-desktop');
      const removed = await s.api({
        method: 'DELETE',
        path: path(organisation.id, `/members/${member.id}`),
        token: admin.token,
      });
      expect(removed.statusCode, removed.body).toBe(204);
      const activation = await s.app.db
        .selectFrom('activations')
        .selectAll()
        .where('id', '=', machine)
        .executeTakeFirstOrThrow();
      expect(activation.deactivated_reason).toBe('seat_removed');
      expect(activation.deactivated_at).not.toBeNull();
      const seen = (await s.api({ path: path(organisation.id), token: owner.token })).json<Organisation>();
      expect(seen.seats).toMatchObject({ assigned: 1, bought: 3 });
      expectRefusal(
        await s.api({ path: path(organisation.id), token: member.token }),
        404,
        'organisation_not_found',
      );
      const [event] = await securityEvents(s, { type: 'organisation_member_removed', userId: member.id });
      expect(event?.actor_id).toBe(admin.id);
      expectRefusal(
        await s.api({
          method: 'DELETE',
          path: path(organisation.id, `/members/${owner.id}`),
          token: admin.token,
        }),
        409,
        'owner_cannot_be_removed',
      );
    });

    it('assigns seats by hand within the seats bought and takes them back', async () => {
      const s = server();
      const { owner, member, organisation, licenseId } = await team(s);
      const machine = await machineOf(s, licenseId, member, 'member-tablet');
      const seatPath = path(organisation.id, `/members/${member.id}/seat`);
      const freed = await s.api({ method: 'DELETE', path: seatPath, token: owner.token });
      expect(freed.json<OrganisationMember>()).toMatchObject({ has_seat: false, machines: [] });
      const activation = await s.app.db
        .selectFrom('activations')
        .select('deactivated_reason')
        .where('id', '=', machine)
        .executeTakeFirstOrThrow();
      expect(activation.deactivated_reason).toBe('seat_removed');
      // Owner takes the third seat; the member gets the last one back; then the seats are full.
      const ownerSeat = await s.api({
        method: 'PUT',
        path: path(organisation.id, `/members/${owner.id}/seat`),
        token: owner.token,
      });
      expect(ownerSeat.json<OrganisationMember>().has_seat).toBe(true);
      const again = await s.api({ method: 'PUT', path: seatPath, token: owner.token });
      expect(again.json<OrganisationMember>().has_seat).toBe(true);
      const extra = await signIn(s, 'user', 'org-extra');
      await addMember(s, organisation.id, extra.id, 'member', { seat: false });
      expectRefusal(
        await s.api({
          method: 'PUT',
          path: path(organisation.id, `/members/${extra.id}/seat`),
          token: owner.token,
        }),
        409,
        'seats_full',
      );
      expect(
        await securityEvents(s, { type: 'organisation_seat_unassigned', userId: member.id }),
      ).toHaveLength(1);
      expect(await securityEvents(s, { type: 'organisation_seat_assigned', userId: member.id })).toHaveLength(
        1,
      );
    });

    it('refuses a seat before the organisation has bought any', async () => {
      const s = server();
      const owner = await signIn(s, 'user', 'org-no-seats');
      const organisation = await createOrganisation(s, owner);
      expectRefusal(
        await s.api({
          method: 'PUT',
          path: path(organisation.id, `/members/${owner.id}/seat`),
          token: owner.token,
        }),
        409,
        'no_seats',
      );
    });

    it('does not give by hand a seat promised to a pending invitation; the invitee still joins', async () => {
      const s = server();
      // Three seats: the admin and the member hold two, an invitation is promised the third.
      const { owner, admin, organisation } = await team(s);
      const invitee = await signIn(s, 'user', 'org-promised');
      const { token } = await inviteAndReadLink(s, admin, organisation.id, invitee.email);
      const ownerSeat = path(organisation.id, `/members/${owner.id}/seat`);
      const refused = await s.api({ method: 'PUT', path: ownerSeat, token: admin.token });
      expectRefusal(refused, 409, 'seats_full');
      expect(refused.json<{ detail: string }>().detail).toContain('pending invitation');
      const members = await s.api({ path: path(organisation.id, '/members'), token: owner.token });
      expect(members.json<OrganisationMember[]>().find((m) => m.user_id === owner.id)?.has_seat).toBe(false);
      const joined = await acceptInvitation(s, invitee, token);
      expect(joined.statusCode, joined.body).toBe(200);
      expect(await countAssignedSeats(s.app.db, organisation.id)).toBe(3);
      // Revoked, the promise is gone: the seat it kept is free for a hand assignment again.
      await s.api({
        method: 'DELETE',
        path: path(organisation.id, `/members/${invitee.id}/seat`),
        token: owner.token,
      });
      const next = await inviteAndReadLink(s, owner, organisation.id, uniqueEmail('org-withdrawn'));
      expectRefusal(await s.api({ method: 'PUT', path: ownerSeat, token: owner.token }), 409, 'seats_full');
      await s.api({
        method: 'DELETE',
        path: path(organisation.id, `/invitations/${next.invitation.id}`),
        token: owner.token,
      });
      const given = await s.api({ method: 'PUT', path: ownerSeat, token: owner.token });
      expect(given.statusCode, given.body).toBe(200);
      expect(given.json<OrganisationMember>().has_seat).toBe(true);
    });

    it('two instances on one database, the last seat given by hand against an invitation accepted: the invitee joins, never more seats than bought', async () => {
      const s = server();
      for (let round = 0; round < 3; round++) {
        const { owner, admin, organisation } = await team(s);
        const invitee = await signIn(s, 'user', 'org-racing-invitee');
        const { token } = await inviteAndReadLink(s, admin, organisation.id, invitee.email);
        // Built once the mail is read, so that its outbox worker cannot take the mail first.
        const second = await buildApp(s.config, { clock: s.clock, logger: false });
        try {
          const [given, accepted] = await Promise.all([
            s.api({
              method: 'PUT',
              path: path(organisation.id, `/members/${owner.id}/seat`),
              token: admin.token,
            }),
            second.inject({
              method: 'POST',
              url: `${API_BASE_PATH}/invitations/accept`,
              headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${invitee.token}` },
              payload: { token },
            }),
          ]);
          expectRefusal(given, 409, 'seats_full');
          expect(accepted.statusCode, accepted.body).toBe(200);
        } finally {
          await second.close();
        }
        expect(await countAssignedSeats(s.app.db, organisation.id)).toBe(3);
      }
    });

    it('the owner’s seat is not an admin’s to take back; the owner may give it up', async () => {
      const s = server();
      const { owner, admin, member, organisation, licenseId } = await team(s);
      const ownerSeat = path(organisation.id, `/members/${owner.id}/seat`);
      expect((await s.api({ method: 'PUT', path: ownerSeat, token: owner.token })).statusCode).toBe(200);
      const machine = await machineOf(s, licenseId, owner, 'owner-desktop');
      expectRefusal(
        await s.api({ method: 'DELETE', path: ownerSeat, token: admin.token }),
        409,
        'owner_seat_fixed',
      );
      expectRefusal(
        await s.api({ method: 'DELETE', path: ownerSeat, token: member.token }),
        403,
        'organisation_admin_required',
      );
      const kept = await s.app.db
        .selectFrom('activations')
        .select(['deactivated_at'])
        .where('id', '=', machine)
        .executeTakeFirstOrThrow();
      expect(kept.deactivated_at).toBeNull();
      expect(
        await securityEvents(s, { type: 'organisation_seat_unassigned', userId: owner.id }),
      ).toHaveLength(0);
      // The owner gives it up (ending their machine); a platform administrator may, as the owner.
      const freed = await s.api({ method: 'DELETE', path: ownerSeat, token: owner.token });
      expect(freed.json<OrganisationMember>()).toMatchObject({ has_seat: false, machines: [] });
      expect((await s.api({ method: 'PUT', path: ownerSeat, token: owner.token })).statusCode).toBe(200);
      const platformAdmin = await signIn(s, 'admin', 'org-owner-seat-admin');
      const byPlatform = await s.api({ method: 'DELETE', path: ownerSeat, token: platformAdmin.token });
      expect(byPlatform.statusCode, byPlatform.body).toBe(200);
      expect(byPlatform.json<OrganisationMember>().has_seat).toBe(false);
    });

    it('transfers ownership (owner only); the licence follows the new owner', async () => {
      const s = server();
      const { owner, admin, member, organisation, licenseId } = await team(s);
      expectRefusal(
        await s.api({
          method: 'POST',
          path: path(organisation.id, '/transfer-ownership'),
          token: admin.token,
          body: { user_id: admin.id },
        }),
        403,
        'owner_only',
      );
      const transferred = await s.api({
        method: 'POST',
        path: path(organisation.id, '/transfer-ownership'),
        token: owner.token,
        body: { user_id: member.id },
      });
      expect(transferred.statusCode, transferred.body).toBe(200);
      expect(transferred.json<Organisation>().role).toBe('admin');
      const license = await s.app.db
        .selectFrom('licenses')
        .select('user_id')
        .where('id', '=', licenseId)
        .executeTakeFirstOrThrow();
      expect(license.user_id).toBe(member.id);
      const members = (await s.api({ path: path(organisation.id, '/members'), token: member.token })).json<
        OrganisationMember[]
      >();
      expect(members.find((m) => m.user_id === member.id)?.role).toBe('owner');
      expect(members.filter((m) => m.role === 'owner')).toHaveLength(1);
      const [event] = await securityEvents(s, {
        type: 'organisation_ownership_transferred',
        userId: member.id,
      });
      expect(event?.actor_id).toBe(owner.id);
      const outsider = await signIn(s, 'user', 'org-transfer-outsider');
      expectRefusal(
        await s.api({
          method: 'POST',
          path: path(organisation.id, '/transfer-ownership'),
          token: member.token,
          body: { user_id: outsider.id },
        }),
        404,
        'member_not_found',
      );
    });

    it('members leave (their machines end); the owner is refused until they transfer', async () => {
      const s = server();
      const { owner, member, organisation, licenseId } = await team(s);
      const machine = await machineOf(s, licenseId, member, 'member-leaving');
      expectRefusal(
        await s.api({ method: 'POST', path: path(organisation.id, '/leave'), token: owner.token }),
        409,
        'owner_cannot_leave',
      );
      const left = await s.api({
        method: 'POST',
        path: path(organisation.id, '/leave'),
        token: member.token,
      });
      expect(left.statusCode, left.body).toBe(204);
      const activation = await s.app.db
        .selectFrom('activations')
        .select('deactivated_reason')
        .where('id', '=', machine)
        .executeTakeFirstOrThrow();
      expect(activation.deactivated_reason).toBe('seat_removed');
      expect(await securityEvents(s, { type: 'organisation_member_left', userId: member.id })).toHaveLength(
        1,
      );
      expectRefusal(
        await s.api({ method: 'POST', path: path(organisation.id, '/leave'), token: member.token }),
        404,
        'organisation_not_found',
      );
    });

    it('a platform administrator acts as the owner would, without being a member', async () => {
      const s = server();
      const { member, organisation } = await team(s);
      const platformAdmin = await signIn(s, 'admin', 'org-platform-admin');
      const seen = (
        await s.api({ path: path(organisation.id), token: platformAdmin.token })
      ).json<Organisation>();
      expect(seen.role).toBeNull();
      const transferred = await s.api({
        method: 'POST',
        path: path(organisation.id, '/transfer-ownership'),
        token: platformAdmin.token,
        body: { user_id: member.id },
      });
      expect(transferred.statusCode, transferred.body).toBe(200);
      const [event] = await securityEvents(s, {
        type: 'organisation_ownership_transferred',
        userId: member.id,
      });
      expect(event?.actor_id).toBe(platformAdmin.id);
      expectRefusal(
        await s.api({ method: 'POST', path: path(organisation.id, '/leave'), token: platformAdmin.token }),
        409,
        'not_a_member',
      );
    });

    it('an administrator’s personal API token acts as a customer: outside the organisation, it is not found', async () => {
      const s = server();
      const { organisation } = await team(s);
      const platformAdmin = await signIn(s, 'admin', 'org-personal-token');
      const owner = await s.app.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', platformAdmin.id)
        .executeTakeFirstOrThrow();
      const { token } = await createApiTokensService({ db: s.app.db, clock: s.clock }).create(
        owner,
        'personal',
        { name: 'Scripts', scopes: ['organisations:read'], expires_in_days: 30 },
        { ip: '127.0.0.1', userAgent: null },
      );
      expectRefusal(await s.api({ path: path(organisation.id), token }), 404, 'organisation_not_found');
    });
  });
});
