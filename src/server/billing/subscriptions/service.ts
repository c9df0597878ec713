import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type {
  cancelSubscriptionRequestSchema,
  createSubscriptionRequestSchema,
  CardChangeCheckout,
  PlanChangeQuote,
  Subscription,
  SubscriptionActivation,
  SubscriptionCheckout,
  SubscriptionDetail,
  VerifySubscriptionRequest,
} from '../../../shared/api/subscriptions.js';
import type { Clock } from '../../platform/clock.js';
import { randomToken } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { PlanRow, SandboxCard, SubscriptionRow, UserRow } from '../../platform/db/tables.js';
import type { BillingEvents, CancelledMoney } from '../events.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { chargeSummaryOf } from '../invoices/charge-summary.js';
import {
  assertManages,
  assertRenewable,
  endLicensePause,
  endWithSubscription,
  findLicenseById,
  findOrganisationLicense,
  licensesOfUser,
  organisationAccess,
  toLicense,
  cardTrialRefusal,
} from '../../licensing/index.js';
import type { PaymentProvider } from '../payments/provider.js';
import { toPayment } from '../payments/repository.js';
import type { SandboxPaymentProvider } from '../payments/sandbox-provider.js';
import {
  type CouponsService,
  findOfferedPlanByIdOrCode,
  findPlanIn,
  planInCurrency,
} from '../../catalogue/index.js';
import { planForBuyer } from '../payments/buyer-currency.js';
import { periodOfCycle, type RecurringInterval } from './billing-periods.js';
import type { SubscriptionCharges } from './charges.js';
import type { SubscriptionLifecycle } from './lifecycle.js';
import { createCardChanges } from './card-change.js';
import {
  cardTrialEnd,
  couponNotWithTrial,
  createCardTrials,
  inCardTrial,
  trialPlanChangeRefused,
} from './card-trials.js';
import { checkCheckoutSignature } from './checkout-signature.js';
import { pendingSubscriptionRow } from './new-subscription.js';
import { createPlanChanges } from './plan-change.js';
import { CANCEL_REFUND_REASON, cancelNowRefund, cancelRefundId } from './cancel-refund.js';
import { CREDIT_REFUND_REASON, creditRefundId, creditRefunds } from './credit-refund.js';
import { assertNoLifetimeOverlap } from './lifetime-overlap.js';
import { alreadySubscribed, duplicateRefundId, duplicateRefundReason } from './duplicates.js';
import {
  createProviderClosing,
  type RefundCredit,
  type ReserveCredit,
  withinStopNotice,
} from './provider-closing.js';
import { createProviderSubscriptions, TOTAL_CYCLES } from './provider-plans.js';
import { LIVE, subscriptionNotFound } from './refusals.js';
import { createSandboxControls } from './sandbox-controls.js';
import { createPauses, type PauseEffects, pauseOf } from './pause.js';
import {
  chargesOfSubscription,
  findLiveSubscriptionIdOfOrganisation,
  findOwnSubscription,
  findSubscription,
  findSubscriptionByProviderId,
  insertSubscription,
  lockSubscription,
  subscriptionsOfUser,
  updateSubscription,
} from './repository.js';
import { SANDBOX_PAYMENT_METHOD } from './sandbox-card.js';

type CancelRequest = z.output<typeof cancelSubscriptionRequestSchema>;
type CreateRequest = z.output<typeof createSubscriptionRequestSchema>;

