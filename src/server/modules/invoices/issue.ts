import { randomUUID } from 'node:crypto';
import type { Invoice } from '../../../shared/api/billing.js';
import { countryName, currentCountryCode } from '../../../shared/countries.js';
import type { Clock } from '../../clock.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { BillingDetailsRow, InvoiceRow, PaymentRow, PlanRow, RefundRow } from '../../db/tables.js';
import { seatsAddedBy } from '../organisations/seat-purchase-charge.js';
import { findPlanRow } from '../plans/repository.js';
import { findUserById } from '../users/repository.js';
import {
  creditNotesOf,
  findBillingDetails,
  findInvoiceRowOfPayment,
  insertInvoice,
  takeNextNumber,
} from './repository.js';
import type { InvoiceSettings, SellerDetails } from './settings.js';
import { refundTaxShare, splitGross } from './tax.js';

type Party = Invoice['buyer'];
type Line = Invoice['lines'][number];

/** `INV-000042`: the series, then the sequence padded to six digits (more once past 999 999). */
export const documentNumber = (series: string, sequence: number): string =>
  `${series}-${String(sequence).padStart(6, '0')}`;

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

const INTERVAL_WORDS: Record<PlanRow['billing_interval'], string> = {
  month: 'one month',
  year: 'one year',
  lifetime: 'lifetime',
  free: 'free',
};

async function buyerOf(trx: DbOrTransaction, userId: string | null): Promise<Party> {
  if (!userId) return buyerParty(undefined, undefined);
  const [details, account] = await Promise.all([findBillingDetails(trx, userId), findUserById(trx, userId)]);
  return buyerParty(details, account);
}

/**
 * An organisation's subscription is billed to the organisation: its billing details when it has
 * saved them (the paying account's e-mail beside them), else the paying account's; and its seats.
 */
async function organisationBilling(
  trx: DbOrTransaction,
  payment: PaymentRow,
): Promise<{ details: BillingDetailsRow | undefined; seats: number } | undefined> {
  if (!payment.subscription_id) return undefined;
  const subscription = await trx
    .selectFrom('subscriptions')
    .innerJoin('organisations', 'organisations.id', 'subscriptions.organisation_id')
    .select(['subscriptions.seats', 'organisations.billing_details', 'organisations.id'])
    .where('subscriptions.id', '=', payment.subscription_id)
    .executeTakeFirst();
  if (!subscription) return undefined;
  const details = subscription.billing_details
    ? {
        ...(JSON.parse(subscription.billing_details) as Omit<BillingDetailsRow, 'user_id' | 'updated_at'>),
        user_id: payment.user_id ?? '',
        updated_at: payment.created_at,
      }
    : undefined;
  return { details, seats: subscription.seats };
}

/**
 * The invoice of a paid payment, issued once: if the payment already has one it is returned as
 * it is, else the next number of the invoice series is taken and the invoice written, with the
 * seller, the buyer's billing details and the tax as they are now. Call it in the transaction
 * that marks the payment paid (after winning that claim, so one caller issues), so the invoice
 * commits with the payment or not at all, and its number is never skipped.
 */
export async function issueInvoiceForPayment(
  trx: DbOrTransaction,
  clock: Clock,
  settings: InvoiceSettings,
  paymentId: string,
): Promise<InvoiceRow> {
  const existing = await findInvoiceRowOfPayment(trx, paymentId);
  if (existing) return existing;
  const payment: PaymentRow | undefined = await trx
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', paymentId)
    .executeTakeFirst();
  if (!payment) throw new Error(`payment ${paymentId} does not exist`);
  if (payment.status !== 'paid') throw new Error(`payment ${paymentId} is ${payment.status}, not paid`);
  const plan = await findPlanRow(trx, payment.plan_id);
  const organisation = await organisationBilling(trx, payment);
  const buyer = organisation?.details
    ? buyerParty(organisation.details, await findUserById(trx, payment.user_id ?? ''))
    : await buyerOf(trx, payment.user_id);
  const { rateBasisPoints, inclusive, name: taxName } = settings.tax;
  const split = splitGross(Number(payment.amount_minor), rateBasisPoints);
  const seats = organisation ? `, ${organisation.seats} seat${organisation.seats === 1 ? '' : 's'}` : '';
  const added = seatsAddedBy(payment);
  const description = !plan
    ? `Plan ${payment.plan_id}`
    : added
      ? `${plan.name} plan, ${added.to - added.from} seat${added.to - added.from === 1 ? '' : 's'} added (${added.from} to ${added.to}) for the rest of the period`
      : `${plan.name} plan, ${INTERVAL_WORDS[plan.billing_interval]}${seats}`;
  const lines: Line[] = [{ description, quantity: 1, unit_amount: split.netMinor, amount: split.netMinor }];
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
    tax_rate_bp: rateBasisPoints,
    tax_inclusive: inclusive ? 1 : 0,
    seller: JSON.stringify(sellerParty(settings.seller)),
    buyer: JSON.stringify(buyer),
    lines: JSON.stringify(lines),
    issued_at: clock.now().toISOString(),
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
      description: `${full ? 'Refund' : 'Partial refund'} of invoice ${invoice.number}`,
      quantity: 1,
      unit_amount: -share.netMinor,
      amount: -share.netMinor,
    },
  ];
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
  };
  await insertInvoice(trx, row);
  return row;
}
