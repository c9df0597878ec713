import { findGstState, type GstState } from '../../../shared/gst-states.js';
import type { Invoice } from '../../../shared/api/invoices.js';

/**
 * Where a supply is taxed under India's GST (tax-treatment.ts decides the tax from it). The
 * seller's state is the one its GSTIN names (its first two digits). The buyer's is the state of
 * their GSTIN, else the state of their Indian billing address; a buyer outside India is an
 * inter-state supply (IGST Act, s. 7(5)), an export zero-rated under LUT (s. 16); with no address on record the place of supply is the
 * seller's own state (IGST Act, s. 12(2)(b)), so the tax is CGST + SGST.
 */

/** Union territories without a legislature of their own: their half of the GST is UTGST. */
export const UTGST_TERRITORIES = new Set(['04', '26', '31', '35', '38']);

/** The state a GSTIN is registered in, from its first two digits. */
export function stateOfGstin(gstin: string | null | undefined): GstState | undefined {
  if (!gstin || !/^\d{2}[0-9A-Z]{13}$/.test(gstin)) return undefined;
  return findGstState(gstin.slice(0, 2));
}

export type Buyer = Pick<Invoice['buyer'], 'country' | 'tax_id'> & { region?: string | null };

/** The buyer's state, `abroad` for a buyer outside India, undefined when no state is on record. */
export function buyerLocation(buyer: Buyer): GstState | 'abroad' | undefined {
  if (buyer.country === null) return undefined;
  if (buyer.country !== 'IN') return 'abroad';
  return stateOfGstin(buyer.tax_id) ?? (buyer.region ? findGstState(buyer.region) : undefined);
}
