import { findGstState, type GstState } from '../../../shared/gst-states.js';
import type { Invoice } from '../../../shared/api/invoices.js';
import { gstLines, type TaxLine } from './tax.js';
import type { InvoiceSettings } from './settings.js';

/**
 * Where a supply is taxed under India's GST, and so which kinds of GST an invoice carries. The
 * seller's state is the one its GSTIN names (its first two digits). The buyer's is the state of
 * their GSTIN, else the state of their Indian billing address; a buyer outside India is an
 * inter-state supply (IGST Act, s. 7(5)); with no address on record the place of supply is the
 * seller's own state (IGST Act, s. 12(2)(b)), so the tax is CGST + SGST.
 */

/** Union territories without a legislature of their own: their half of the GST is UTGST. */
const UTGST_TERRITORIES = new Set(['04', '26', '31', '35', '38']);

/** The state a GSTIN is registered in, from its first two digits. */
export function stateOfGstin(gstin: string | null | undefined): GstState | undefined {
  if (!gstin || !/^\d{2}[0-9A-Z]{13}$/.test(gstin)) return undefined;
  return findGstState(gstin.slice(0, 2));
}

type Buyer = Pick<Invoice['buyer'], 'country' | 'tax_id'> & { region?: string | null };

/** The buyer's state, `abroad` for a buyer outside India, undefined when no state is on record. */
function buyerLocation(buyer: Buyer): GstState | 'abroad' | undefined {
  if (buyer.country === null) return undefined;
  if (buyer.country !== 'IN') return 'abroad';
  return stateOfGstin(buyer.tax_id) ?? (buyer.region ? findGstState(buyer.region) : undefined);
}

export interface TaxBreakdown {
  taxes: TaxLine[];
  /** Printed as the place of supply, e.g. `Karnataka (29)`; null when the tax is not India's GST. */
  placeOfSupply: string | null;
}

/**
 * The tax lines of an invoice carrying `taxMinor` of tax: by kind of GST when the tax is GST and
 * the seller's GSTIN names its state, else one line under the configured name. No tax, no line.
 */
export function taxBreakdown(settings: InvoiceSettings, buyer: Buyer, taxMinor: number): TaxBreakdown {
  const { name, rateBasisPoints } = settings.tax;
  if (rateBasisPoints === 0 && taxMinor === 0) return { taxes: [], placeOfSupply: null };
  const sellerState = stateOfGstin(settings.seller.taxId?.toUpperCase());
  if (name.trim().toUpperCase() !== 'GST' || !sellerState)
    return { taxes: [{ name, rateBasisPoints, amountMinor: taxMinor }], placeOfSupply: null };
  const location = buyerLocation(buyer) ?? sellerState;
  const intraState = location !== 'abroad' && location.code === sellerState.code;
  return {
    taxes: gstLines(taxMinor, rateBasisPoints, {
      intraState,
      unionTerritoryTax: UTGST_TERRITORIES.has(sellerState.code),
    }),
    placeOfSupply: location === 'abroad' ? 'Outside India' : `${location.name} (${location.code})`,
  };
}