/** What else happens on a customer's change: mails. Runs in the same transaction. */
export interface SubscriptionEffects {
  cancelled?(trx: DbOrTransaction, subscription: SubscriptionRow, money: CancelledMoney): Promise<void>;
  /** A cancellation at period end was taken back. */
  resumed?(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<void>;
  /** A pause was asked for, and a pause ended early (the lifecycle's effects tell one ended on time). */
  pause?: PauseEffects;
}

/** Records who paused or resumed, in the transaction of the change (the security log). */
export type PauseAudit = (trx: DbOrTransaction, subscription: SubscriptionRow) => Promise<void>;

/** A refund reserved in a cancellation's transaction, asked of the provider after it commits. */
interface ReservedRefund {
  kind: 'period' | 'credit';
  paymentId: string;
  amountMinor: number;
  currency: string;
  reason: string;
  refundId: string;
}

const sumOf = (refunds: readonly ReservedRefund[]) =>
  refunds.reduce((sum, refund) => sum + refund.amountMinor, 0);

export interface SubscriptionsServiceDeps {
  db: Db;
  clock: Clock;
  provider: PaymentProvider | SandboxPaymentProvider;
  /** The currencies the payment account takes (PAYMENT_CURRENCIES). */
  currencies: readonly string[];
  charges: SubscriptionCharges;
  lifecycle: SubscriptionLifecycle;
  /** Announces what billing grants of licensing's (a card trial's license). */
  events: BillingEvents;
  effects?: SubscriptionEffects;
  /** Redeems coupons given at checkout. */
  coupons: CouponsService;
  /** Refunds a replaced subscription's credit (Razorpay plan changes), and what is reserved below. */
  refundCredit: RefundCredit;
  /** Reserves a refund in a transaction: a cancellation now's unused period. */
  reserveCredit: ReserveCredit;
  log: FastifyBaseLogger;
}

const planUnavailable = () => notFound('plan_not_found', 'This plan is not available');

const isSandbox = (provider: SubscriptionsServiceDeps['provider']): provider is SandboxPaymentProvider =>
  provider.sandbox;

function recurring(plan: PlanRow): RecurringInterval | undefined {
  return plan.billing_interval === 'month' || plan.billing_interval === 'year'
    ? plan.billing_interval
    : undefined;
}

/** The customer's side of subscriptions: subscribe, see, cancel, resume, change plan, pay. */
export function createSubscriptionsService({
  db,
  clock,
  provider,
  currencies,
  charges,
  lifecycle,
  events,
  effects = {},
  coupons,
  refundCredit,
  reserveCredit,
  log,
}: SubscriptionsServiceDeps) {
  /** The subscription's plan at its price in the currency the subscription is charged in. */
  async function planOf(row: SubscriptionRow): Promise<PlanRow> {
    const plan = await findPlanIn(db, row.plan_id, row.currency);
    if (!plan)
      throw new Error(`plan ${row.plan_id} of subscription ${row.id} has no price in ${row.currency}`);
    return plan;
  }

  async function toSubscription(row: SubscriptionRow): Promise<Subscription> {
    const plan = await planOf(row);
    const interval = recurring(plan) ?? 'month';
    const charging =
      (row.status === 'active' && row.cancel_at_period_end === 0) ||
      row.status === 'past_due' ||
      row.status === 'suspended' ||
      row.status === 'paused';
    // Past due: the next retry (or the end of grace); suspended: due now, until paid; paused, or
    // a pause asked for: when the pause ends.
    const nextAt =
      row.status === 'past_due'
        ? (row.next_retry_at ?? row.grace_ends_at)
        : row.status === 'suspended'
          ? clock.now().toISOString()
          : (row.pause_resumes_at ?? row.current_period_end);
    return {
      id: row.id,
      provider_subscription_id: row.provider_subscription_id,
      provider: row.provider,
      sandbox: row.provider === 'sandbox',
      status: row.status,
      plan: {
        id: plan.id,
        code: plan.code,
        name: plan.name,
        billing_interval: interval,
        price_minor: Number(plan.price_minor),
        currency: plan.currency,
      },
      license_id: row.license_id,
      current_period_start: row.current_period_start,
      current_period_end: row.current_period_end,
      next_charge:
        charging && nextAt
          ? {
              at: nextAt,
              amount_minor: (await charges.pricing.amountOf(db, row, plan, row.cycles + 1)).amountMinor,
              currency: plan.currency,
            }
          : null,
      cancel_at_period_end: row.cancel_at_period_end === 1,
      cancel_requested_at: row.cancel_requested_at,
      ended_at: row.ended_at,
      grace_ends_at: row.grace_ends_at,
      failed_attempts: row.failed_attempts,
      payment_method: row.payment_method,
      sandbox_card: row.sandbox_card,
      credit_minor: row.credit_minor,
      cancel_credit_refund_minor: LIVE.includes(row.status)
        ? (await creditRefunds(db, row, provider.name)).refundMinor
        : 0,
      cancel_now_refund_minor: (await cancelNowRefund(db, row, clock.now()))?.amountMinor ?? 0,
      trial_ends_at: row.trial_ends_at,
      pause: pauseOf(row),
      created_at: row.created_at,
    };
  }

  /**
   * Asks the provider for a refund reserved with a change that just committed; one it refuses or
   * does not answer stays pending and the scheduler asks again (refunds.ts, retryPending).
   */
  async function refundReserved(input: Parameters<RefundCredit>[0]): Promise<void> {
    await refundCredit(input).catch((error: unknown) =>
      log.warn({ err: error, refundId: input.refundId }, 'a refund failed; retried later'),
    );
  }

  async function own(user: UserRow, id: string): Promise<SubscriptionRow> {
    const row = await findOwnSubscription(db, user.id, id);
    if (!row) throw subscriptionNotFound();
    return row;
  }

  /** The offered monthly or yearly plan at its price in `currency` (null: its own), or why it cannot be subscribed to. */
  async function recurringPlan(
    planId: string,
    currency: string | null,
  ): Promise<PlanRow & { billing_interval: RecurringInterval }> {
    const offered = await findOfferedPlanByIdOrCode(db, planId);
    if (!offered) throw planUnavailable();
    const interval = recurring(offered);
    if (!interval || offered.price_minor <= 0)
      throw conflict(
        'plan_not_recurring',
        `${offered.name} is not billed monthly or yearly: buy it once on the Purchase page instead`,
      );
    const plan = await planInCurrency(db, offered, currency);
    if (!plan)
      throw conflict(
        'currency_not_offered',
        `${offered.name} is not sold in ${currency}, the currency this subscription is charged in`,
      );
    refuseUntakenCurrency(plan);
    return { ...plan, billing_interval: interval };
  }

  function refuseUntakenCurrency(plan: PlanRow): void {
    if (!currencies.includes(plan.currency))
      throw conflict(
        'currency_not_supported',
        `${plan.name} is priced in ${plan.currency}, but payments here are taken in ${currencies.join(', ')}`,
      );
  }

  /**
   * Who a checkout buys for: a seat-based plan is bought for an organisation, with its seats, by its
   * owner or an admin, once (a second live subscription would issue a second license); any other
   * plan for the caller alone.
   */
  async function buyerOrganisation(
    user: UserRow,
    plan: PlanRow,
    body: CreateRequest,
  ): Promise<{ id: string; seats: number } | undefined> {
    if (plan.seat_based !== 1) {
      if (body.organisation_id !== undefined || body.seats !== undefined)
        throw badRequest(
          'plan_not_seat_based',
          `${plan.name} is not sold per seat: buy it for yourself, without an organization or seats`,
        );
      return undefined;
    }
    if (body.organisation_id === undefined)
      throw badRequest(
        'organisation_required',
        `${plan.name} is priced per seat and sold to organizations: choose the organization it is for`,
      );
    if (body.seats === undefined)
      throw badRequest('seats_required', `Choose how many seats of ${plan.name} to buy`);
    const access = await organisationAccess(db, body.organisation_id, user);
    assertManages(access);
    const { organisation } = access;
    const live = await findLiveSubscriptionIdOfOrganisation(db, organisation.id);
    const license = await findOrganisationLicense(db, organisation.id);
    if (live || (license && (license.expires_at === null || license.expires_at > clock.now().toISOString())))
      throw conflict(
        'organisation_already_subscribed',
        `${organisation.name} already has a subscription: buy more seats on its page instead`,
      );
    return { id: organisation.id, seats: body.seats };
  }

  const providers = createProviderSubscriptions({ db, clock, provider, log });
  const closing = createProviderClosing({ db, clock, providers, refundCredit, log });
  const planChanges = createPlanChanges({ db, clock, charges, recurringPlan, providers });

  /** What Checkout opens with for a pending subscription; `amount` is its first charge. */
  const checkoutFor = async (
    user: UserRow,
    row: SubscriptionRow,
    amount: number,
  ): Promise<SubscriptionCheckout> => ({
    subscription: await toSubscription(row),
    key_id: provider.keyId,
    subscription_id: row.provider_subscription_id,
    amount,
    currency: (await planOf(row)).currency,
    sandbox: provider.sandbox,
    prefill: { email: user.email, ...(user.full_name ? { name: user.full_name } : {}) },
  });
  const cardChanges = createCardChanges({ db, clock, provider, providers });
  const cardTrials = createCardTrials({ db, clock, events, closing, log });
  const sandbox = createSandboxControls({ db, clock, provider, charges, lifecycle });
  const pauses = createPauses({ db, clock, providers, ...(effects.pause ? { effects: effects.pause } : {}) });
  const endPause = (row: SubscriptionRow, audit?: PauseAudit) =>
    pauses.end(row, (trx, paused) => lifecycle.resumePaused(trx, paused, true), audit);
  const byAnyId = async (id: string): Promise<SubscriptionRow> => {
    const row = (await findSubscription(db, id)) ?? (await findSubscriptionByProviderId(db, id));
    if (!row) throw subscriptionNotFound();
    return row;
  };

  /**
   * Cancels at the end of the paid period (the license runs to it; no further charge), or now
   * (the license ends now, and the unused part of the paid period is refunded). A subscription past
   * due has no paid period left: it ends now. Either way the credit kept from a move to a cheaper
   * plan is refunded with credit notes (credit-refund.ts), as `cancel_credit_refund_minor` said.
   */
  async function cancelRow(
    row: SubscriptionRow,
    body: CancelRequest,
    audit?: (trx: DbOrTransaction, cancelled: SubscriptionRow) => Promise<void>,
  ): Promise<Subscription> {
    if (!LIVE.includes(row.status))
      throw conflict('subscription_ended', 'This subscription has already ended');
    const now = clock.now().toISOString();
    const atPeriodEnd = (body.at ?? 'period_end') === 'period_end' && row.status === 'active';
    // The months of updates a renewal charge bought are the customer's to keep, so there is no
    // unused part of them to refund: such a subscription stops at the end of its period.
    if (!atPeriodEnd && row.status === 'active' && (await planOf(row)).renews_updates_of !== null)
      throw conflict(
        'cancel_at_period_end_only',
        'Update renewals are canceled at the end of the period they paid for, and the updates it bought stay yours. Cancel at period end instead.',
      );
    if (atPeriodEnd && row.cancel_at_period_end === 1) return toSubscription(row);
    // Razorpay is told at once of a cancellation now, and of one at period end only a day before
    // that end (the scheduler does it), so that until then it can be taken back. The provider
    // first: a cancellation it refused must not read as done here. A card trial is stopped there
    // at once whichever was asked: nothing was paid, so there is no period to run to.
    const stopAtProvider =
      row.provider !== 'sandbox' && (inCardTrial(row) || !atPeriodEnd || withinStopNotice(row, clock.now()));
    if (stopAtProvider)
      await providers.call((gateway) => gateway.cancelSubscription(row.provider_subscription_id, false));
    const moved = await db.transaction().execute(async (trx) => {
      // Under the row's lock, read again: of two cancellations at once, the second sees the first.
      await lockSubscription(trx, row.id);
      const current = await findSubscription(trx, row.id);
      if (!current || !LIVE.includes(current.status)) return undefined;
      // Still on its card trial under the lock (the first charge, which takes the same lock, has
      // not been made): it ends now and costs nothing; the trial license runs to the trial's end.
      if (inCardTrial(current)) {
        const ended = await updateSubscription(
          trx,
          row.id,
          {
            status: 'cancelled',
            ended_at: now,
            cancel_requested_at: now,
            ...(stopAtProvider ? { provider_closed_at: now } : {}),
            updated_at: now,
          },
          { version: current.version },
        );
        if (!ended) throw new Error(`subscription ${row.id} changed under its lock`);
        await effects.cancelled?.(trx, ended, {});
        await audit?.(trx, ended);
        return { changed: ended, refunds: [] };
      }
      if (atPeriodEnd && current.cancel_at_period_end === 1) return { changed: current, refunds: [] };
      // Ended now: the unused part of the paid period goes back, reserved with the cancellation.
      const owed = atPeriodEnd ? undefined : await cancelNowRefund(trx, current, clock.now());
      const refunds: ReservedRefund[] = [];
      if (owed)
        refunds.push({
          kind: 'period',
          paymentId: owed.payment.id,
          currency: owed.payment.currency,
          reason: CANCEL_REFUND_REASON,
          refundId: cancelRefundId(row.id),
          amountMinor: await reserveCredit(trx, {
            paymentId: owed.payment.id,
            amountMinor: owed.amountMinor,
            reason: CANCEL_REFUND_REASON,
            refundId: cancelRefundId(row.id),
          }),
        });
      // The credit kept from a move to a cheaper plan would be taken off charges that now never
      // come: it goes back too, from the charges that paid it. What none can take stays on the row.
      const credit = await creditRefunds(trx, current, provider.name);
      for (const [index, share] of credit.shares.entries()) {
        const refundId = creditRefundId(row.id, current.version, index + 1);
        refunds.push({
          kind: 'credit',
          paymentId: share.payment.id,
          currency: share.payment.currency,
          reason: CREDIT_REFUND_REASON,
          refundId,
          amountMinor: await reserveCredit(trx, {
            paymentId: share.payment.id,
            amountMinor: share.amountMinor,
            reason: CREDIT_REFUND_REASON,
            refundId,
          }),
        });
      }
      const creditRefunded = sumOf(refunds.filter((refund) => refund.kind === 'credit'));
      const changed = await updateSubscription(
        trx,
        row.id,
        {
          ...(atPeriodEnd
            ? { cancel_at_period_end: 1, cancel_requested_at: now }
            : { status: 'cancelled', ended_at: now, cancel_requested_at: now, next_retry_at: null }),
          ...(stopAtProvider ? { provider_closed_at: now } : {}),
          ...(creditRefunded > 0 ? { credit_minor: current.credit_minor - creditRefunded } : {}),
          updated_at: now,
        },
        { version: current.version },
      );
      if (!changed) throw new Error(`subscription ${row.id} changed under its lock`);
      if (!atPeriodEnd && row.license_id) {
        // Ended while paused: the license's paid time ended with the period before the pause.
        if (current.status === 'paused') await endLicensePause(trx, row.license_id, undefined, now);
        await endWithSubscription(trx, row.license_id, now, now);
      }
      const planCurrency = changed.currency ?? (await planOf(changed)).currency;
      const periodRefunded = sumOf(refunds.filter((refund) => refund.kind === 'period'));
      await effects.cancelled?.(trx, changed, {
        ...(periodRefunded > 0 ? { refund: { amountMinor: periodRefunded, currency: planCurrency } } : {}),
        ...(creditRefunded > 0
          ? { creditRefund: { amountMinor: creditRefunded, currency: planCurrency } }
          : {}),
        ...(changed.credit_minor > 0
          ? { creditKept: { amountMinor: changed.credit_minor, currency: planCurrency } }
          : {}),
      });
      await audit?.(trx, changed);
      return { changed, refunds };
    });
    if (!moved) throw conflict('subscription_ended', 'This subscription has already ended');
    // Each reserved refund is asked of the provider after the commit (a failure is retried later).
    for (const refund of moved.refunds)
      if (refund.amountMinor > 0)
        await refundReserved({
          paymentId: refund.paymentId,
          amountMinor: refund.amountMinor,
          reason: refund.reason,
          refundId: refund.refundId,
        });
    return toSubscription(moved.changed);
  }

  /** A card trial's verified checkout: the trial started (once), with its license and no charge. */
  async function verifyTrial(
    user: UserRow,
    row: SubscriptionRow,
    plan: PlanRow,
  ): Promise<SubscriptionActivation> {
    const after = await cardTrials.start(row, plan);
    if (after.status === 'cancelled')
      throw conflict('subscription_ended', 'This subscription has already ended');
    const licenseId =
      after.license_id ??
      (await licensesOfUser(db, user.id)).find((license) => license.subscription_id === after.id)?.id;
    const license = licenseId ? await findLicenseById(db, licenseId) : undefined;
    if (!license) throw new Error(`card trial ${row.id} was verified without a license`);
    return {
      subscription: await toSubscription(after),
      license: await toLicense(db, license, clock.now()),
      charge: null,
    };
  }

  return {
    toSubscription,

    /** Opens a subscription to a monthly or yearly plan; Checkout then authorises its first charge. */
    async create(user: UserRow, body: CreateRequest): Promise<SubscriptionCheckout> {
      const offered = await recurringPlan(body.plan_id, null);
      const organisation = await buyerOrganisation(user, offered, body);
      // The plan at its price in the buyer's currency: every charge of the subscription is in it.
      const plan = {
        ...(await planForBuyer(db, offered, {
          userId: user.id,
          organisationId: organisation?.id,
          requested: body.currency,
        })),
        billing_interval: offered.billing_interval,
      };
      refuseUntakenCurrency(plan);
      if (!organisation) {
        const live = (await subscriptionsOfUser(db, user.id)).find(
          (row) => row.plan_id === plan.id && LIVE.includes(row.status),
        );
        if (live)
          throw conflict(
            'already_subscribed',
            `You already subscribe to ${plan.name}. Change its plan or payment method on the Subscriptions page.`,
          );
        await assertNoLifetimeOverlap(db, user, plan, body.confirm_lifetime_overlap === true);
        await assertRenewable(db, user.id, plan);
      }
      if (body.hardware_id !== undefined && body.trial !== true)
        throw badRequest(
          'hardware_id_without_trial',
          'hardware_id names the machine of a trial: send it with trial: true, or leave it out',
        );
      // A card trial: the free trials' rules first (the plan offers one; no earlier trial of this
      // account, e-mail address or machine), so the refusal comes before the card is asked for.
      const trialEndsAt = body.trial === true ? cardTrialEnd(plan, clock.now()) : undefined;
      if (trialEndsAt) {
        const refused = await cardTrialRefusal(
          db,
          clock,
          { user, hardwareId: body.hardware_id ?? null },
          plan,
        );
        if (refused) throw refused;
      }
      const coupon = body.coupon_code ? await coupons.check(user, body.coupon_code, plan) : undefined;
      // The trial's first charge is a Razorpay plan's own, which cannot take a first-charge-only
      // discount apart; the sandbox refuses it too, so both behave alike.
      if (trialEndsAt && coupon?.coupon.duration === 'once') throw couponNotWithTrial(coupon.coupon);
      const id = randomUUID();
      const priced = {
        coupon_id: coupon?.coupon.id ?? null,
        credit_minor: 0,
        user_id: user.id,
        organisation_id: organisation?.id ?? null,
      };
      // Razorpay's plan is priced for one seat and charged `quantity` times (cycle-amount.ts).
      const seats = organisation?.seats ?? 1;
      // Razorpay discounts every charge through a plan at the lower price. A first-charge-only discount
      // is paid upfront at authorisation, with the plan's own charges starting a period later.
      const firstApart = !isSandbox(provider) && coupon?.coupon.duration === 'once';
      const providerSubscriptionId = isSandbox(provider)
        ? `sub_sandbox_${randomToken(12)}`
        : await providers.call(async (gateway) =>
            gateway.createSubscription({
              providerPlanId: await providers.planFor(
                gateway,
                plan,
                // Every charge's amount: the coupon (every charge) and the tax (when exclusive) included.
                await charges.pricing.grossOf(db, priced, plan, 2),
              ),
              totalCount: TOTAL_CYCLES[plan.billing_interval],
              notes: {
                subscription_id: id,
                plan_id: plan.id,
                user_id: user.id,
                ...(organisation ? { organisation_id: organisation.id } : {}),
              },
              ...(organisation ? { quantity: seats } : {}),
              ...(firstApart
                ? {
                    upfront: {
                      amount: await charges.pricing.grossOf(db, { ...priced, seats }, plan, 1),
                      currency: plan.currency,
                      name: `${plan.name}: first ${plan.billing_interval} (coupon ${coupon.coupon.code})`,
                      startAt: Math.floor(
                        Date.parse(
                          periodOfCycle(
                            { anchorAt: clock.now().toISOString(), anchorCycle: 0 },
                            plan.billing_interval,
                            1,
                          ).end,
                        ) / 1000,
                      ),
                    },
                  }
                : {}),
              ...(trialEndsAt ? { trialEndsAt: Math.floor(Date.parse(trialEndsAt) / 1000) } : {}),
            }),
          );
      const row = pendingSubscriptionRow({
        id,
        userId: user.id,
        planId: plan.id,
        currency: plan.currency,
        provider: provider.name,
        providerSubscriptionId,
        couponId: coupon?.coupon.id ?? null,
        ...(organisation ? { organisation } : {}),
        now: clock.now().toISOString(),
        providerCycleOffset: firstApart ? 1 : 0,
        ...(trialEndsAt ? { trial: { endsAt: trialEndsAt, hardwareId: body.hardware_id ?? null } } : {}),
      });
      await db.transaction().execute(async (trx) => {
        await insertSubscription(trx, row);
        // Counted with the subscription, so of two checkouts racing for a coupon's last use one gets it.
        if (body.coupon_code)
          await coupons.redeem(trx, { code: body.coupon_code, user, plan, subscriptionId: id });
      });
      // A trial's checkout only authorises the card: nothing is charged today.
      return checkoutFor(
        user,
        row,
        trialEndsAt ? 0 : (await charges.pricing.amountOf(db, row, plan, 1)).amountMinor,
      );
    },

    /**
     * Checks Checkout's signature against OUR subscription and settles the first charge once; a replay
     * of the same verified payment answers the same subscription and license.
     */
    async verify(
      user: UserRow,
      body: VerifySubscriptionRequest,
      meta: RequestMeta,
    ): Promise<SubscriptionActivation> {
      const row = await own(user, body.razorpay_subscription_id);
      await checkCheckoutSignature({ db, clock, provider }, user, row, body, meta);
      const plan = await planOf(row);
      // A card trial: the authorised card starts the trial; nothing is charged until its end.
      if (row.trial_ends_at !== null) return verifyTrial(user, row, plan);
      const settled = await db.transaction().execute(async (trx) => {
        await updateSubscription(trx, row.id, { status: 'active' }, { statuses: ['pending'] });
        return charges.settle(trx, {
          kind: 'cycle',
          report: {
            subscriptionId: row.id,
            cycle: 1,
            providerPaymentId: body.razorpay_payment_id,
            amountMinor: (await charges.pricing.amountOf(trx, row, plan, 1)).amountMinor,
            currency: plan.currency,
            ...(row.provider === 'sandbox' ? { paymentMethod: SANDBOX_PAYMENT_METHOD } : {}),
          },
          rows: { plan },
        });
      });
      const after = await findSubscription(db, row.id);
      // A second subscription to a plan already subscribed (paid now, or in a replay of that verify,
      // or reported first by the webhook): refused, its payment refunded.
      if (after?.license_id === null && after.status === 'cancelled') {
        const payment = settled.payment;
        if (settled.outcome === 'refused') {
          await refundReserved({
            paymentId: payment.id,
            amountMinor: Number(payment.amount_minor),
            reason: duplicateRefundReason(plan.name),
            refundId: duplicateRefundId(payment.id),
          });
          // Razorpay is told at once that it charges no more (or by the scheduler's next run).
          await closing
            .close(row.id)
            .catch((error: unknown) =>
              log.warn({ err: error, subscriptionId: row.id }, 'closing a refused subscription failed'),
            );
        }
        throw alreadySubscribed(plan.name, {
          amountMinor: Number(payment.amount_minor),
          currency: payment.currency,
        });
      }
      // The license the charge paid for: the subscription's own, or the perpetual license whose
      // update window an update renewal's charge moved on (such a subscription holds none).
      const licenseId = after?.license_id ?? settled.payment.license_id;
      const license = licenseId ? await findLicenseById(db, licenseId) : undefined;
      if (!after || !license) throw new Error(`subscription ${row.id} was verified without a license`);
      // A plan change's replacement took over: the old subscription is closed at Razorpay now (or,
      // if Razorpay does not answer, by the scheduler's next run).
      if (after.replaces_subscription_id)
        await closing
          .close(after.replaces_subscription_id)
          .catch((error: unknown) =>
            log.warn(
              { err: error, subscriptionId: after.replaces_subscription_id },
              'closing the replaced subscription failed; retried later',
            ),
          );
      const subscription = await toSubscription(after);
      const next = subscription.next_charge;
      return {
        subscription,
        license: await toLicense(db, license, clock.now()),
        charge: await chargeSummaryOf(
          db,
          settled.payment.id,
          next ? { amount_minor: next.amount_minor, at: next.at } : null,
        ),
      };
    },

    async list(user: UserRow): Promise<Subscription[]> {
      return Promise.all((await subscriptionsOfUser(db, user.id)).map(toSubscription));
    },

    async detail(user: UserRow, id: string): Promise<SubscriptionDetail> {
      const row = await own(user, id);
      const history = await chargesOfSubscription(db, row.id);
      return { ...(await toSubscription(row)), charges: history.map(toPayment) };
    },

    /**
     * Cancels at the end of the paid period (the license runs to it; no further charge), or now
     * (the license ends now). A subscription past due has no paid period left: it ends now.
     */
    async cancel(user: UserRow, id: string, body: CancelRequest): Promise<Subscription> {
      return cancelRow(await own(user, id), body);
    },

    /**
     * An administrator's cancellation, by our id or the provider's, with the customer's rules;
     * `audit` records it in the same transaction (nothing is recorded when nothing changed).
     */
    async cancelById(
      id: string,
      body: CancelRequest,
      audit: (trx: DbOrTransaction, cancelled: SubscriptionRow) => Promise<void>,
    ): Promise<Subscription> {
      const row = (await findSubscription(db, id)) ?? (await findSubscriptionByProviderId(db, id));
      if (!row) throw subscriptionNotFound();
      return cancelRow(row, body, audit);
    },

    /**
     * Takes back a cancellation at period end, while the period lasts (on Razorpay, until it was
     * told to stop, a day before the end).
     */
    async resume(user: UserRow, id: string): Promise<Subscription> {
      const row = await own(user, id);
      // Razorpay is told to stop a day before the period ends (provider-closing.ts) and cannot take
      // that back; refusing from then on leaves no moment in which both could happen.
      if (
        row.provider !== 'sandbox' &&
        (row.provider_closed_at !== null || withinStopNotice(row, clock.now()))
      )
        throw conflict(
          'resume_unavailable',
          'Razorpay stops charging a canceled subscription a day before its period ends and cannot take that back: subscribe again when the paid period ends',
        );
      const now = clock.now().toISOString();
      if (row.status !== 'active' || row.cancel_at_period_end !== 1 || (row.current_period_end ?? '') <= now)
        throw conflict(
          'subscription_not_resumable',
          'Only a subscription canceled at the end of a period that has not ended yet can be resumed',
        );
      // The customer's mail is queued with the change: it exists exactly when the change committed.
      const moved = await db.transaction().execute(async (trx) => {
        const changed = await updateSubscription(
          trx,
          row.id,
          { cancel_at_period_end: 0, cancel_requested_at: null, updated_at: now },
          { version: row.version },
        );
        if (changed) await effects.resumed?.(trx, changed);
        return changed;
      });
      if (!moved) throw conflict('subscription_changed', 'The subscription changed meanwhile; look again');
      return toSubscription(moved);
    },

    /**
     * Pauses for `periods` billing periods from the end of the paid period (the license is valid
     * until then); refused (409) unless the subscription is active and paid up, with no pause or
     * cancellation planned.
     */
    async pause(user: UserRow, id: string, periods: number, audit?: PauseAudit): Promise<Subscription> {
      return toSubscription(await pauses.request(await own(user, id), periods, audit));
    },

    /** Resumes a paused subscription now (its next period billed now), or withdraws a pause to come. */
    async unpause(user: UserRow, id: string, audit?: PauseAudit): Promise<Subscription> {
      return toSubscription(await endPause(await own(user, id), audit));
    },

    /** An administrator's pause, by our id or the provider's, with the customer's rules. */
    async pauseById(id: string, periods: number, audit: PauseAudit): Promise<Subscription> {
      return toSubscription(await pauses.request(await byAnyId(id), periods, audit));
    },

    /** An administrator's early resumption (or withdrawal of a pause to come). */
    async unpauseById(id: string, audit: PauseAudit): Promise<Subscription> {
      return toSubscription(await endPause(await byAnyId(id), audit));
    },

    /** Resumes a paused subscription at its provider (the scheduler's, when its pause is over). */
    resumeAtProvider: (row: SubscriptionRow) => pauses.atProvider(row, 'resume'),

    /** What moving to another plan costs now: the unused part of the period credited, in minor units. */
    async quote(user: UserRow, id: string, planId: string): Promise<PlanChangeQuote> {
      const row = await own(user, id);
      if (inCardTrial(row)) throw trialPlanChangeRefused(row);
      return planChanges.quote(row, planId);
    },

    /**
     * Moves to another plan at once: a new period starts now, charged at the new price less the
     * credit. Refused when the quote the customer saw no longer holds (a renewal or another change
     * landed meanwhile), when the card declines, or when the new plan has fewer seats than are in use.
     * On Razorpay the answer is the replacement's checkout instead: paying it makes the change.
     */
    async changePlan(
      user: UserRow,
      id: string,
      body: { plan_id: string; quote_id?: string | undefined; expected_due_now_minor?: number | undefined },
    ): Promise<{ changed: Subscription } | { checkout: SubscriptionCheckout }> {
      const row = await own(user, id);
      if (inCardTrial(row)) throw trialPlanChangeRefused(row);
      const outcome = await planChanges.change(row, body);
      return outcome.kind === 'changed'
        ? { changed: await toSubscription(outcome.subscription) }
        : { checkout: await checkoutFor(user, outcome.replacement, outcome.dueNowMinor) };
    },

    /** Tells Razorpay which subscriptions charge no more (the scheduler's job). */
    closeAtProvider: () => closing.closeDue(),

    completeSandboxCheckout: async (user: UserRow, id: string, outcome: 'pay' | 'decline') =>
      sandbox.completeCheckout(await own(user, id), outcome),

    /** Razorpay: what Checkout opens with to authorise another card for the subscription. */
    openCardChange: async (user: UserRow, id: string): Promise<CardChangeCheckout> =>
      cardChanges.open(user, await own(user, id)),

    /** Razorpay: checks Checkout's answer and shows the new card. */
    confirmCardChange: async (
      user: UserRow,
      id: string,
      answer: VerifySubscriptionRequest,
      meta: RequestMeta,
    ): Promise<Subscription> =>
      toSubscription(await cardChanges.confirm(user, await own(user, id), answer, meta)),

    /** Sandbox: whether the card pays; one that does settles what is outstanding at once. */
    setPaymentMethod: async (user: UserRow, id: string, card: SandboxCard): Promise<Subscription> =>
      toSubscription(await sandbox.setCard(await own(user, id), card)),

    /** Pays what is outstanding now (past due or suspended) instead of waiting for the next retry. */
    payNow: async (user: UserRow, id: string): Promise<Subscription> =>
      toSubscription(await sandbox.payNow(await own(user, id))),

    /** Sandbox: the next renewal (or retry, or end of grace) now; by our id or the provider's, or the owner's. */
    async sandboxAdvance(
      subscriptionId: string,
      options: { user?: UserRow; card?: SandboxCard } = {},
    ): Promise<Subscription> {
      const found = options.user
        ? await own(options.user, subscriptionId)
        : ((await findSubscription(db, subscriptionId)) ??
          (await findSubscriptionByProviderId(db, subscriptionId)));
      if (!found) throw subscriptionNotFound();
      return toSubscription(await sandbox.advance(found, options.card));
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
