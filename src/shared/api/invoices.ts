import { z } from 'zod';
import { isCountryCode } from '../countries.js';
import { findGstState } from '../gst-states.js';
import { isEuCountry, normalizeVatNumber, vatNumberProblem } from '../eu-vat.js';
import { gstinProblem, normalizeGstin } from '../gstin.js';
import { displayText, isoDateTimeSchema } from './common.js';
import { pageQuerySchema, pagedSchema } from './paging.js';

export { countryName } from '../countries.js';

export const countryCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, 'Choose a country from the list (ISO 3166-1 two-letter code, e.g. IN)');

/** An Indian PIN code: 6 digits, the first not 0 (spaces people type are dropped). */
export const INDIAN_PIN = /^[1-9][0-9]{5}$/;
export const INDIAN_PIN_PROBLEM = 'An Indian PIN code has exactly 6 digits and does not start with 0';
export const INDIAN_STATE_PROBLEM = 'Choose a state or union territory from the GST list';

/** Tax ids other than a GSTIN: free text of letters, digits and the usual separators. */
const OTHER_TAX_ID = /^[A-Z0-9][A-Z0-9 ./-]*$/;
export const TAX_ID_MAX_LENGTH = 30;

const requiredText = (label: string, max: number) => displayText(max).min(1, `${label} is required`);
const optionalText = (max: number) =>
  displayText(max)
    .nullish()
    .transform((value) => (value ? value : null));

type SentDetails = {
  postal_code: string;
  region: string | null;
};

/**
 * An Indian address: the PIN code as its 6 digits, and the state, when given, one of the GST list
 * saved by its name (whether its name, its GST code or a former name was sent). The state stays
 * optional for the API: clients from before the list send none.
 */
function indianAddress<T extends SentDetails>(details: T, context: z.RefinementCtx): T {
  const pin = details.postal_code.replace(/\s+/g, '');
  if (!INDIAN_PIN.test(pin))
    context.addIssue({ code: 'custom', path: ['postal_code'], message: INDIAN_PIN_PROBLEM });
  const state = details.region === null ? undefined : findGstState(details.region);
  if (details.region !== null && !state)
    context.addIssue({ code: 'custom', path: ['region'], message: INDIAN_STATE_PROBLEM });
  return { ...details, postal_code: pin, region: state?.name ?? details.region };
}

/**
 * The billing details a customer saves: printed on every invoice issued afterwards. For India
 * (`country` IN) the PIN code has 6 digits, the region is a state of the GST list (see
 * gst-states.ts) and the tax id is a GSTIN, checked in full (state code, PAN, check character).
 * In an EU member state the tax id is a VAT number, its format checked for that state (eu-vat.ts).
 */
export const billingDetailsRequestSchema = z
  .strictObject({
    name: requiredText('Billing name', 200),
    address_line1: requiredText('Address', 200),
    address_line2: optionalText(200),
    city: requiredText('City', 100),
    postal_code: requiredText('Postal or PIN code', 20),
    region: optionalText(100).describe(
      'For India (IN), a state or union territory of the GST list: its name or its two-digit GST code (saved by name)',
    ),
    country: countryCodeSchema,
    tax_id: z
      .string()
      .trim()
      .max(40, 'Tax id is too long')
      .nullish()
      .transform((value) => (value ? value.toUpperCase() : null))
      .describe(
        'For India (IN) a GSTIN; in an EU member state the VAT number, its format checked (prefix added when left out), which makes the sale a reverse charge; else the country’s tax id',
      ),
  })
  .transform((sent, context) => {
    const details = sent.country === 'IN' ? indianAddress(sent, context) : sent;
    if (details.tax_id === null) return details;
    if (details.country === 'IN') {
      const gstin = normalizeGstin(details.tax_id);
      const problem = gstinProblem(gstin);
      if (problem) context.addIssue({ code: 'custom', path: ['tax_id'], message: problem });
      return { ...details, tax_id: gstin };
    }
    // In the EU the tax id is the buyer's VAT number: a business's, so its invoices carry the
    // reverse charge. Its format is checked per member state, its prefix added when left out.
    if (isEuCountry(details.country)) {
      const vatNumber = normalizeVatNumber(details.country, details.tax_id);
      const problem = vatNumberProblem(details.country, vatNumber);
      if (problem) context.addIssue({ code: 'custom', path: ['tax_id'], message: problem });
      return { ...details, tax_id: vatNumber };
    }
    if (details.tax_id.length > TAX_ID_MAX_LENGTH || !OTHER_TAX_ID.test(details.tax_id)) {
      context.addIssue({
        code: 'custom',
        path: ['tax_id'],
        message: `A tax id has at most ${TAX_ID_MAX_LENGTH} letters, digits, spaces, dots, slashes or hyphens`,
      });
    }
    return details;
  })
  .meta({ id: 'BillingDetailsRequest' });
