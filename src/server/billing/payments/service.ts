import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type {
  CheckoutFailure,
  CreateOrderRequest,
  Payment,
  PaymentConfig,
  PaymentOrder,
  paymentHistoryQuerySchema,
  PaymentVerification,
  VerifyPaymentRequest,
} from '../../../shared/api/payments.js';
import type { Paged } from '../../../shared/api/paging.js';
import { BASE_PLAN_CODE } from '../../../shared/api/plans.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { chargeSummaryOf } from '../invoices/charge-summary.js';
import type { Insertable } from 'kysely';
import type { LicenseRow, PaymentRow, PaymentsTable, UserRow } from '../../platform/db/tables.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { assertRenewable, toLicense } from '../../licensing/index.js';
import type { InvoiceSettings } from '../invoices/settings.js';
import { accountPricingTax } from '../invoices/buyer-treatment.js';
import { chargeForPrice } from '../invoices/tax.js';
import { type CouponsService, findOfferedPlanByIdOrCode } from '../../catalogue/index.js';
import { planForBuyer } from './buyer-currency.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import type { Settlement } from '../settlement/settle.js';
import { type PaymentProvider, PaymentProviderError, providerUnavailable } from './provider.js';
import {
  dismissOrder,
  findOwnPayment,
  findPaymentById,
  insertPayment,
  markPaymentFailed,
  paymentHistory,
  paymentView,
  type PaymentWithPlan,
} from './repository.js';
import type { SandboxPaymentProvider } from './sandbox-provider.js';

type HistoryQuery = z.output<typeof paymentHistoryQuerySchema>;

export interface PaymentsServiceDeps {
  db: Db;
  clock: Clock;
  /** Billing's one settle: a verified order's payment goes through it. */
  settlement: Settlement;
  provider: PaymentProvider | SandboxPaymentProvider;
  /** The currencies the payment account takes (PAYMENT_CURRENCIES), its home one first. */
  currencies: readonly string[];
  /** The tax an order's price is charged with. */
  invoicing: InvoiceSettings;
  /** Redeems coupons given at checkout. */
  coupons: CouponsService;
  /** An order left unpaid this long reads as expired (CHECKOUT_EXPIRY_MINUTES). */
  checkoutExpiryMinutes: number;
  log: FastifyBaseLogger;
}

/** The moment before which an unpaid order counts as expired. */
export const expiredBefore = (now: Date, checkoutExpiryMinutes: number): string =>
  new Date(now.getTime() - checkoutExpiryMinutes * 60_000).toISOString();

export const SANDBOX_DECLINE_REASON = 'Payment declined in the sandbox checkout (no money moved)';

const paymentNotFound = () => notFound('payment_not_found', 'Payment not found');
const planUnavailable = () => notFound('plan_not_found', 'This plan is not available');
const paidByOther = () =>
  conflict(
    'payment_already_completed',
    'This order is already paid by another payment; nothing more was charged to this license',
  );

/** A sandbox operation on a server that takes real payments: the route does not exist there. */
const sandboxOff = () =>
  notFound(
    'sandbox_disabled',
    'The sandbox checkout is off: this server takes real payments through Razorpay',
  );

const isSandbox = (provider: PaymentsServiceDeps['provider']): provider is SandboxPaymentProvider =>
  provider.sandbox;

