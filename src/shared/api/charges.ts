import { z } from 'zod';
import { invoiceTaxLineSchema } from './invoices.js';
import { isoDateTimeSchema } from './common.js';

/**
 * What one payment charged, read from its invoice as issued (never priced again), so a success
 * panel says exactly what the customer paid: the list price times the quantity, the coupon's
 * discount, the tax and the total charged today, then the next charge of a subscription.
 * Amounts are in the currency's minor unit (paise, cents).
 */
export const chargeSummarySchema = z
  .object({
    currency: z.string(),
    description: z.string().describe('What was bought, as the invoice names it'),
    quantity: z.number().int().describe('Seats of a seat-based plan, else 1'),
    list_price_minor: z
      .number()
      .int()
      .describe(
        'One unit (seat) at the list price, in the invoice lines’ own terms (see `lines_include_tax`)',
      ),
    unit_price_minor: z.number().int().describe('One unit (seat) after the coupon, in the same terms'),
    discount: z
      .object({
        coupon_code: z.string().nullable(),
        amount_minor: z.number().int().describe('The whole discount, all units together; positive'),
      })
      .nullable()
      .describe('Null when no coupon took anything off'),
    credit_minor: z
      .number()
      .int()
      .describe(
        'Credit from earlier payments taken off (negative), or an adjustment (positive); 0 when none',
      ),
    taxes: z.array(invoiceTaxLineSchema).describe('The tax by kind; empty when none was charged'),
    lines_include_tax: z
      .boolean()
      .describe('True when prices include the tax (the taxes are then part of the lines, not added)'),
    charged_today_minor: z.number().int().describe('What the payment took: the invoice’s total'),
    invoice_number: z.string().nullable(),
    next_charge: z
      .object({ amount_minor: z.number().int(), at: isoDateTimeSchema })
      .nullable()
      .describe('The subscription’s next charge; null for a one-off purchase or when none follows'),
  })
  .meta({ id: 'ChargeSummary' });
export type ChargeSummary = z.infer<typeof chargeSummarySchema>;