export type BillingDetailsRequest = z.input<typeof billingDetailsRequestSchema>;
export type BillingDetailsInput = z.output<typeof billingDetailsRequestSchema>;

export const billingDetailsSchema = z
  .object({
    name: z.string(),
    address_line1: z.string(),
    address_line2: z.string().nullable(),
    city: z.string(),
    postal_code: z.string(),
    region: z.string().nullable(),
    country: z.string().describe('ISO 3166-1 alpha-2'),
    tax_id: z
      .string()
      .nullable()
      .describe('A GSTIN for India, a VAT number (with its prefix) in the EU, else the country’s tax id'),
    updated_at: isoDateTimeSchema,
  })
  .meta({ id: 'BillingDetails' });
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

export const billingDetailsAnswerSchema = z
  .object({ details: billingDetailsSchema.nullable().describe('Null until the customer saves them') })
  .meta({ id: 'BillingDetailsAnswer' });
export type BillingDetailsAnswer = z.infer<typeof billingDetailsAnswerSchema>;

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

const partySchema = z.object({
  name: z.string().nullable(),
  address: z.array(z.string()).describe('Printed lines'),
  country: z.string().nullable(),
  tax_id: z.string().nullable(),
  email: z.string().nullable(),
});

export const INVOICE_LINE_KINDS = ['item', 'discount', 'credit', 'adjustment'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

export const invoiceLineSchema = z
  .object({
    kind: z
      .enum(INVOICE_LINE_KINDS)
      .describe(
        'item: what was bought (a plan, seats); discount: a coupon; credit: credit from earlier payments taken off; ' +
          'adjustment: a difference between the lines and what was charged. Invoices issued before itemising have item lines only',
      ),
    description: z.string(),
    quantity: z.number().int().describe('Seats for a seat-based plan, else 1'),
    unit_amount: z
      .int()
      .describe(
        'Per unit, in minor units: the list price of one seat on an item line; negative on discounts',
      ),
    amount: z
      .number()
      .int()
      .describe('quantity × unit_amount, in minor units; negative on discounts, credit and credit notes'),
    coupon_code: z.string().nullable().describe('The coupon of a discount line'),
  })
  .meta({ id: 'InvoiceLine' });
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoiceTaxLineSchema = z
  .object({
    name: z
      .string()
      .describe('CGST, SGST, UTGST or IGST for India’s GST by place of supply; else the tax’s name'),
    rate_bp: z.number().int().describe('In basis points: 900 is 9 %'),
    amount: z.number().int().describe('In minor units; negative on credit notes'),
  })
  .meta({ id: 'InvoiceTaxLine' });
export type InvoiceTaxLine = z.infer<typeof invoiceTaxLineSchema>;

/**
 * How an invoice's sale was taxed, decided when it was issued: India's GST within the seller's
 * state (CGST + SGST) or across states (IGST), an export of services to a buyer outside India (no
 * GST, under the seller's LUT), an export to an EU business with a VAT number (the recipient
 * accounts for the VAT: reverse charge), or one tax under its configured name.
 */
export const TAX_TREATMENTS = [
  'gst_intra_state',
  'gst_inter_state',
  'export',
  'eu_reverse_charge',
  'domestic',
] as const;
export type TaxTreatmentKind = (typeof TAX_TREATMENTS)[number];

/** An invoice or credit note as issued; amounts in the currency's minor unit (paise, cents). */
export const invoiceSchema = z
  .object({
    id: z.string(),
    kind: z.enum(INVOICE_KINDS),
    title: z
      .string()
      .describe(
        'Tax invoice only when the seller had a tax id (GSTIN) at issue time and tax was charged or the sale was a zero-rated export; else Invoice; Credit note',
      ),
    number: z.string(),
    issued_at: isoDateTimeSchema,
    currency: z.string(),
    subtotal: z.number().int().describe('The taxable value: the total before tax'),
    tax: z.number().int(),
    total: z.number().int().describe('What was charged; negative on credit notes'),
    tax_name: z.string(),
    tax_rate_bp: z.number().int().describe('In basis points: 1800 is 18 %'),
    tax_inclusive: z.boolean(),
    lines_include_tax: z
      .boolean()
      .describe(
        'True: the lines’ amounts include the tax (prices inclusive of it) and add up to `total`; false: they are before tax and add up to `subtotal`',
      ),
    taxes: z.array(invoiceTaxLineSchema).describe('The tax by kind; they add up to `tax`'),
    place_of_supply: z
      .string()
      .nullable()
      .describe('For India’s GST: the state of supply, e.g. Karnataka (29), or Outside India'),
    tax_treatment: z
      .enum(TAX_TREATMENTS)
      .nullable()
      .describe(
        'How the sale was taxed, as decided at issue (a credit note has its invoice’s); null on documents issued before it was recorded',
      ),
    tax_notes: z
      .array(z.string())
      .describe(
        'Printed under the totals: the seller’s LUT note on an export, the reverse charge wording for an EU business',
      ),
    payment_id: z.string().nullable().describe('The payment an invoice is for (also set on credit notes)'),
    payment_reference: z.string().nullable().describe('The payment provider’s reference of that payment'),
    service_period: z
      .object({ start: isoDateTimeSchema, end: isoDateTimeSchema })
      .nullable()
      .describe('The period the charge pays for; null for a lifetime and on credit notes'),
    organisation: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .describe(
        'The organisation billed for its purchase; its page is where its billing details are managed',
      ),
    corrects: z
      .object({ id: z.string(), number: z.string() })
      .nullable()
      .describe('The invoice a credit note corrects'),
    seller: partySchema,
    buyer: partySchema,
    lines: z.array(invoiceLineSchema),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListQuerySchema = pageQuerySchema(['issued_at', 'number']).extend({
  kind: z.enum(INVOICE_KINDS).optional(),
});
export const invoiceListSchema = pagedSchema(invoiceSchema).meta({ id: 'InvoiceList' });
export type InvoiceList = z.infer<typeof invoiceListSchema>;

export const REFUND_LICENSE_ACTIONS = ['keep', 'revoke', 'shorten'] as const;
export type RefundLicenseAction = (typeof REFUND_LICENSE_ACTIONS)[number];

/** An administrator's refund of a paid payment: all of it or part, and what becomes of the license. */
export const refundRequestSchema = z
  .strictObject({
    amount: z
      .number('amount must be a number of minor units (paise, cents)')
      .int('amount must be a whole number of minor units (paise, cents)')
      .min(1, 'amount must be at least 1')
      .optional()
      .describe('In minor units; leave it out to refund what is left to refund'),
    license_action: z
      .enum(REFUND_LICENSE_ACTIONS)
      .describe('keep the license, revoke it (reason required), or shorten it to end now'),
    reason: displayText(500).optional(),
  })
  .refine((body) => body.license_action !== 'revoke' || (body.reason ?? '').length > 0, {
    message: 'Give a reason to revoke the license: the customer sees it',
    path: ['reason'],
  })
  .meta({ id: 'RefundRequest' });
export type RefundRequest = z.output<typeof refundRequestSchema>;

export const refundSchema = z
  .object({
    id: z.string(),
    payment_id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    status: z
      .enum(['pending', 'processed'])
      .describe('pending while the provider is asked (its amount is already reserved)'),
    provider_refund_id: z.string().nullable(),
    reason: z.string().nullable(),
    license_action: z.enum(REFUND_LICENSE_ACTIONS),
    actor_id: z.string().nullable(),
    created_at: isoDateTimeSchema,
    credit_note: z.object({ id: z.string(), number: z.string() }).nullable(),
  })
  .meta({ id: 'Refund' });
export type Refund = z.infer<typeof refundSchema>;

/** The refunds of one payment and what may still be refunded. */
export const paymentRefundsSchema = z
  .object({
    payment_id: z.string(),
    currency: z.string(),
    paid: z.number().int().describe('In minor units; 0 unless the payment is paid'),
    refunded: z.number().int().describe('Refunds the provider took'),
    refundable: z.number().int().describe('What may still be refunded (pending refunds are reserved)'),
    invoice: z.object({ id: z.string(), number: z.string() }).nullable(),
    refunds: z.array(refundSchema),
  })
  .meta({ id: 'PaymentRefunds' });
export type PaymentRefunds = z.infer<typeof paymentRefundsSchema>;
