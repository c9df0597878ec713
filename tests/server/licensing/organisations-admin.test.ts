import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type {
  adminOrganisationDetailSchema,
  adminOrganisationListSchema,
} from '../../../src/shared/api/organisations.js';
import { describeOnEveryDatabase, type TestServer, uniqueEmail } from '../../support/test-server.js';
import { signIn } from '../helpers/admin-helpers.js';
import {
  acceptInvitation,
  addMember,
  createOrganisation,
  expectRefusal,
  giveSeats,
  inviteAndReadLink,
} from '../helpers/organisation-helpers.js';

type AdminList = z.infer<typeof adminOrganisationListSchema>;
type AdminDetail = z.infer<typeof adminOrganisationDetailSchema>;

/** The organisation webhook events queued so far, oldest first, with their payload's data. */
async function organisationEvents(s: TestServer) {
  const rows = await s.app.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('type', 'like', 'organisation.%')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    type: row.type,
    data: (JSON.parse(row.payload) as { data: Record<string, unknown> }).data,
  }));
}

describeOnEveryDatabase('organisations for administrators', (server) => {
  describe('the list and the detail', () => {
    it('pages every organisation and finds one by its name or a member’s address', async () => {
      const s = server();
      const platformAdmin = await signIn(s, 'admin', 'orgs-admin');
      const owner = await signIn(s, 'user', 'orgs-list-owner');
      const member = await signIn(s, 'user', 'orgs-list-member');
      const tag = uniqueEmail('tag').split('@')[0] ?? 'tag';
      const named = await createOrganisation(s, owner, `Zephyr ${tag}`);
      const other = await createOrganisation(s, owner, `Aardvark ${tag}`);
      await addMember(s, other.id, member.id, 'member', { seat: false });

      const byName = await s.api({
        path: `/admin/organisations?search=${encodeURIComponent(`zephyr ${tag}`)}`,
        token: platformAdmin.token,
      });
      expect(byName.statusCode, byName.body).toBe(200);
      expect(byName.json<AdminList>()).toMatchObject({
        total: 1,
        data: [{ id: named.id, owner_email: owner.email, role: null, members_count: 1 }],
      });
      const byMember = await s.api({
        path: `/admin/organisations?search=${encodeURIComponent(member.email.toUpperCase())}`,
        token: platformAdmin.token,
      });
      expect(byMember.json<AdminList>().data.map((item) => item.id)).toEqual([other.id]);
      const sorted = await s.api({
        path: `/admin/organisations?search=${encodeURIComponent(tag)}&sort=name&perPage=1`,
        token: platformAdmin.token,
      });
      expect(sorted.json<AdminList>()).toMatchObject({ total: 2, perPage: 1, data: [{ id: other.id }] });
      const second = await s.api({
        path: `/admin/organisations?search=${encodeURIComponent(tag)}&sort=name&perPage=1&page=2`,
        token: platformAdmin.token,
      });
      expect(second.json<AdminList>().data.map((item) => item.id)).toEqual([named.id]);
      expectRefusal(
        await s.api({ path: '/admin/organisations?sort=members', token: platformAdmin.token }),
        400,
        'validation_error',
      );
      expectRefusal(await s.api({ path: '/admin/organisations', token: owner.token }), 403, 'admin_required');
    });

    it('shows one organisation’s members, invitations, seats and subscription', async () => {
      const s = server();
      const platformAdmin = await signIn(s, 'admin', 'orgs-detail-admin');
      const owner = await signIn(s, 'user', 'orgs-detail-owner');
      const organisation = await createOrganisation(s, owner, 'Detail Ltd');
      const licenseId = await giveSeats(s, organisation.id, 4);
      const invitee = await signIn(s, 'user', 'orgs-detail-invitee');
      const { token } = await inviteAndReadLink(s, owner, organisation.id, invitee.email);
      expect((await acceptInvitation(s, invitee, token)).statusCode).toBe(200);
      const pending = uniqueEmail('orgs-detail-pending');
      await inviteAndReadLink(s, owner, organisation.id, pending, 'admin');

      const detail = await s.api({
        path: `/admin/organisations/${organisation.id}`,
        token: platformAdmin.token,
      });
      expect(detail.statusCode, detail.body).toBe(200);
      const body = detail.json<AdminDetail>();
      expect(body).toMatchObject({
        name: 'Detail Ltd',
        owner_email: owner.email,
        license_id: licenseId,
        seats: { bought: 4, assigned: 1, pending_invitations: 1, machines_per_seat: 2, floating: null },
        subscription: null,
      });
      expect(body.members.map((member) => [member.email, member.role, member.has_seat])).toEqual([
        [owner.email, 'owner', false],
        [invitee.email, 'member', true],
      ]);
      expect(body.invitations.map((invitation) => [invitation.email, invitation.status])).toEqual([
        [pending, 'pending'],
        [invitee.email, 'accepted'],
      ]);
      expectRefusal(
        await s.api({ path: `/admin/organisations/${crypto.randomUUID()}`, token: platformAdmin.token }),
        404,
        'organisation_not_found',
      );
    });
  });

  it('queues the organisation webhook events with the changes that cause them', async () => {
    const s = server();
    const platformAdmin = await signIn(s, 'admin', 'orgs-webhooks-admin');
    const endpoint = await s.api({
      method: 'POST',
      path: '/admin/webhooks',
      token: platformAdmin.token,
      body: {
        url: 'https://127.0.0.1:9/organisations',
        event_types: [
          'organisation.created',
          'organisation.updated',
          'organisation.member_joined',
          'organisation.member_removed',
          'organisation.seats_changed',
        ],
      },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const before = (await organisationEvents(s)).length;
    const owner = await signIn(s, 'user', 'orgs-webhooks-owner');
    const organisation = await createOrganisation(s, owner, 'Hooked');
    await giveSeats(s, organisation.id, 2);
    const invitee = await signIn(s, 'user', 'orgs-webhooks-invitee');
    const { token } = await inviteAndReadLink(s, owner, organisation.id, invitee.email);
    await acceptInvitation(s, invitee, token);
    const base = `/organisations/${organisation.id}`;
    await s.api({ method: 'PATCH', path: base, token: owner.token, body: { name: 'Hooked Ltd' } });
    await s.api({ method: 'DELETE', path: `${base}/members/${invitee.id}/seat`, token: owner.token });
    await s.api({ method: 'PUT', path: `${base}/members/${invitee.id}/seat`, token: owner.token });
    await s.api({ method: 'DELETE', path: `${base}/members/${invitee.id}`, token: owner.token });
    // A refused change queues nothing.
    await s.api({ method: 'POST', path: `${base}/leave`, token: owner.token });

    const events = (await organisationEvents(s)).slice(before);
    expect(events.map((event) => event.type)).toEqual([
      'organisation.created',
      'organisation.member_joined',
      'organisation.updated',
      'organisation.seats_changed',
      'organisation.seats_changed',
      'organisation.member_removed',
    ]);
    expect(events[0]?.data).toEqual({
      organisation: { id: organisation.id, name: 'Hooked' },
      owner_id: owner.id,
    });
    expect(events[1]?.data).toMatchObject({ user_id: invitee.id, role: 'member', has_seat: true });
    expect(events[3]?.data).toMatchObject({ user_id: invitee.id, change: 'unassigned' });
    expect(events[5]?.data).toMatchObject({
      organisation: { id: organisation.id, name: 'Hooked Ltd' },
      user_id: invitee.id,
      reason: 'removed',
    });
  });
});
