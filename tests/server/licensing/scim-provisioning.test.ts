import { expect, it } from 'vitest';
import { SCIM_SCHEMAS } from '../../../src/shared/api/scim.js';
import { countAssignedSeats } from '../../../src/server/licensing/organisations/seats-repository.js';
import {
  describeOnEveryDatabase,
  STRONG_PASSWORD,
  type TestServer,
  uniqueEmail,
} from '../../support/test-server.js';
import {
  expectActivation,
  expectRefusal,
  licenseSuiteOptions,
  machine,
  member,
  statusOf,
} from '../helpers/license-helpers.js';
import { invitationLinkOf } from '../helpers/organisation-helpers.js';
import { activateSeat, seatOrganisation } from '../helpers/organisation-seat-helpers.js';
import {
  createScimToken,
  entraDeactivate,
  entraUser,
  expectScimError,
  scimClient,
  baseUrlOf,
} from '../helpers/scim-helpers.js';

const securityEvents = (s: TestServer, type: string) =>
  s.app.db.selectFrom('security_events').selectAll().where('type', '=', type).execute();

describeOnEveryDatabase(
  'SCIM provisioning',
  (server) => {
    it('requests shaped as Entra ID sends them create two users and deactivate one: seats follow, the deactivated person’s next check is refused with the reason', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 3);
      const { token, id: tokenId } = await createScimToken(s, owner.token, org.id);
      const scim = scimClient(await baseUrlOf(s), token);

      // Entra ID looks the person up first, then creates them.
      const alice = uniqueEmail('alice');
      const lookup = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${alice}"`)}`);
      expect(lookup.status).toBe(200);
      expect(lookup.contentType).toMatch(/^application\/scim\+json/);
      expect(lookup.body).toMatchObject({
        schemas: [SCIM_SCHEMAS.listResponse],
        totalResults: 0,
        Resources: [],
      });

      // Alice has no account: she is invited, a seat promised to her.
      const createdAlice = await scim('POST', '/Users', entraUser(alice, 'entra-alice'));
      expect(createdAlice.status, JSON.stringify(createdAlice.body)).toBe(201);
      expect(createdAlice.body).toMatchObject({ userName: alice, active: true, externalId: 'entra-alice' });
      const { token: link } = invitationLinkOf(await s.lastMailTo(alice));

      // Bob has an account: he joins at once, with a seat.
      const bob = await member(s);
      const createdBob = await scim('POST', '/Users', entraUser(bob.email, 'entra-bob', 'Bob', 'Babbage'));
      expect(createdBob.status).toBe(201);
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(2);

      // Alice signs up from her invitation and activates her machine on her seat; Bob too.
      const signedUp = await s.api({
        method: 'POST',
        path: '/invitations/sign-up',
        body: { token: link, password: STRONG_PASSWORD },
      });
      expect(signedUp.statusCode, signedUp.body).toBe(200);
      const aliceToken = signedUp.json<{ access_token: string }>().access_token;
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(3);
      const aliceHw = machine('alice');
      const bobHw = machine('bob');
      expectActivation(await activateSeat(s, aliceToken, org.id, aliceHw), 201);
      expectActivation(await activateSeat(s, bob.token, org.id, bobHw), 201);
      expect((await statusOf(s, org.license.license_key, aliceHw)).statusCode).toBe(200);

      // Entra ID deactivates Alice: replace active with "False".
      const deactivated = await scim('PATCH', `/Users/${createdAlice.body.id}`, entraDeactivate);
      expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
      expect(deactivated.body.active).toBe(false);
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(2);
      const refusal = expectRefusal(
        await statusOf(s, org.license.license_key, aliceHw),
        403,
        'machine_deactivated',
        'deactivated',
      );
      expect(refusal.message).toContain(`Your seat in ${org.name} was taken back`);
      expect((await statusOf(s, org.license.license_key, bobHw)).statusCode).toBe(200);

      // The deactivation is a security event whose actor is the token.
      const [event] = await securityEvents(s, 'scim_user_deactivated');
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
        organisation_id: org.id,
        scim_token_id: tokenId,
        scim_user_id: createdAlice.body.id,
        machines_ended: 1,
      });
      const seatEvents = await securityEvents(s, 'organisation_seat_unassigned');
      expect(seatEvents.map((row) => JSON.parse(row.details ?? '{}').scim_token_id)).toContain(tokenId);

      // Okta's reactivation (path-less replace with an object) seats her again: a seat is free.
      const reactivated = await scim('PATCH', `/Users/${createdAlice.body.id}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'replace', value: { active: true } }],
      });
      expect(reactivated.status).toBe(200);
      expect(reactivated.body.active).toBe(true);
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(3);

      // Deleting Bob takes him out of the organisation and ends his machine.
      const deleted = await scim('DELETE', `/Users/${createdBob.body.id}`);
      expect(deleted.status).toBe(204);
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(2);
      expect((await statusOf(s, org.license.license_key, bobHw)).statusCode).toBe(403);
      expectScimError(await scim('GET', `/Users/${createdBob.body.id}`), 404);
    });

    it('refuses a reactivation with no seat free as it refuses a creation: 409 seats_full in the SCIM schema, the person left inactive', async () => {
      const s = server();
      const owner = await member(s);
      // Three seats: the owner's and two.
      const org = await seatOrganisation(s, owner, 3);
      const { token } = await createScimToken(s, owner.token, org.id);
      const scim = scimClient(await baseUrlOf(s), token);
      const reactivate = (id: unknown) =>
        scim('PATCH', `/Users/${String(id)}`, {
          schemas: [SCIM_SCHEMAS.patchOp],
          Operations: [{ op: 'replace', path: 'active', value: 'True' }],
        });

      // Ann has an account (a member, her seat taken back); Cleo has none (her invitation withdrawn).
      const ann = await member(s);
      const cleo = uniqueEmail('cleo');
      const createdAnn = await scim('POST', '/Users', entraUser(ann.email, 'entra-ann'));
      const createdCleo = await scim('POST', '/Users', entraUser(cleo, 'entra-cleo'));
      expect([createdAnn.status, createdCleo.status]).toEqual([201, 201]);
      for (const created of [createdAnn, createdCleo])
        expect((await scim('PATCH', `/Users/${created.body.id}`, entraDeactivate)).status).toBe(200);
      // Their seats go to two others.
      const dan = await member(s);
      const createdDan = await scim('POST', '/Users', entraUser(dan.email, 'entra-dan'));
      expect((await scim('POST', '/Users', entraUser(uniqueEmail('erin'), 'entra-erin'))).status).toBe(201);
      expect(createdDan.status).toBe(201);
      // A creation now is refused, and so is either reactivation, in SCIM's error schema.
      expectScimError(await scim('POST', '/Users', entraUser(uniqueEmail('fay'), 'entra-fay')), 409);
      const seatsBefore = await countAssignedSeats(s.app.db, org.id);
      for (const created of [createdAnn, createdCleo]) {
        const refused = await reactivate(created.body.id);
        expectScimError(refused, 409);
        expect(refused.body.code).toBe('seats_full');
        expect(refused.body.detail).toContain(org.name);
        // Still inactive, and nothing moved.
        expect((await scim('GET', `/Users/${created.body.id}`)).body.active).toBe(false);
      }
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(seatsBefore);
      const reactivations = async () =>
        (await securityEvents(s, 'scim_user_reactivated')).filter((event) =>
          event.details?.includes(String(createdAnn.body.id)),
        );
      expect(await reactivations()).toHaveLength(0);
      const membership = await s.app.db
        .selectFrom('organisation_members')
        .select('seat_assigned_at')
        .where('organisation_id', '=', org.id)
        .where('user_id', '=', ann.id)
        .executeTakeFirstOrThrow();
      expect(membership.seat_assigned_at).toBeNull();

      // A seat freed, Ann's reactivation seats her.
      expect((await scim('DELETE', `/Users/${createdDan.body.id}`)).status).toBe(204);
      const back = await reactivate(createdAnn.body.id);
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect(back.body.active).toBe(true);
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(seatsBefore);
      expect(await reactivations()).toHaveLength(1);
    });

    it('lists by the filters identity providers use, paged by startIndex and count', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 10);
      const { token } = await createScimToken(s, owner.token, org.id);
      const scim = scimClient(await baseUrlOf(s), token);
      const emails = [uniqueEmail('p1'), uniqueEmail('p2'), uniqueEmail('p3')];
      for (const [index, email] of emails.entries())
        expect((await scim('POST', '/Users', entraUser(email, `ext-${index}`))).status).toBe(201);
      const filtered = async (filter: string) => scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);

      expect((await filtered(`userName eq "${emails[1]?.toUpperCase()}"`)).body.totalResults).toBe(1);
      expect((await filtered('externalId eq "ext-2"')).body.Resources?.[0]?.userName).toBe(emails[2]);
      const byMail = await filtered(`emails[type eq "work"].value eq "${emails[0]}"`);
      expect(byMail.body.Resources?.map((user) => user.userName)).toEqual([emails[0]]);
      expect((await filtered('externalId eq "nobody"')).body.totalResults).toBe(0);

      const page = await scim('GET', '/Users?startIndex=2&count=1');
      expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
      expect(page.body.Resources?.[0]?.userName).toBe(emails[1]);
      expect((await scim('GET', '/Users?startIndex=4&count=10')).body).toMatchObject({
        totalResults: 3,
        itemsPerPage: 0,
      });
      expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ totalResults: 3, itemsPerPage: 0 });

      expectScimError(await filtered('userName co "p"'), 400, 'invalidFilter');
      expectScimError(await filtered('userName eq'), 400, 'invalidFilter');
      expectScimError(await filtered('title eq "x"'), 400, 'invalidFilter');
      expectScimError(await scim('GET', '/Users?startIndex=abc'), 400, 'invalidValue');

      // The discovery documents.
      const config = await scim('GET', '/ServiceProviderConfig');
      expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true } });
      expect((await scim('GET', '/ResourceTypes')).body.totalResults).toBe(2);
      expect((await scim('GET', '/Schemas')).body.totalResults).toBe(2);
      expectScimError(await scim('GET', '/Schemas/nope'), 404);
    });

    it('refuses bad requests with SCIM errors, never a 500', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 2);
      const { token } = await createScimToken(s, owner.token, org.id);
      const base = await baseUrlOf(s);
      const scim = scimClient(base, token);

      expectScimError(await scimClient(base, 'scim_wrong')('GET', '/Users'), 401);
      expectScimError(await scimClient(base, '')('GET', '/Users'), 401);
      const unauthenticated = await fetch(`${base}/scim/v2/Users`);
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('www-authenticate')).toContain('Bearer');

      expectScimError(await scim('POST', '/Users', { schemas: [SCIM_SCHEMAS.user] }), 400, 'invalidValue');
      expectScimError(await scim('POST', '/Users', { userName: 'no-address' }), 400, 'invalidValue');
      expectScimError(await scim('POST', '/Users', { userName: 42 }), 400, 'invalidValue');
      expectScimError(
        await scim('POST', '/Users', { userName: 'a@b.example', active: 'maybe' }),
        400,
        'invalidValue',
      );
      expectScimError(await scim('POST', '/Users', '{"userName": '), 400, 'invalidSyntax');
      expectScimError(await scim('POST', '/Users', '[]'), 400);
      expectScimError(
        await scim('POST', '/Users', 'userName=x', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
      );

      const email = uniqueEmail('dup');
      const created = await scim('POST', '/Users', entraUser(email, 'ext-dup'));
      expect(created.status).toBe(201);
      expectScimError(
        await scim('POST', '/Users', entraUser(email.toUpperCase(), 'ext-other')),
        409,
        'uniqueness',
      );
      expectScimError(
        await scim('POST', '/Users', entraUser(uniqueEmail('x'), 'ext-dup')),
        409,
        'uniqueness',
      );

      const id = created.body.id ?? '';
      expectScimError(await scim('PATCH', `/Users/${id}`, { Operations: [] }), 400, 'invalidSyntax');
      expectScimError(
        await scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'move', path: 'active' }] }),
        400,
        'invalidSyntax',
      );
      expectScimError(
        await scim('PATCH', `/Users/${id}`, {
          Operations: [{ op: 'replace', path: 'active', value: 'yes' }],
        }),
        400,
        'invalidValue',
      );
      expectScimError(
        await scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'remove' }] }),
        400,
        'noTarget',
      );
      expectScimError(
        await scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', value: 'False' }] }),
        400,
        'invalidValue',
      );
      // Attributes this server does not keep are ignored, as Entra ID sends many.
      const ignored = await scim('PATCH', `/Users/${id}`, {
        Operations: [{ op: 'Add', path: 'addresses[type eq "work"].formatted', value: 'Somewhere' }],
      });
      expect(ignored.status).toBe(200);
      expectScimError(await scim('GET', '/Users/not-a-user'), 404);
      expectScimError(await scim('DELETE', '/Users/not-a-user'), 404);
      expectScimError(await scim('GET', '/Nothing'), 404);

      // The last seat is promised to the invitee: the next person finds none.
      expectScimError(await scim('POST', '/Users', entraUser(uniqueEmail('late'), 'ext-late')), 409);
    });

    it('refuses to deactivate or delete the organisation’s owner, with a SCIM error and a security event', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 2);
      const { token } = await createScimToken(s, owner.token, org.id);
      const scim = scimClient(await baseUrlOf(s), token);
      const created = await scim('POST', '/Users', entraUser(owner.email, 'entra-owner'));
      expect(created.status).toBe(201);
      const id = created.body.id ?? '';

      expectScimError(await scim('PATCH', `/Users/${id}`, entraDeactivate), 400, 'mutability');
      expectScimError(
        await scim('PUT', `/Users/${id}`, { ...entraUser(owner.email, 'entra-owner'), active: false }),
        400,
        'mutability',
      );
      expectScimError(await scim('DELETE', `/Users/${id}`), 400, 'mutability');
      expect((await scim('GET', `/Users/${id}`)).body.active).toBe(true);
      expect(await countAssignedSeats(s.app.db, org.id)).toBe(1);
      expect(await securityEvents(s, 'scim_refused')).toHaveLength(3);
    });

    it('a token of one organisation finds nothing of another’s; rotated and revoked tokens stop at once', async () => {
      const s = server();
      const ownerA = await member(s);
      const ownerB = await member(s);
      const orgA = await seatOrganisation(s, ownerA, 3);
      const orgB = await seatOrganisation(s, ownerB, 3);
      const base = await baseUrlOf(s);
      const first = await createScimToken(s, ownerA.token, orgA.id);
      const scimA = scimClient(base, first.token);
      const scimB = scimClient(base, (await createScimToken(s, ownerB.token, orgB.id)).token);
      const ofB = await scimB('POST', '/Users', entraUser(uniqueEmail('b'), 'ext-b'));
      expect(ofB.status).toBe(201);
      const groupOfB = await scimB('POST', '/Groups', {
        displayName: 'B team',
        members: [{ value: ofB.body.id }],
      });
      expect(groupOfB.status).toBe(201);

      expectScimError(await scimA('GET', `/Users/${ofB.body.id}`), 404);
      expectScimError(await scimA('PATCH', `/Users/${ofB.body.id}`, entraDeactivate), 404);
      expectScimError(await scimA('DELETE', `/Users/${ofB.body.id}`), 404);
      expectScimError(await scimA('GET', `/Groups/${groupOfB.body.id}`), 404);
      expect((await scimA('GET', '/Users')).body.totalResults).toBe(0);
      // Nor may A's groups take B's users as members.
      expectScimError(
        await scimA('POST', '/Groups', { displayName: 'Raid', members: [{ value: ofB.body.id }] }),
        400,
        'invalidValue',
      );
      expect((await scimB('GET', `/Users/${ofB.body.id}`)).body.active).toBe(true);

      // Only the owner manages the token.
      const rotate = (who: string) =>
        s.api({ method: 'POST', path: `/organisations/${orgA.id}/provisioning/token/rotate`, token: who });
      expect((await rotate(ownerB.token)).statusCode).toBe(404);
      expect(
        (
          await s.api({
            method: 'POST',
            path: `/organisations/${orgA.id}/provisioning/token`,
            token: ownerA.token,
          })
        ).statusCode,
      ).toBe(409);
      const rotated = await rotate(ownerA.token);
      expect(rotated.statusCode).toBe(200);
      expectScimError(await scimA('GET', '/Users'), 401);
      const scimA2 = scimClient(base, rotated.json<{ token: string }>().token);
      expect((await scimA2('GET', '/Users')).status).toBe(200);
      const settings = await s.api({ path: `/organisations/${orgA.id}/provisioning`, token: ownerA.token });
      expect(settings.json()).toMatchObject({
        base_url: expect.stringMatching(/\/scim\/v2$/),
        token: { last_four: rotated.json<{ token: string }>().token.slice(-4) },
      });
      expect(settings.body).not.toContain(rotated.json<{ token: string }>().token);
      const revoked = await s.api({
        method: 'DELETE',
        path: `/organisations/${orgA.id}/provisioning/token`,
        token: ownerA.token,
      });
      expect(revoked.statusCode).toBe(204);
      expectScimError(await scimA2('GET', '/Users'), 401);
      expect((await securityEvents(s, 'scim_token_rotated')).length).toBe(1);
      expect((await securityEvents(s, 'scim_token_revoked')).length).toBe(1);
    });

    it('groups map to organisation roles as the owner configured, through Entra ID’s and Okta’s PATCH shapes', async () => {
      const s = server();
      const owner = await member(s);
      const org = await seatOrganisation(s, owner, 5);
      const { token } = await createScimToken(s, owner.token, org.id);
      const scim = scimClient(await baseUrlOf(s), token);
      const bob = await member(s);
      const user = await scim('POST', '/Users', entraUser(bob.email, 'ext-bob'));
      const roleOfBob = async () =>
        (
          await s.app.db
            .selectFrom('organisation_members')
            .select('role')
            .where('organisation_id', '=', org.id)
            .where('user_id', '=', bob.id)
            .executeTakeFirstOrThrow()
        ).role;
      const group = await scim('POST', '/Groups', {
        schemas: [SCIM_SCHEMAS.group],
        displayName: 'Admins',
        externalId: 'g-1',
        members: [],
      });
      expect(group.status).toBe(201);
      const groupId = group.body.id ?? '';

      // Entra ID adds a member.
      const added = await scim('PATCH', `/Groups/${groupId}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: user.body.id }] }],
      });
      expect(added.status).toBe(200);
      expect(added.body.members).toEqual([{ value: user.body.id, display: bob.email }]);
      expect(await roleOfBob()).toBe('member');

      // The owner maps the group to admin: Bob becomes an admin.
      const mapped = await s.api({
        method: 'PUT',
        path: `/organisations/${org.id}/provisioning/groups/${groupId}/role`,
        token: owner.token,
        body: { role: 'admin' },
      });
      expect(mapped.statusCode, mapped.body).toBe(200);
      expect(await roleOfBob()).toBe('admin');
      expect(
        (
          await s.api({
            method: 'PUT',
            path: `/organisations/${org.id}/provisioning/groups/${groupId}/role`,
            token: bob.token,
            body: { role: null },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await s.api({
            method: 'PUT',
            path: `/organisations/${org.id}/provisioning/groups/${groupId}/role`,
            token: owner.token,
            body: { role: 'owner' },
          })
        ).statusCode,
      ).toBe(400);

      // Okta removes him by a filter path: he is a member again.
      const removed = await scim('PATCH', `/Groups/${groupId}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'remove', path: `members[value eq "${user.body.id}"]` }],
      });
      expect(removed.status).toBe(200);
      expect(await roleOfBob()).toBe('member');

      // Okta's path-less replace renames; a replace of members puts him back; deleting the group ends the role.
      const renamed = await scim('PATCH', `/Groups/${groupId}`, {
        Operations: [
          { op: 'replace', value: { id: groupId, displayName: 'Administrators' } },
          { op: 'replace', path: 'members', value: [{ value: user.body.id }] },
        ],
      });
      expect(renamed.body).toMatchObject({ displayName: 'Administrators' });
      expect(await roleOfBob()).toBe('admin');
      expect(
        (
          await scim(
            'GET',
            `/Groups?filter=${encodeURIComponent('displayName eq "Administrators"')}&excludedAttributes=members`,
          )
        ).body.Resources,
      ).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
      expect((await scim('GET', `/Users/${user.body.id}`)).body.groups).toEqual([
        { value: groupId, display: 'Administrators' },
      ]);
      expectScimError(
        await scim('PATCH', `/Groups/${groupId}`, {
          Operations: [{ op: 'add', path: 'members', value: [{ value: 'ghost' }] }],
        }),
        400,
        'invalidValue',
      );
      expectScimError(await scim('POST', '/Groups', { displayName: 'Administrators' }), 409, 'uniqueness');
      expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
      expect(await roleOfBob()).toBe('member');
    });
  },
  licenseSuiteOptions,
);
