import { expect, it } from 'vitest';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { member, type Member } from '../helpers/license-helpers.js';
import {
  buyForOrganisation,
  buySeats,
  openOrganisationCheckout,
  organisationWithRoles,
  quoteSeats,
} from '../helpers/organisation-purchase-helpers.js';

// The organisation roles' row of the authorization matrix for buying a plan and seats: the owner,
// its admins and a platform administrator may; a member is refused (403); an outsider is told the
// organisation does not exist (404).

type Role = 'owner' | 'admin' | 'member' | 'outsider' | 'platformAdmin';
const EXPECTED: Record<Role, { checkout: number; quote: number; buy: number }> = {
  owner: { checkout: 201, quote: 200, buy: 200 },
  admin: { checkout: 201, quote: 200, buy: 200 },
  platformAdmin: { checkout: 201, quote: 200, buy: 200 },
  member: { checkout: 403, quote: 403, buy: 403 },
  outsider: { checkout: 404, quote: 404, buy: 404 },
};

describeOnEveryDatabase('organisations: who may buy the plan and seats', (server) => {
  it.each(Object.keys(EXPECTED) as Role[])('answers the %s as the matrix says', async (role) => {
    const s = server();
    const org = await organisationWithRoles(s);
    const callers: Record<Role, Member> = {
      owner: org.owner,
      admin: org.admin,
      member: org.member,
      outsider: await member(s),
      platformAdmin: await member(s, 'admin'),
    };
    const caller = callers[role];
    const expected = EXPECTED[role];
    const opened = await openOrganisationCheckout(s, caller, { organisation_id: org.id, seats: 2 });
    expect(opened.statusCode, opened.body).toBe(expected.checkout);

    const other = await organisationWithRoles(s, 'Other');
    const otherCallers: Record<Role, Member> = {
      ...callers,
      owner: other.owner,
      admin: other.admin,
      member: other.member,
    };
    await buyForOrganisation(s, other.owner, other.id, 2);
    const who = otherCallers[role];
    const quote = await quoteSeats(s, who, other.id, 3);
    expect(quote.statusCode, quote.body).toBe(expected.quote);
    const bought = await buySeats(s, who, other.id, 3);
    expect(bought.statusCode, bought.body).toBe(expected.buy);
  });
});
