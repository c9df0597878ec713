import { describe, expect, it } from 'vitest';
import { type ChargeFacts, itemiseCharge } from '../../../src/server/billing/invoices/itemise.js';
import type { InvoiceSettings } from '../../../src/server/billing/invoices/settings.js';
import {
  decideTaxTreatment,
  taxLinesFor,
  type TreatmentBuyer,
} from '../../../src/server/billing/invoices/tax-treatment.js';
import { gstLines, shareTax } from '../../../src/server/billing/invoices/tax.js';

const inclusive = { name: 'GST', rateBasisPoints: 1800, inclusive: true };
const exclusive = { ...inclusive, inclusive: false };

const pro: ChargeFacts = {
  plan: { name: 'Pro', billing_interval: 'month', price_minor: 99_900 },
  planId: 'pro',
  recurring: true,
  quantity: 1,
  perSeat: false,
  coupon: undefined,
  seatsAdded: undefined,
  chargedMinor: 99_900,
  currency: 'INR',
};

const sum = (amounts: number[]) => amounts.reduce((total, amount) => total + amount, 0);

describe('invoice lines add up to what was charged', () => {
  it('credit taken off a charge is a line of its own, in the lines’ terms (with tax or before it)', () => {
    // 30 000 of kept credit: 69 900 charged for a ₹999 month.
    const withTax = itemiseCharge({ ...pro, chargedMinor: 69_900 }, inclusive);
    expect(withTax.lines.map((line) => [line.kind, line.amount])).toEqual([
      ['item', 99_900],
      ['credit', -30_000],
    ]);
    expect(withTax.split).toEqual({ grossMinor: 69_900, taxMinor: 10_663, netMinor: 59_237 });

    // Before tax: the credit line is what the charge's taxable value is short of the price.
    const beforeTax = itemiseCharge({ ...pro, chargedMinor: 87_882 }, exclusive);
    expect(sum(beforeTax.lines.map((line) => line.amount))).toBe(beforeTax.split.netMinor);
    expect(beforeTax.lines.at(-1)).toMatchObject({
      kind: 'credit',
      description: 'Credit from earlier payments',
    });
    expect(beforeTax.split.netMinor + beforeTax.split.taxMinor).toBe(87_882);
  });

  it('a charge above the price is an adjustment, never lines that disagree with the total', () => {
    const { lines, split } = itemiseCharge({ ...pro, chargedMinor: 100_000 }, inclusive);
    expect(lines.at(-1)).toMatchObject({ kind: 'adjustment', amount: 100 });
    expect(sum(lines.map((line) => line.amount))).toBe(split.grossMinor);
  });

  it('seats added mid-period are one prorated line; an unknown plan is named by its id', () => {
    const added = itemiseCharge({ ...pro, seatsAdded: { from: 3, to: 5 }, chargedMinor: 12_345 }, inclusive);
    expect(added.lines).toEqual([
      {
        kind: 'item',
        description: 'Pro plan: 2 seats added (3 to 5), prorated for the rest of the period',
        quantity: 1,
        unit_amount: 12_345,
        amount: 12_345,
        coupon_code: null,
      },
    ]);
    const unknown = itemiseCharge({ ...pro, plan: undefined, chargedMinor: 11_800 }, exclusive);
    expect(unknown.lines).toMatchObject([{ description: 'Plan pro', amount: 10_000 }]);
  });

  it('a fixed-amount coupon names its amount', () => {
    const { lines } = itemiseCharge(
      {
        ...pro,
        coupon: { code: 'FLAT100', percentOff: null, amountOffMinor: 10_000, unitDiscountMinor: 10_000 },
        chargedMinor: 89_900,
      },
      inclusive,
    );
    expect(lines[1]).toMatchObject({ description: 'Coupon FLAT100: INR 100.00 off', amount: -10_000 });
  });
});

describe('GST by kind', () => {
  it('within a state: CGST and SGST (UTGST in a territory without a legislature), their halves adding up', () => {
    expect(gstLines(12_191, 1800, { intraState: true, unionTerritoryTax: false })).toEqual([
      { name: 'CGST', rateBasisPoints: 900, amountMinor: 6_096 },
      { name: 'SGST', rateBasisPoints: 900, amountMinor: 6_095 },
    ]);
    expect(gstLines(100, 500, { intraState: true, unionTerritoryTax: true }).map((tax) => tax.name)).toEqual([
      'CGST',
      'UTGST',
    ]);
    expect(gstLines(100, 1800, { intraState: false, unionTerritoryTax: false })).toEqual([
      { name: 'IGST', rateBasisPoints: 1800, amountMinor: 100 },
    ]);
  });

  it('place of supply: the buyer’s GSTIN, else their state, unknown is the seller’s state; abroad is an export', () => {
    const settings = {
      seller: { name: 'Seller', address: [], taxId: '29AAGCB7383J1Z4', email: undefined },
      tax: inclusive,
      exportNote: 'Supply meant for export under LUT without payment of IGST',
      invoiceSeries: 'INV',
      creditNoteSeries: 'CN',
    } satisfies InvoiceSettings;
    const breakdown = (given: InvoiceSettings, buyer: TreatmentBuyer, taxMinor: number) => {
      const treatment = decideTaxTreatment(given, buyer);
      return { placeOfSupply: treatment.placeOfSupply, taxes: taxLinesFor(given, treatment, taxMinor) };
    };
    const kinds = (buyer: TreatmentBuyer) => {
      const { taxes, placeOfSupply } = breakdown(settings, buyer, 1_000);
      return [placeOfSupply, taxes.map((tax) => tax.name).join('+')];
    };
    expect(kinds({ country: 'IN', tax_id: '27AAPFU0939F1ZV', region: 'Karnataka' })).toEqual([
      'Maharashtra (27)',
      'IGST',
    ]);
    expect(kinds({ country: 'IN', tax_id: null, region: 'karnataka' })).toEqual([
      'Karnataka (29)',
      'CGST+SGST',
    ]);
    expect(kinds({ country: 'DE', tax_id: 'DE123456789', region: null })).toEqual(['Outside India', '']);
    expect(kinds({ country: null, tax_id: null })).toEqual(['Karnataka (29)', 'CGST+SGST']);
    // Not GST, or no seller GSTIN: one line under the configured name.
    expect(
      breakdown({ ...settings, tax: { ...inclusive, name: 'VAT' } }, { country: 'IN', tax_id: null }, 5)
        .taxes,
    ).toEqual([{ name: 'VAT', rateBasisPoints: 1800, amountMinor: 5 }]);
    expect(
      breakdown(
        { ...settings, seller: { ...settings.seller, taxId: undefined } },
        { country: null, tax_id: null },
        5,
      ).placeOfSupply,
    ).toBeNull();
  });

  it('a credit note’s tax is shared by the invoice’s kinds and adds up', () => {
    expect(shareTax(5_001, [6_096, 6_095])).toEqual([2_501, 2_500]);
    expect(shareTax(7, [10])).toEqual([7]);
    expect(shareTax(0, [])).toEqual([]);
  });
});
