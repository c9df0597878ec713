import { expect } from 'vitest';
import {
  type Subscription,
  type SubscriptionActivation,
  type SubscriptionCheckout,
  subscriptionActivationSchema,
  subscriptionCheckoutSchema,
  subscriptionSchema,
  verifySubscriptionRequestSchema,
} from '../../../src/shared/api/subscriptions.js';
import type { TestServer } from '../../support/test-server.js';
import { type Member, planByCode, signInAgain } from './license-helpers.js';

/** Shared set-up of the subscription suites (tests/server/billing/subscriptions-*.test.ts). */

export const DAY = 24 * 60 * 60 * 1000;

/** What a checkout asks for besides the plan: a coupon, or the plan's trial (from a machine). */
export interface CheckoutOptions {
  couponCode?: string;
  trial?: boolean;
  hardwareId?: string;
}

/**
 * Opens a checkout of a plan and pays it in the sandbox (with a trial: authorises the card): what
 * the page then sends to verify.
 */
export async function paidCheckout(
  s: TestServer,
  who: Member,
  planCode = 'pro-monthly',
  options: CheckoutOptions = {},
) {
  const plan = await planByCode(s, planCode);
  const opened = await s.api({
    method: 'POST',
    path: '/subscriptions',
    token: who.token,
    body: {
      plan_id: plan.id,
      ...(options.couponCode ? { coupon_code: options.couponCode } : {}),
      ...(options.trial ? { trial: true } : {}),
      ...(options.hardwareId ? { hardware_id: options.hardwareId } : {}),
    },
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
  return { checkout, answer: verifySubscriptionRequestSchema.parse(paid.json()) };
}

/** Subscribes to a plan in the sandbox: open, pay in the sandbox checkout, verify. */
export async function subscribe(
  s: TestServer,
  who: Member,
  planCode = 'pro-monthly',
  options: CheckoutOptions = {},
): Promise<SubscriptionActivation & { checkout: SubscriptionCheckout }> {
  const { checkout, answer } = await paidCheckout(s, who, planCode, options);
  const verified = await s.api({
    method: 'POST',
    path: '/subscriptions/verify',
    token: who.token,
    body: answer,
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return { ...subscriptionActivationSchema.parse(verified.json()), checkout };
}

/** Sends a subscription request and returns the subscription it answers (200 expected). */
export async function subscriptionCall(
  s: TestServer,
  who: Member,
  method: 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<Subscription> {
  const response = await s.api({ method, path, token: who.token, ...(body === undefined ? {} : { body }) });
  expect(response.statusCode, response.body).toBe(200);
  return subscriptionSchema.parse(response.json());
}

/** Moves the clock on and signs the member in again (their access token would have expired). */
export async function later(s: TestServer, who: Member, milliseconds: number): Promise<void> {
  s.clock.advance(milliseconds);
  await signInAgain(s, who);
}

export const subscriptionRow = (s: TestServer, id: string) =>
  s.app.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const licenseRow = (s: TestServer, id: string) =>
  s.app.db.selectFrom('licenses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The subscription's charges in the order they were made. */
export const chargesOf = (s: TestServer, subscriptionId: string) =>
  s.app.db
    .selectFrom('payments')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at')
    .execute();
