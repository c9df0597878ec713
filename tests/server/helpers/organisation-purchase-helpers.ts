import { expect } from 'vitest';
import { organisationSchema, seatQuoteSchema } from '../../../src/shared/api/organisations.js';
import {
  subscriptionActivationSchema,
  subscriptionCheckoutSchema,
  verifySubscriptionRequestSchema,
} from '../../../src/shared/api/subscriptions.js';
import type { TestServer } from '../../support/test-server.js';
import { type Member, member, planByCode } from './license-helpers.js';
import { addMember, createOrganisation } from './organisation-helpers.js';

/** Shared set-up of the suites that buy an organisation's plan and seats (organisation-purchase*). */

export interface TestOrganisation {
  id: string;
  owner: Member;
  /** Accounts by their role in the organisation. */
  admin: Member;
  member: Member;
}

/** An organisation made through the API, with an owner, an admin and a member (no seats yet). */
export async function organisationWithRoles(s: TestServer, name = 'Acme'): Promise<TestOrganisation> {
  const [owner, admin, plain] = [await member(s), await member(s), await member(s)];
  const { id } = await createOrganisation(s, owner, name);
  await addMember(s, id, admin.id, 'admin', { seat: false });
  await addMember(s, id, plain.id, 'member', { seat: false });
  return { id, owner, admin, member: plain };
}

/** Opens a checkout of the Business plan for the organisation (whatever it answers). */
export async function openOrganisationCheckout(
  s: TestServer,
  who: Member,
  body: { organisation_id?: string; seats?: number; coupon_code?: string },
  planCode = 'business-monthly',
) {
  const plan = await planByCode(s, planCode);
  return s.api({
    method: 'POST',
    path: '/subscriptions',
    token: who.token,
    body: { plan_id: plan.id, ...body },
  });
}

/** Buys the Business plan for the organisation in the sandbox: open, pay, verify. */
export async function buyForOrganisation(
  s: TestServer,
  who: Member,
  organisationId: string,
  seats: number,
  options: { couponCode?: string } = {},
) {
  const opened = await openOrganisationCheckout(s, who, {
    organisation_id: organisationId,
    seats,
    ...(options.couponCode ? { coupon_code: options.couponCode } : {}),
  });
  expect(opened.statusCode, opened.body).toBe(201);
  const checkout = subscriptionCheckoutSchema.parse(opened.json());
  const paid = await s.api({
    method: 'POST',
    path: `/payments/sandbox/subscriptions/${checkout.subscription_id}/complete`,
    token: who.token,
    body: { outcome: 'pay' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const verified = await s.api({
    method: 'POST',
    path: '/subscriptions/verify',
    token: who.token,
    body: verifySubscriptionRequestSchema.parse(paid.json()),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return { ...subscriptionActivationSchema.parse(verified.json()), checkout };
}

export const quoteSeats = (s: TestServer, who: Member, organisationId: string, seats: number) =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/seats/quote`,
    token: who.token,
    body: { seats },
  });

export const buySeats = (s: TestServer, who: Member, organisationId: string, seats: number) =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/seats`,
    token: who.token,
    body: { seats },
  });

export function expectQuote(response: Awaited<ReturnType<typeof quoteSeats>>) {
  expect(response.statusCode, response.body).toBe(200);
  return seatQuoteSchema.parse(response.json());
}

export function expectOrganisation(response: Awaited<ReturnType<typeof buySeats>>) {
  expect(response.statusCode, response.body).toBe(200);
  return organisationSchema.parse(response.json());
}

/** Gives members seats by hand (as assigning would), e.g. to fill the organisation. */
export async function seatMembers(s: TestServer, organisationId: string, ...who: Member[]) {
  for (const person of who)
    await s.app.db
      .updateTable('organisation_members')
      .set({ seat_assigned_at: s.clock.now().toISOString() })
      .where('organisation_id', '=', organisationId)
      .where('user_id', '=', person.id)
      .execute();
}
