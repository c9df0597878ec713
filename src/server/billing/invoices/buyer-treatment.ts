import type { DbOrTransaction } from '../../platform/db/database.js';
import type { BillingDetailsRow } from '../../platform/db/tables.js';
import { findOrganisationBilling } from './charges-repository.js';
import { findBillingDetails } from './repository.js';
import { decideTaxTreatment, pricingTax, type PricingTax, type TreatmentSettings } from './tax-treatment.js';

/**
 * The tax an account's own purchase is priced with, from its billing details as saved now: the
 * checkout charges what the invoice, issued from the same details when the payment settles, bills.
 */
export async function accountPricingTax(
  db: DbOrTransaction,
  settings: TreatmentSettings,
  userId: string,
): Promise<PricingTax> {
  const details = await findBillingDetails(db, userId);
  const treatment = decideTaxTreatment(settings, {
    country: details?.country ?? null,
    tax_id: details?.tax_id ?? null,
    region: details?.region ?? null,
  });
  return pricingTax(settings.tax, treatment);
}

/**
 * The tax an organisation's purchase is priced with, from the billing details it saved (its
 * invoices are made out to them; without them it is billed as a sale in India).
 */
export async function organisationPricingTax(
  db: DbOrTransaction,
  settings: TreatmentSettings,
  organisationId: string,
): Promise<PricingTax> {
  const organisation = await findOrganisationBilling(db, organisationId);
  const details = organisation?.billing_details
    ? (JSON.parse(organisation.billing_details) as Partial<BillingDetailsRow>)
    : undefined;
  const treatment = decideTaxTreatment(settings, {
    country: details?.country ?? null,
    tax_id: details?.tax_id ?? null,
    region: details?.region ?? null,
  });
  return pricingTax(settings.tax, treatment);
}

/** The tax a subscription's charges are priced with: its organisation's when it has one, else its account's. */
export function subscriptionPricingTax(
  db: DbOrTransaction,
  settings: TreatmentSettings,
  subscription: { user_id: string | null; organisation_id: string | null },
): Promise<PricingTax> {
  if (subscription.organisation_id) return organisationPricingTax(db, settings, subscription.organisation_id);
  if (subscription.user_id) return accountPricingTax(db, settings, subscription.user_id);
  return Promise.resolve(settings.tax);
}

/**
 * The billing country of who buys: an organisation's when it is bought for one, else the account's;
 * null when no billing details were saved. It decides the currency a price is shown and charged in.
 */
export async function buyerCountry(
  db: DbOrTransaction,
  buyer: { userId: string; organisationId?: string | undefined },
): Promise<string | null> {
  if (buyer.organisationId) {
    const organisation = await findOrganisationBilling(db, buyer.organisationId);
    const details = organisation?.billing_details
      ? (JSON.parse(organisation.billing_details) as Partial<BillingDetailsRow>)
      : undefined;
    return details?.country ?? null;
  }
  return (await findBillingDetails(db, buyer.userId))?.country ?? null;
}
