import { randomUUID } from 'node:crypto';
import type { Invoice, InvoiceTaxLine } from '../../../shared/api/invoices.js';
import { countryName, currentCountryCode } from '../../../shared/countries.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type {
  BillingDetailsRow,
  CouponRow,
  InvoiceRow,
  PaymentRow,
  PlanRow,
  RefundRow,
  SubscriptionRow,
} from '../../platform/db/tables.js';
import {
  appliesToCharge,
  couponOfSubscription,
  discountOf,
  findCoupon,
  findPlanIn,
} from '../../catalogue/index.js';
import { findPackOrder } from '../credit-packs/orders-repository.js';
import { seatsAddedBy } from '../seat-purchases/charge-key.js';
import { findUserById } from '../../identity/index.js';
import { type BilledOverage, overageBilledOn } from '../../licensing/index.js';
import { type ChargeCoupon, itemiseCharge, packLineWords } from './itemise.js';
import { overageLines } from './overage-lines.js';
import { decideTaxTreatment, pricingTax, taxLinesFor } from './tax-treatment.js';
import {
  findChargedPayment,
  findCouponRedemption,
  findOrganisationBilling,
  findSubscriptionBilling,
} from './charges-repository.js';
import {
  creditNotesOf,
  findBillingDetails,
  findInvoiceRowOfPayment,
  insertInvoice,
  takeNextNumber,
  taxLinesOf,
} from './repository.js';
import type { InvoiceSettings, SellerDetails } from './settings.js';
import { refundTaxShare, shareTax, type TaxLine } from './tax.js';

type Party = Invoice['buyer'];
type Line = Invoice['lines'][number];

/** `INV-000042`: the series, then the sequence padded to six digits (more once past 999 999). */
export const documentNumber = (series: string, sequence: number): string =>
  `${series}-${String(sequence).padStart(6, '0')}`;

const storedTaxLine = (tax: TaxLine): InvoiceTaxLine => ({
  name: tax.name,
  rate_bp: tax.rateBasisPoints,
  amount: tax.amountMinor,
});

const sellerParty = (seller: SellerDetails): Party => ({
  name: seller.name,
  address: seller.address,
  country: null,
  tax_id: seller.taxId ?? null,
  email: seller.email ?? null,
});

/** The buyer as printed: billing details when saved, else the account's name and e-mail. */
export function buyerParty(
  details: BillingDetailsRow | undefined,
  account: { email: string; full_name: string | null } | undefined,
): Party {
  if (!details) {
    return {
      name: account?.full_name ?? null,
      address: [],
      country: null,
      tax_id: null,
      email: account?.email ?? null,
    };
  }
  const cityLine = [details.postal_code, details.city].filter(Boolean).join(' ');
  return {
    name: details.name,
    address: [
      details.address_line1,
      details.address_line2,
      cityLine,
      details.region,
      countryName(details.country) ?? details.country,
    ].filter((line): line is string => Boolean(line)),
    country: currentCountryCode(details.country) ?? details.country,
    tax_id: details.tax_id,
    email: account?.email ?? null,
  };
}

async function buyerOf(trx: DbOrTransaction, userId: string | null) {
  if (!userId) return { party: buyerParty(undefined, undefined), details: undefined };
  const [details, account] = await Promise.all([findBillingDetails(trx, userId), findUserById(trx, userId)]);
  return { party: buyerParty(details, account), details };
}

/** The subscription a charge belongs to, with its organisation (name and billing details) if it has one. */
async function subscriptionOf(trx: DbOrTransaction, payment: PaymentRow, known?: SubscriptionRow) {
  if (!payment.subscription_id) return undefined;
  if (known?.id === payment.subscription_id) {
    const organisation = known.organisation_id
      ? await findOrganisationBilling(trx, known.organisation_id)
      : undefined;
    return {
      seats: known.seats,
      coupon_id: known.coupon_id,
      organisation_id: known.organisation_id,
      organisation_name: organisation?.name ?? null,
      billing_details: organisation?.billing_details ?? null,
    };
  }
  return findSubscriptionBilling(trx, payment.subscription_id);
}

type ChargedSubscription = NonNullable<Awaited<ReturnType<typeof subscriptionOf>>>;

/**
 * An organisation's purchase is billed to the organisation: its billing details when it has
 * saved them (the paying account's e-mail beside them), else its name alone, so the invoice never
 * reads as the payer's own (the PDF says where its details are added).
 */
async function organisationBuyer(
  trx: DbOrTransaction,
  payment: PaymentRow,
  subscription: ChargedSubscription,
) {
  const account = payment.user_id ? await findUserById(trx, payment.user_id) : undefined;
  if (!subscription.billing_details)
    return {
      party: {
        name: subscription.organisation_name,
        address: [],
        country: null,
        tax_id: null,
        email: account?.email ?? null,
      },
      details: undefined,
    };
  const details: BillingDetailsRow = {
    ...(JSON.parse(subscription.billing_details) as Omit<BillingDetailsRow, 'user_id' | 'updated_at'>),
    user_id: payment.user_id ?? '',
    updated_at: payment.created_at,
  };
  return { party: buyerParty(details, account), details };
}