/** Orders, checkout verification and the buyer's own payments. */
export function createPaymentsService({
  db,
  clock,
  settlement,
  provider,
  currencies,
  invoicing,
  coupons,
  checkoutExpiryMinutes,
  log,
}: PaymentsServiceDeps) {
  const cutoff = () => expiredBefore(clock.now(), checkoutExpiryMinutes);
  const view = (row: PaymentWithPlan) => paymentView(row, cutoff());

  async function ownPayment(user: UserRow, idOrOrderId: string): Promise<PaymentWithPlan> {
    const row = await findOwnPayment(db, user.id, idOrOrderId);
    if (!row) throw paymentNotFound();
    return row;
  }

  async function answerWith(
    payment: PaymentRow,
    license: LicenseRow | undefined,
  ): Promise<PaymentVerification> {
    const row = await findPaymentById(db, payment.id);
    if (!row || !license) throw new Error(`payment ${payment.id} was settled without a license`);
    return {
      payment: view(row),
      license: await toLicense(db, license, clock.now()),
      sandbox: row.provider === 'sandbox',
      charge: await chargeSummaryOf(db, row.id, null),
    };
  }

  return {
    config: (): PaymentConfig => ({
      provider: provider.name,
      key_id: provider.keyId,
      sandbox: provider.sandbox,
      currency: currencies[0] as string,
      currencies: [...currencies],
    }),

    /** Opens an order for the plan's price; the client never names an amount. */
    async createOrder(user: UserRow, body: CreateOrderRequest): Promise<PaymentOrder> {
      const offered = await findOfferedPlanByIdOrCode(db, body.plan_id);
      if (!offered) throw planUnavailable();
      if (offered.code === BASE_PLAN_CODE || offered.price_minor <= 0) {
        throw conflict(
          'plan_is_free',
          `${offered.name} is free: activate it on the Licenses page, no payment is needed`,
        );
      }
      // The plan at its price in the buyer's currency: the coupon, the tax and the order follow it.
      const plan = await planForBuyer(db, offered, { userId: user.id, requested: body.currency });
      if (!currencies.includes(plan.currency)) {
        throw conflict(
          'currency_not_supported',
          `${plan.name} is priced in ${plan.currency}, but payments here are taken in ${currencies.join(', ')}`,
        );
      }
      // An update renewal needs a perpetual license to renew: refused before any money moves.
      await assertRenewable(db, user.id, plan);
      const id = randomUUID();
      const coupon = body.coupon_code ? await coupons.check(user, body.coupon_code, plan) : undefined;
      const price = Number(plan.price_minor) - (coupon?.discountMinor ?? 0);
      if (price <= 0)
        throw conflict(
          'coupon_covers_price',
          'This coupon would make the purchase free, which a payment cannot be; ask support to issue the license',
        );
      // The plan's price (less the coupon), plus the tax when prices are configured as exclusive of it.
      // A buyer outside India (an export) is charged no GST: the tax follows their billing details.
      const amount = chargeForPrice(price, await accountPricingTax(db, invoicing, user.id));
      let order;
      try {
        order = await provider.createOrder({
          amount,
          currency: plan.currency,
          receipt: id,
          notes: { payment_id: id, plan_id: plan.id, user_id: user.id },
        });
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        throw providerUnavailable(error, log, 'open the order');
      }
      const now = clock.now().toISOString();
      const record: Insertable<PaymentsTable> = {
        id,
        user_id: user.id,
        plan_id: plan.id,
        provider: provider.name,
        provider_order_id: order.orderId,
        provider_payment_id: null,
        amount_minor: amount,
        currency: plan.currency,
        status: 'created',
        license_id: null,
        failure_reason: null,
        created_at: now,
        updated_at: now,
        paid_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await insertPayment(trx, record);
        // Counted with the order, so of two checkouts racing for a coupon's last use one gets it.
        if (body.coupon_code)
          await coupons.redeem(trx, { code: body.coupon_code, user, plan, paymentId: id });
      });
      return {
        id,
        order_id: order.orderId,
        amount,
        currency: plan.currency,
        key_id: provider.keyId,
        provider: provider.name,
        sandbox: provider.sandbox,
        plan: { id: plan.id, code: plan.code, name: plan.name },
        prefill: { email: user.email, ...(user.full_name ? { name: user.full_name } : {}) },
      };
    },

    /**
     * The sandbox's stand-in for Razorpay Checkout: `pay` answers what Checkout hands the page
     * (the page then verifies as after a real payment); `decline` records a failed attempt.
     */
    async completeSandboxCheckout(user: UserRow, orderId: string, outcome: 'pay' | 'decline') {
      if (!isSandbox(provider)) throw sandboxOff();
      const payment = await findOwnPayment(db, user.id, orderId);
      if (!payment || payment.provider_order_id !== orderId || payment.provider !== 'sandbox') {
        throw paymentNotFound();
      }
      if (payment.status === 'paid') {
        throw conflict('payment_already_completed', 'This order is already paid');
      }
      const paymentId = provider.newPaymentId();
      if (outcome === 'pay') {
        return {
          razorpay_order_id: orderId,
          razorpay_payment_id: paymentId,
          razorpay_signature: provider.signPayment(orderId, paymentId),
        };
      }
      const at = clock.now().toISOString();
      await markPaymentFailed(db, payment.id, {
        providerPaymentId: paymentId,
        reason: SANDBOX_DECLINE_REASON,
        at,
      });
      const failed = await findPaymentById(db, payment.id);
      if (!failed) throw paymentNotFound();
      const failure: CheckoutFailure = {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: SANDBOX_DECLINE_REASON,
          reason: 'payment_failed',
          source: 'customer',
          step: 'payment_authorization',
          metadata: { order_id: orderId, payment_id: paymentId },
        },
        payment: view(failed),
      };
      return failure;
    },

    /**
     * Checks the checkout signature against OUR order id (never one the client names) and grants
     * the plan once. A replay of the same verified payment answers the same payment and license.
     */
    async verify(user: UserRow, body: VerifyPaymentRequest, meta: RequestMeta): Promise<PaymentVerification> {
      const record = await findOwnPayment(db, user.id, body.razorpay_order_id);
      if (!record || record.provider_order_id !== body.razorpay_order_id) throw paymentNotFound();
      if (record.provider !== provider.name) {
        throw conflict(
          'payment_provider_changed',
          `This order was opened with the ${record.provider} provider, which this server no longer uses. Start a new purchase.`,
        );
      }
      const valid = provider.isPaymentSignatureValid(
        record.provider_order_id,
        body.razorpay_payment_id,
        body.razorpay_signature,
      );
      if (!valid) {
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.paymentVerificationFailed,
          severity: 'warning',
          userId: user.id,
          meta,
          details: {
            payment_id: record.id,
            order_id: record.provider_order_id,
            provider_payment_id: body.razorpay_payment_id,
            provider: record.provider,
          },
        });
        throw badRequest(
          'invalid_signature',
          'The payment could not be verified: its signature does not match this order. If money was taken, contact support with the order id.',
        );
      }
      const settled = await db.transaction().execute((trx) =>
        settlement.settle(trx, {
          kind: 'order',
          paymentId: record.id,
          providerPaymentId: body.razorpay_payment_id,
        }),
      );
      if (settled.outcome === 'paid_by_other') throw paidByOther();
      return answerWith(settled.payment, settled.license);
    },

    status: async (user: UserRow, idOrOrderId: string): Promise<Payment> =>
      view(await ownPayment(user, idOrOrderId)),

    async history(user: UserRow, query: HistoryQuery): Promise<Paged<Payment>> {
      const before = cutoff();
      const page = await paymentHistory(db, user.id, query, before);
      return { ...page, data: page.data.map((row) => paymentView(row, before)) };
    },

    /**
     * Hides the buyer's expired or failed order from their history (the record stays; a late
     * payment still settles it and brings it back). Dismissing it again answers the same.
     */
    async dismiss(user: UserRow, idOrOrderId: string): Promise<Payment> {
      const row = await ownPayment(user, idOrOrderId);
      const before = cutoff();
      const current = paymentView(row, before);
      if (current.dismissed_at) return current;
      if (row.kind !== 'purchase')
        throw conflict(
          'payment_not_dismissable',
          'A subscription’s charge stays in your history: pay it or cancel the subscription instead',
        );
      if (current.status === 'paid')
        throw conflict('payment_already_completed', 'This order is paid, so it stays in your history');
      if (current.status === 'created')
        throw conflict(
          'payment_in_progress',
          'This checkout may still be completed; it can be dismissed once it has expired',
        );
      const dismissed = await dismissOrder(db, user.id, row.id, before, clock.now().toISOString());
      const after = await ownPayment(user, row.id);
      // Paid between the read and the update: the late payment wins.
      if (!dismissed && after.status === 'paid')
        throw conflict('payment_already_completed', 'This order is paid, so it stays in your history');
      return paymentView(after, before);
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
