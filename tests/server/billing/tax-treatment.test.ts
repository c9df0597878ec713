import { describe, expect, it } from 'vitest';
import type { InvoiceSettings } from '../../../src/server/billing/invoices/settings.js';
import { chargeForPrice } from '../../../src/server/billing/invoices/tax.js';
import {
  decideTaxTreatment,
  pricingTax,
  REVERSE_CHARGE_NOTE,
  taxLinesFor,
  type TreatmentBuyer,
} from '../../../src/server/billing/invoices/tax-treatment.js';
import { itemiseCharge } from '../../../src/server/billing/invoices/itemise.js';

/** Issue 34, item 8: tax by customer, every case of the one module that decides it. */

const LUT = 'Supply meant for export under LUT without payment of IGST, LUT ARN AD2904250012345';

const settings = {
  seller: { name: 'Seller', address: [], taxId: '29AAGCB7383J1Z4', email: undefined },
  tax: { name: 'GST', rateBasisPoints: 1800, inclusive: true },
  exportNote: LUT,
  invoiceSeries: 'INV',
  creditNoteSeries: 'CN',
} satisfies InvoiceSettings;

describe('tax by customer: the treatment of a sale by a seller in Karnataka', () => {
  const cases: {
    name: string;
    buyer: TreatmentBuyer;
    kind: string;
    taxes: string;
    placeOfSupply: string | null;
    notes: string[];
    vat: string | null;
  }[] = [
    {
      name: 'an Indian buyer in the seller’s state: CGST + SGST',
      buyer: { country: 'IN', tax_id: null, region: 'Karnataka' },
      kind: 'gst_intra_state',
      taxes: 'CGST+SGST',
      placeOfSupply: 'Karnataka (29)',
      notes: [],
      vat: null,
    },
    {
      name: 'an Indian business in another state (by its GSTIN): IGST',
      buyer: { country: 'IN', tax_id: '27AAPFU0939F1ZV', region: 'Karnataka' },
      kind: 'gst_inter_state',
      taxes: 'IGST',
      placeOfSupply: 'Maharashtra (27)',
      notes: [],
      vat: null,
    },
    {
      name: 'an Indian consumer in another state: IGST',
      buyer: { country: 'IN', tax_id: null, region: 'West Bengal' },
      kind: 'gst_inter_state',
      taxes: 'IGST',
      placeOfSupply: 'West Bengal (19)',
      notes: [],
      vat: null,
    },
    {
      name: 'no billing details: the seller’s state',
      buyer: { country: null, tax_id: null },
      kind: 'gst_intra_state',
      taxes: 'CGST+SGST',
      placeOfSupply: 'Karnataka (29)',
      notes: [],
      vat: null,
    },
    {
      name: 'a US consumer: export, no GST, the LUT note',
      buyer: { country: 'US', tax_id: null, region: 'CA' },
      kind: 'export',
      taxes: '',
      placeOfSupply: 'Outside India',
      notes: [LUT],
      vat: null,
    },
    {
      name: 'a US business with a tax id: export all the same (no reverse charge outside the EU)',
      buyer: { country: 'US', tax_id: '12-3456789', region: null },
      kind: 'export',
      taxes: '',
      placeOfSupply: 'Outside India',
      notes: [LUT],
      vat: null,
    },
    {
      name: 'a German business with a VAT number: export with the reverse charge',
      buyer: { country: 'DE', tax_id: 'DE123456789', region: null },
      kind: 'eu_reverse_charge',
      taxes: '',
      placeOfSupply: 'Outside India',
      notes: [LUT, REVERSE_CHARGE_NOTE],
      vat: 'DE123456789',
    },
    {
      name: 'a Greek business (prefix EL): reverse charge',
      buyer: { country: 'GR', tax_id: 'EL123456789', region: null },
      kind: 'eu_reverse_charge',
      taxes: '',
      placeOfSupply: 'Outside India',
      notes: [LUT, REVERSE_CHARGE_NOTE],
      vat: 'EL123456789',
    },
    {
      name: 'a German consumer (no VAT number): export, no reverse charge',
      buyer: { country: 'DE', tax_id: null, region: null },
      kind: 'export',
      taxes: '',
      placeOfSupply: 'Outside India',
      notes: [LUT],
      vat: null,
    },
    {
      name: 'a German number of the wrong format (saved before the check): not a business, no reverse charge',
      buyer: { country: 'DE', tax_id: 'DE12345', region: null },
      kind: 'export',
      taxes: '',
      placeOfSupply: 'Outside India',
      notes: [LUT],
      vat: null,
    },
    {
      name: 'a French VAT number given for a German address: not that country’s, no reverse charge',
      buyer: { country: 'DE', tax_id: 'FR12345678901', region: null },
      kind: 'export',
      taxes: '',
      placeOfSupply: 'Outside India',
      notes: [LUT],
      vat: null,
    },
  ];

  it.each(cases)('$name', ({ buyer, kind, taxes, placeOfSupply, notes, vat }) => {
    const treatment = decideTaxTreatment(settings, buyer);
    expect(treatment).toEqual({
      kind,
      chargesTax: taxes !== '',
      placeOfSupply,
      notes,
      buyerVatNumber: vat,
    });
    expect(
      taxLinesFor(settings, treatment, 1_000)
        .map((tax) => tax.name)
        .join('+'),
    ).toBe(taxes);
  });

  it('a seller in a union territory without a legislature: CGST + UTGST within it', () => {
    const chandigarh = { ...settings, seller: { ...settings.seller, taxId: '04AAGCB7383J1Z4' } };
    const treatment = decideTaxTreatment(chandigarh, { country: 'IN', tax_id: null, region: 'Chandigarh' });
    expect(taxLinesFor(chandigarh, treatment, 100).map((tax) => tax.name)).toEqual(['CGST', 'UTGST']);
  });

  it('a tax that is not GST, or a seller without a GSTIN: one line at home, still no tax on an export', () => {
    const vat = { ...settings, tax: { ...settings.tax, name: 'VAT' } };
    const home = decideTaxTreatment(vat, { country: 'IN', tax_id: null });
    expect(home.kind).toBe('domestic');
    expect(taxLinesFor(vat, home, 5)).toEqual([{ name: 'VAT', rateBasisPoints: 1800, amountMinor: 5 }]);
    const abroad = decideTaxTreatment(vat, { country: 'US', tax_id: null });
    expect(abroad).toMatchObject({ kind: 'export', chargesTax: false, placeOfSupply: null });
    const unregistered = { ...settings, seller: { ...settings.seller, taxId: undefined } };
    expect(decideTaxTreatment(unregistered, { country: 'IN', tax_id: null }).kind).toBe('domestic');
  });

  it('the charge: GST when it applies; an export pays the price without its tax, inclusive or exclusive', () => {
    const home = decideTaxTreatment(settings, { country: 'IN', tax_id: null, region: 'Karnataka' });
    const abroad = decideTaxTreatment(settings, { country: 'US', tax_id: null });
    expect(chargeForPrice(99_900, pricingTax(settings.tax, home))).toBe(99_900);
    // ₹999 including 18 % GST is ₹846.61 before it.
    expect(chargeForPrice(99_900, pricingTax(settings.tax, abroad))).toBe(84_661);
    const exclusive = { ...settings.tax, inclusive: false };
    expect(chargeForPrice(99_900, pricingTax(exclusive, home))).toBe(117_882);
    expect(chargeForPrice(99_900, pricingTax(exclusive, abroad))).toBe(99_900);
  });

  it('an export’s lines are at the prices without tax, a coupon’s discount the difference it made, and no tax', () => {
    const abroad = pricingTax(settings.tax, decideTaxTreatment(settings, { country: 'US', tax_id: null }));
    const charged = chargeForPrice(99_900 - 10_000, abroad);
    const { lines, split, linesIncludeTax } = itemiseCharge(
      {
        plan: { name: 'Pro', billing_interval: 'month', price_minor: 99_900 },
        planId: 'pro',
        recurring: false,
        quantity: 1,
        perSeat: false,
        coupon: { code: 'SAVE100', percentOff: null, amountOffMinor: 10_000, unitDiscountMinor: 10_000 },
        seatsAdded: undefined,
        chargedMinor: charged,
        currency: 'INR',
      },
      abroad,
    );
    expect(linesIncludeTax).toBe(false);
    expect(split).toEqual({ netMinor: charged, taxMinor: 0, grossMinor: charged });
    expect(lines.map((line) => line.amount)).toEqual([84_661, -(84_661 - charged)]);
    expect(lines.reduce((sum, line) => sum + line.amount, 0)).toBe(charged);
  });
});
