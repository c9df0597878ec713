import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Invitation, Organisation } from '../../../src/shared/api/organisations.js';
import type { OrganisationRole } from '../../../src/shared/api/organisations.js';
import { issueLicense } from '../../../src/server/licensing/licenses/issue.js';
import type { OutboxMail } from '../../support/outbox.js';
import type { TestServer } from '../../support/test-server.js';
import { type SignedIn, signIn } from './admin-helpers.js';

/** Shared set-up of the organisation suites and the authorization matrix's organisation rows. */

/** Creates an organisation through the API; `owner` becomes its owner. */
export async function createOrganisation(
  s: TestServer,
  owner: SignedIn,
  name = 'Acme Research',
): Promise<Organisation> {
  const response = await s.api({
    method: 'POST',
    path: '/organisations',
    token: owner.token,
    body: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Organisation>();
}

/** Gives the organisation a Business license with `seats` named seats, as buying the plan does. */
export async function giveSeats(s: TestServer, organisationId: string, seats: number): Promise<string> {
  const plan = await s.app.db
    .selectFrom('plans')
    .selectAll()
    .where('code', '=', 'business-monthly')
    .executeTakeFirstOrThrow();
  const owner = await s.app.db
    .selectFrom('organisation_members')
    .select('user_id')
    .where('organisation_id', '=', organisationId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  const license = await issueLicense(s.app.db, s.clock, s.app.events, {
    userId: owner.user_id,
    plan,
    organisation: { id: organisationId, seats },
    maxActivations: seats * plan.max_activations,
  });
  return license.id;
}

/** Puts an account in the organisation directly (no invitation), with a seat unless told otherwise. */
export async function addMember(
  s: TestServer,
  organisationId: string,
  userId: string,
  role: Exclude<OrganisationRole, 'owner'>,
  { seat = true }: { seat?: boolean } = {},
): Promise<void> {
  const now = s.clock.now().toISOString();
  await s.app.db
    .insertInto('organisation_members')
    .values({
      organisation_id: organisationId,
      user_id: userId,
      role,
      seat_assigned_at: seat ? now : null,
      joined_at: now,
    })
    .execute();
}

export const invite = (s: TestServer, by: SignedIn, organisationId: string, email: string, role = 'member') =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/invitations`,
    token: by.token,
    body: { email, role },
  });

/** Invites an address and answers the invitation and the token of the link its mail carries. */
export async function inviteAndReadLink(
  s: TestServer,
  by: SignedIn,
  organisationId: string,
  email: string,
  role = 'member',
): Promise<{ invitation: Invitation; token: string; link: string }> {
  const response = await invite(s, by, organisationId, email, role);
  expect(response.statusCode, response.body).toBe(201);
  const mail = await s.lastMailTo(email.toLowerCase());
  return { invitation: response.json<Invitation>(), ...invitationLinkOf(mail) };
}

/** The link of an invitation mail (`…/invitations/accept#token=…`) and its token. */
export function invitationLinkOf(mail: Pick<OutboxMail, 'subject' | 'text'>): {
  link: string;
  token: string;
} {
  const match = /(https?:\/\/\S+\/invitations\/accept#token=([A-Za-z0-9_%-]+))/.exec(mail.text);
  if (!match?.[1] || !match[2]) throw new Error(`no invitation link in mail "${mail.subject}"`);
  return { link: match[1], token: decodeURIComponent(match[2]) };
}

export const acceptInvitation = (s: TestServer, who: SignedIn, token: string) =>
  s.api({ method: 'POST', path: '/invitations/accept', token: who.token, body: { token } });

/** The accounts of the organisation roles, beside the matrix's platform administrator. */
export interface OrganisationRoleAccounts {
  orgAdmin: SignedIn;
  member: SignedIn;
  /** A member with a seat that the rows about one member act on. */
  target: SignedIn;
}

export const ORGANISATION_CALLERS = ['owner', 'orgAdmin', 'member', 'outsider', 'platformAdmin'] as const;
export type OrganisationCaller = (typeof ORGANISATION_CALLERS)[number];

const roleAccounts = new WeakMap<TestServer, Promise<OrganisationRoleAccounts>>();

/** The accounts that hold roles in each organisation the matrix makes: made once per server, members of many. */
export function organisationRoleAccounts(s: TestServer): Promise<OrganisationRoleAccounts> {
  let accounts = roleAccounts.get(s);
  if (!accounts) {
    accounts = (async () => ({
      orgAdmin: await signIn(s, 'user', 'matrix-org-admin'),
      member: await signIn(s, 'user', 'matrix-org-member'),
      target: await signIn(s, 'user', 'matrix-org-target'),
    }))();
    roleAccounts.set(s, accounts);
  }
  return accounts;
}

/**
 * A fresh organisation of `owner`'s with 5 seats: the role accounts as admin, member and target
 * (each with a seat), and a pending invitation. Each call makes a new one, so a row that changes
 * it (removes a member, transfers ownership) never changes what the next caller finds.
 */
export async function organisationForRoles(
  s: TestServer,
  owner: SignedIn,
  accounts: OrganisationRoleAccounts,
): Promise<{ organisationId: string; invitationId: string }> {
  const organisation = await createOrganisation(s, owner, 'Matrix role organisation');
  await giveSeats(s, organisation.id, 5);
  await addMember(s, organisation.id, accounts.orgAdmin.id, 'admin');
  await addMember(s, organisation.id, accounts.member.id, 'member');
  await addMember(s, organisation.id, accounts.target.id, 'member');
  const invited = await invite(s, owner, organisation.id, `invited-${organisation.id}@example.com`);
  expect(invited.statusCode, invited.body).toBe(201);
  return { organisationId: organisation.id, invitationId: invited.json<Invitation>().id };
}

/** Asserts the status and error code of an answer. */
export function expectRefusal(response: LightMyRequestResponse, status: number, code: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ code: string }>().code).toBe(code);
}

/** What an organisation row of the authorization matrix acts on. */
export interface OrganisationContext {
  s: TestServer;
  owner: SignedIn;
  accounts: OrganisationRoleAccounts;
  organisationId: string;
  invitationId: string;
}

/** A fresh organisation owned by `owner`, with the role accounts in it (see {@link organisationForRoles}). */
export async function newOrganisationContext(s: TestServer, owner: SignedIn): Promise<OrganisationContext> {
  const accounts = await organisationRoleAccounts(s);
  return { s, owner, accounts, ...(await organisationForRoles(s, owner, accounts)) };
}

/** The link token of a new invitation of `email` into a fresh organisation that has seats. */
export async function invitationTokenFor(s: TestServer, email: string): Promise<string> {
  const { target } = await organisationRoleAccounts(s);
  const organisation = await createOrganisation(s, target, 'Matrix inviting organisation');
  await giveSeats(s, organisation.id, 2);
  return (await inviteAndReadLink(s, target, organisation.id, email)).token;
}
