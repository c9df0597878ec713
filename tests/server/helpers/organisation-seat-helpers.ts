import { randomBytes, randomUUID } from 'node:crypto';
import type { OrganisationRole } from '../../../src/shared/api/organisations.js';
import type { FingerprintComponents } from '../../../src/shared/fingerprint.js';
import type { LicenseRow, PlanRow } from '../../../src/server/platform/db/tables.js';
import { issueLicense } from '../../../src/server/licensing/licenses/issue.js';
import type { TestServer } from '../../support/test-server.js';
import { type Member, member, planByCode } from './license-helpers.js';

/**
 * Organisations with a seat-based license written straight to the database, for the suites of
 * seat activation and license checks (the organisations' own routes are tested on their own).
 */

/** The Business plan's machines per seat (migration 0019). */
export const PER_SEAT = 2;

export interface SeatOrganisation {
  id: string;
  name: string;
  owner: { id: string };
  license: LicenseRow;
}

/** Makes the account a member of the organisation, holding a seat unless `seat` is false. */
export async function addMember(
  s: TestServer,
  org: { id: string },
  account: { id: string },
  { role = 'member', seat = true }: { role?: OrganisationRole; seat?: boolean } = {},
): Promise<void> {
  const now = s.clock.now().toISOString();
  await s.app.db
    .insertInto('organisation_members')
    .values({
      organisation_id: org.id,
      user_id: account.id,
      role,
      seat_assigned_at: seat ? now : null,
      joined_at: now,
    })
    .execute();
}

/**
 * An organisation owned by `owner` (holding a seat), with a license of `seats` seats of `plan`
 * (the Business plan unless given).
 */
export async function seatOrganisation(
  s: TestServer,
  owner: { id: string },
  seats = 3,
  plan?: PlanRow,
): Promise<SeatOrganisation> {
  const now = s.clock.now().toISOString();
  const id = randomUUID();
  const name = `Acme ${randomBytes(3).toString('hex')}`;
  await s.app.db
    .insertInto('organisations')
    .values({ id, name, billing_details: null, created_by: owner.id, created_at: now, updated_at: now })
    .execute();
  await addMember(s, { id }, owner, { role: 'owner' });
  const license = await issueLicense(s.app.db, s.clock, s.app.events, {
    userId: owner.id,
    plan: plan ?? (await planByCode(s, 'business-monthly')),
    organisation: { id, seats },
  });
  return { id, name, owner, license };
}

/** A new signed-in account joined to the organisation. */
export async function join(
  s: TestServer,
  org: { id: string },
  options: { role?: Exclude<OrganisationRole, 'owner'>; seat?: boolean } = {},
): Promise<Member> {
  const who = await member(s);
  await addMember(s, org, who, options);
  return who;
}

/** Takes the member's seat back as the organisation's management does: seat freed, machines ended. */
export async function takeSeatBack(s: TestServer, org: SeatOrganisation, who: { id: string }): Promise<void> {
  const now = s.clock.now().toISOString();
  await s.app.db
    .updateTable('organisation_members')
    .set({ seat_assigned_at: null })
    .where('organisation_id', '=', org.id)
    .where('user_id', '=', who.id)
    .execute();
  await s.app.db
    .updateTable('activations')
    .set({ deactivated_at: now, deactivated_reason: 'seat_removed' })
    .where('license_id', '=', org.license.id)
    .where('activated_by', '=', who.id)
    .where('deactivated_at', 'is', null)
    .execute();
}

/** POST /organisations/{id}/seat/activate: the signed-in member's machine on their seat. */
export const activateSeat = (
  s: TestServer,
  token: string,
  organisationId: string,
  hardwareId: string,
  device: {
    device_name?: string;
    platform?: string;
    app_version?: string;
    components?: FingerprintComponents;
  } = {},
) =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/seat/activate`,
    token,
    body: { hardware_id: hardwareId, ...device },
  });

/** The account's membership row in the organisation, if it has one. */
export const membershipOf = (s: TestServer, organisationId: string, userId: string) =>
  s.app.db
    .selectFrom('organisation_members')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
