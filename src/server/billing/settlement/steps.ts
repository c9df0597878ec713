import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type {
  CouponRow,
  InvoiceRow,
  LicenseRow,
  PaymentRow,
  PlanRow,
  SubscriptionRow,
} from '../../platform/db/tables.js';
import type { BilledOverage } from '../../licensing/index.js';
import type { BillingEvents, PaymentPaidEvent } from '../events.js';
import { issueInvoiceForPayment, type ServicePeriod } from '../invoices/issue.js';
import type { InvoiceSettings } from '../invoices/settings.js';
import type { ReserveCredit } from '../subscriptions/provider-closing.js';

/** What settling needs, whichever kind of charge it settles. */
export interface SettlementDeps {
  clock: Clock;
  /** Announces the payment, the licenses granted and what a subscription's charge changed. */
  events: BillingEvents;
  invoicing: InvoiceSettings;
  /** Reserves the refund of a charge that would have started a second subscription. */
  reserveCredit: ReserveCredit;
  /** Months a bought credit pack may be drawn from (USAGE_PACK_VALID_MONTHS; 12 when left out). */
  packValidMonths?: number;
}

/**
 * Rows the caller already read in this transaction, passed along instead of read again: the
 * subscription as it is now (read under its lock, after the caller's own changes to it), its plan
 * and its coupon (null when it has none).
 */
export interface ChargeRows {
  subscription?: SubscriptionRow;
  plan?: PlanRow;
  coupon?: CouponRow | null;
}

/** A payment settled paid, with the rows it was settled with and what it bought. */
export interface PaidSettlement {
  payment: PaymentRow;
  plan: PlanRow;
  subscription?: SubscriptionRow;
  coupon?: CouponRow | null;
  /** The period a one-off payment bought (a subscription's charge carries its own on the payment). */
  period?: ServicePeriod | null;
  /** The end of the time the payment bought; null for a lifetime. */
  paidUntil: string | null;
  seats?: PaymentPaidEvent['seats'];
  /** The overage a renewal bills (recorded on the payment already). */
  overage?: BilledOverage[];
  /** Credit packs the payment bought: their invoice line says until when they may be drawn. */
  pack?: { validUntil: string | null };
}

/**
 * The last step of every settling: the payment's invoice, issued in the transaction that settles
 * it from the rows already held, and the payment announced paid with it (the customer's receipt and
 * the `payment.paid` webhook follow the announcement).
 */
export async function invoiceAndAnnounce(
  trx: DbOrTransaction,
  { clock, events, invoicing }: SettlementDeps,
  paid: PaidSettlement,
): Promise<InvoiceRow> {
  const { payment, plan, subscription, coupon } = paid;
  const invoice = await issueInvoiceForPayment(trx, clock, invoicing, payment.id, {
    period: paid.period ?? null,
    ...(paid.pack ? { packValidUntil: paid.pack.validUntil } : {}),
    known: {
      payment,
      plan,
      ...(subscription ? { subscription } : {}),
      ...(coupon !== undefined ? { coupon } : {}),
      ...(paid.overage ? { overage: paid.overage } : {}),
    },
  });
  await events.publish(trx, {
    type: 'payment.paid',
    payment,
    invoice,
    paidUntil: paid.paidUntil,
    plan,
    ...(paid.seats ? { seats: paid.seats } : {}),
  });
  return invoice;
}

/** How a capture of a payment ended for the caller that reported it. */
export type OrderSettlement =
  | { outcome: 'granted'; payment: PaymentRow; license: LicenseRow | undefined }
  /** Already paid by this very provider payment: a replay, answered with what it granted. */
  | { outcome: 'already_paid'; payment: PaymentRow; license: LicenseRow | undefined }
  /** Already paid by another provider payment of the same order. */
  | { outcome: 'paid_by_other'; payment: PaymentRow };