/** The cycle of a subscription's charge, from its key (`<provider subscription>#<cycle>`). */
const cycleOf = (payment: Pick<PaymentRow, 'provider_order_id'>): number | undefined => {
  const match = /#(\d+)$/.exec(payment.provider_order_id);
  return match ? Number(match[1]) : undefined;
};

/**
 * The coupon of a charge: the one redeemed on a purchase, or the subscription's when it applies to
 * this cycle (`known`, when the settling holds it already: null for none).
 */
async function couponOf(
  trx: DbOrTransaction,
  payment: PaymentRow,
  subscription: ChargedSubscription | undefined,
  plan: PlanRow | undefined,
  known: CouponRow | null | undefined,
): Promise<ChargeCoupon | undefined> {
  if (!plan) return undefined;
  if (!subscription) {
    const redeemed = await findCouponRedemption(trx, payment.id);
    const coupon = redeemed ? await findCoupon(trx, redeemed.coupon_id) : undefined;
    return coupon && redeemed ? couponFacts(coupon, Number(redeemed.discount_minor)) : undefined;
  }
  const coupon = await couponOfSubscription(trx, subscription.coupon_id, known);
  if (!coupon || !appliesToCharge(coupon, cycleOf(payment) ?? 1)) return undefined;
  return couponFacts(coupon, discountOf(coupon, Number(plan.price_minor), plan.currency));
}

const couponFacts = (coupon: CouponRow, unitDiscountMinor: number): ChargeCoupon => ({
  code: coupon.code,
  percentOff: coupon.percent_off,
  amountOffMinor: coupon.amount_off_minor === null ? null : Number(coupon.amount_off_minor),
  unitDiscountMinor,
});

/** The service period a charge pays for, when the caller or the payment knows it. */
export interface ServicePeriod {
  start: string;
  end: string;
}

/**
 * The invoice of a paid payment, issued once: if the payment already has one it is returned as
 * it is, else the next number of the invoice series is taken and the invoice written, with the
 * seller, the buyer's billing details, the lines and the tax as they are now. Call it in the
 * transaction that marks the payment paid (after winning that claim, so one caller issues), so
 * the invoice commits with the payment or not at all, and its number is never skipped. `period`
 * is the service period of a one-off purchase (a subscription's charge carries its own).
 */
export async function issueInvoiceForPayment(
  trx: DbOrTransaction,
  clock: Clock,
  settings: InvoiceSettings,
  paymentId: string,
  options: {
    period?: ServicePeriod | null;
    /** Until when the credit packs the payment bought may be drawn, as their line says. */
    packValidUntil?: string | null;
    /** The rows the settling already holds (the payment as it now is, its plan, subscription and coupon). */
    known?: {
      payment?: PaymentRow;
      plan?: PlanRow;
      subscription?: SubscriptionRow;
      coupon?: CouponRow | null;
      /** The overage the charge bills, when the settling recorded it (else read for a renewal). */
      overage?: BilledOverage[];
    };
  } = {},
): Promise<InvoiceRow> {
  const existing = await findInvoiceRowOfPayment(trx, paymentId);
  if (existing) return existing;
  const { known = {} } = options;
  const payment: PaymentRow | undefined =
    known.payment?.id === paymentId ? known.payment : await findChargedPayment(trx, paymentId);
  if (!payment) throw new Error(`payment ${paymentId} does not exist`);
  if (payment.status !== 'paid') throw new Error(`payment ${paymentId} is ${payment.status}, not paid`);
  const plan =
    known.plan?.id === payment.plan_id
      ? known.plan
      : await findPlanIn(trx, payment.plan_id, payment.currency);
  const subscription = await subscriptionOf(trx, payment, known.subscription);
  const organisation = subscription?.organisation_id ? subscription : undefined;
  const buyer = organisation
    ? await organisationBuyer(trx, payment, organisation)
    : await buyerOf(trx, payment.user_id);
  // Decided once, here, from the buyer as billed; the invoice keeps it for its credit notes.
  const treatment = decideTaxTreatment(settings, {
    country: buyer.party.country,
    tax_id: buyer.party.tax_id,
    region: buyer.details?.region ?? null,
  });
  const seatBased = plan ? Number(plan.seat_based) === 1 : false;
  const packOrder = await findPackOrder(trx, payment.id);
  const { lines, split, linesIncludeTax } = itemiseCharge(
    {
      plan,
      planId: payment.plan_id,
      recurring: subscription !== undefined,
      quantity: seatBased && subscription ? Number(subscription.seats) : 1,
      perSeat: seatBased,
      coupon: await couponOf(trx, payment, subscription, plan, known.coupon),
      seatsAdded: seatsAddedBy(payment),
      pack: packOrder
        ? {
            description: packLineWords(packOrder.description, options.packValidUntil ?? null),
            quantity: Number(packOrder.quantity),
            unitPriceMinor: Number(packOrder.price_minor),
          }
        : undefined,
      chargedMinor: Number(payment.amount_minor),
      currency: payment.currency,
      overage: overageLines(known.overage ?? (subscription ? await overageBilledOn(trx, payment.id) : [])),
    },
    pricingTax(settings.tax, treatment),
  );
  const taxes = taxLinesFor(settings, treatment, split.taxMinor);
  const period =
    payment.period_start && payment.period_end
      ? { start: payment.period_start, end: payment.period_end }
      : (options.period ?? null);
  const { rateBasisPoints, inclusive, name: taxName } = settings.tax;
  const series = settings.invoiceSeries;
  const sequence = await takeNextNumber(trx, series);
  const row: InvoiceRow = {
    id: randomUUID(),
    kind: 'invoice',
    series,
    sequence,
    number: documentNumber(series, sequence),
    user_id: payment.user_id,
    payment_id: payment.id,
    refund_id: null,
    invoice_id: null,
    currency: payment.currency,
    subtotal_minor: split.netMinor,
    tax_minor: split.taxMinor,
    total_minor: split.grossMinor,
    tax_name: taxName,
    // An export charges no tax: its rate is 0, so nothing reads as if the tax were in the price.
    tax_rate_bp: treatment.chargesTax ? rateBasisPoints : 0,
    tax_inclusive: inclusive && treatment.chargesTax ? 1 : 0,
    seller: JSON.stringify(sellerParty(settings.seller)),
    buyer: JSON.stringify(buyer.party),
    lines: JSON.stringify(lines),
    issued_at: clock.now().toISOString(),
    lines_include_tax: linesIncludeTax ? 1 : 0,
    taxes: JSON.stringify(taxes.map(storedTaxLine)),
    place_of_supply: treatment.placeOfSupply,
    payment_reference: payment.provider_payment_id ?? payment.provider_order_id,
    period_start: period?.start ?? null,
    period_end: period?.end ?? null,
    organisation_id: organisation?.organisation_id ?? null,
    tax_treatment: treatment.kind,
    tax_notes: JSON.stringify(treatment.notes),
  };
  await insertInvoice(trx, row);
  return row;
}

