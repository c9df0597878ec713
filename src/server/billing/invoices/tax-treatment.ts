import type { TaxTreatmentKind } from '../../../shared/api/invoices.js';
import { isEuCountry, vatNumberProblem } from '../../../shared/eu-vat.js';
import { buyerLocation, stateOfGstin, UTGST_TERRITORIES, type Buyer } from './place-of-supply.js';
import type { InvoiceSettings, TaxSettings } from './settings.js';
import { gstLines, type TaxLine } from './tax.js';

/**
 * The one place that decides how a sale is taxed, from the seller (its GSTIN, the configured tax
 * and export note) and the buyer (country, state, GSTIN or EU VAT number). The seller is in India:
 *
 * - a buyer in India (or with no country on record) pays GST: CGST + SGST within the seller's
 *   state, IGST across states (see place-of-supply.ts); one line under the configured name when the
 *   tax is not GST or the seller has no GSTIN naming its state;
 * - a buyer outside India buys an export of services: zero-rated, no GST charged, and the invoice
 *   carries the seller's LUT note (TAX_EXPORT_NOTE);
 * - a business in the EU, known by a VAT number of its country's format, is that export too, and
 *   its invoice also says the VAT is reverse-charged and prints its VAT number.
 *
 * Decided when a charge is priced and when its invoice is issued; the invoice records it, and its
 * PDF, receipts and credit notes read it from there, never deciding again.
 */

export const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT to be accounted for by the recipient';

export interface TaxTreatment {
  kind: TaxTreatmentKind;
  /** False for an export: no tax is charged, the buyer pays the price without its tax. */
  chargesTax: boolean;
  /** Printed as the place of supply, e.g. `Karnataka (29)`; null when the tax is not India's GST. */
  placeOfSupply: string | null;
  /** Printed under the totals: the LUT note of an export, the reverse charge wording. */
  notes: string[];
  /** The buyer's EU VAT number, for a reverse-charged sale. */
  buyerVatNumber: string | null;
}

export type TreatmentSettings = Pick<InvoiceSettings, 'seller' | 'tax' | 'exportNote'>;
export type TreatmentBuyer = Buyer;

const isGst = (tax: TaxSettings) => tax.name.trim().toUpperCase() === 'GST';

/** How a sale by the configured seller to `buyer` is taxed. */
export function decideTaxTreatment(settings: TreatmentSettings, buyer: TreatmentBuyer): TaxTreatment {
  const location = buyerLocation(buyer);
  if (location === 'abroad') {
    const country = buyer.country ?? '';
    const vatNumber = buyer.tax_id ?? null;
    const business =
      isEuCountry(country) && vatNumber !== null && vatNumberProblem(country, vatNumber) === undefined;
    return {
      kind: business ? 'eu_reverse_charge' : 'export',
      chargesTax: false,
      placeOfSupply: isGst(settings.tax) ? 'Outside India' : null,
      notes: business ? [settings.exportNote, REVERSE_CHARGE_NOTE] : [settings.exportNote],
      buyerVatNumber: business ? vatNumber : null,
    };
  }
  const sellerState = stateOfGstin(settings.seller.taxId?.toUpperCase());
  if (!isGst(settings.tax) || !sellerState)
    return { kind: 'domestic', chargesTax: true, placeOfSupply: null, notes: [], buyerVatNumber: null };
  const state = location ?? sellerState;
  return {
    kind: state.code === sellerState.code ? 'gst_intra_state' : 'gst_inter_state',
    chargesTax: true,
    placeOfSupply: `${state.name} (${state.code})`,
    notes: [],
    buyerVatNumber: null,
  };
}

/**
 * The tax lines of a charge carrying `taxMinor` of tax under `treatment`: by kind of GST, else one
 * line under the configured name. No tax, no line.
 */
export function taxLinesFor(
  settings: Pick<InvoiceSettings, 'seller' | 'tax'>,
  treatment: TaxTreatment,
  taxMinor: number,
): TaxLine[] {
  const { name, rateBasisPoints } = settings.tax;
  if (!treatment.chargesTax || (rateBasisPoints === 0 && taxMinor === 0)) return [];
  if (treatment.kind === 'domestic') return [{ name, rateBasisPoints, amountMinor: taxMinor }];
  const sellerState = stateOfGstin(settings.seller.taxId?.toUpperCase());
  return gstLines(taxMinor, rateBasisPoints, {
    intraState: treatment.kind === 'gst_intra_state',
    unionTerritoryTax: sellerState !== undefined && UTGST_TERRITORIES.has(sellerState.code),
  });
}

/**
 * The tax a charge is priced with for this buyer: the configured tax, or for an export none, with
 * `zeroRated` set so that a price including the tax is charged without it (see `chargeForPrice`).
 */
export const pricingTax = (tax: TaxSettings, treatment: Pick<TaxTreatment, 'chargesTax'>): PricingTax =>
  treatment.chargesTax ? tax : { ...tax, zeroRated: true };

/** The configured tax, marked when the sale is zero-rated (an export). */
export type PricingTax = TaxSettings & { zeroRated?: boolean };