/**
 * The credit note of a refund: the negative of the refunded amount, with its share of the
 * invoice's tax (see {@link refundTaxShare}), numbered in the credit note series. The buyer is
 * the invoice's, as it was printed; the seller is the current one.
 */
export async function issueCreditNote(
  trx: DbOrTransaction,
  clock: Clock,
  settings: InvoiceSettings,
  invoice: InvoiceRow,
  refund: RefundRow,
): Promise<InvoiceRow> {
  const earlier = (await creditNotesOf(trx, invoice.id)).filter((note) => note.refund_id !== refund.id);
  const share = refundTaxShare({
    invoiceGrossMinor: Number(invoice.total_minor),
    invoiceTaxMinor: Number(invoice.tax_minor),
    refundedBeforeMinor: -earlier.reduce((sum, note) => sum + Number(note.total_minor), 0),
    taxCreditedBeforeMinor: -earlier.reduce((sum, note) => sum + Number(note.tax_minor), 0),
    refundMinor: Number(refund.amount_minor),
  });
  const full = share.grossMinor === Number(invoice.total_minor);
  const lines: Line[] = [
    {
      kind: 'item',
      description: `${full ? 'Refund' : 'Partial refund'} of invoice ${invoice.number}`,
      quantity: 1,
      unit_amount: -share.netMinor,
      amount: -share.netMinor,
      coupon_code: null,
    },
  ];
  // The tax credited by the kinds the invoice charged (CGST and SGST, say), in proportion.
  const invoiceTaxes = taxLinesOf(invoice);
  const credited = shareTax(
    share.taxMinor,
    invoiceTaxes.map((tax) => tax.amount),
  );
  const taxes = invoiceTaxes.map((tax, index) => ({ ...tax, amount: -(credited[index] ?? 0) }));
  const series = settings.creditNoteSeries;
  const sequence = await takeNextNumber(trx, series);
  const row: InvoiceRow = {
    id: randomUUID(),
    kind: 'credit_note',
    series,
    sequence,
    number: documentNumber(series, sequence),
    user_id: invoice.user_id,
    payment_id: null,
    refund_id: refund.id,
    invoice_id: invoice.id,
    currency: invoice.currency,
    subtotal_minor: -share.netMinor,
    tax_minor: -share.taxMinor,
    total_minor: -share.grossMinor,
    tax_name: invoice.tax_name,
    tax_rate_bp: invoice.tax_rate_bp,
    tax_inclusive: invoice.tax_inclusive,
    seller: JSON.stringify(sellerParty(settings.seller)),
    buyer: invoice.buyer,
    lines: JSON.stringify(lines),
    issued_at: clock.now().toISOString(),
    lines_include_tax: 0,
    taxes: JSON.stringify(taxes),
    place_of_supply: invoice.place_of_supply,
    payment_reference: invoice.payment_reference,
    period_start: null,
    period_end: null,
    organisation_id: invoice.organisation_id,
    // The invoice's treatment, as recorded when it was issued: a refund never decides it again.
    tax_treatment: invoice.tax_treatment,
    tax_notes: invoice.tax_notes,
  };
  await insertInvoice(trx, row);
  return row;
}
