import { numberFormat } from './number-format';

/** Digits of the currency's minor unit (2 for USD and INR, 0 for JPY), as Intl knows them. */
function minorDigits(currency: string, locale?: string): number {
  try {
    return numberFormat(locale, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount in the currency's minor unit for people: "₹999", "$19.50", and "Free" for nothing (a
 * price or a payment of nothing; `formatMoney` writes "₹0" where nothing is an amount like another).
 */
export function formatAmount(minor: number, currency: string, locale?: string): string {
  if (minor === 0) return 'Free';
  const digits = minorDigits(currency, locale);
  const value = minor / 10 ** digits;
  try {
    return numberFormat(locale, {
      style: 'currency',
      currency,
      // Whole amounts read cleaner without ".00".
      minimumFractionDigits: Number.isInteger(value) ? 0 : digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    return `${value.toFixed(digits)} ${currency}`;
  }
}

/** An amount in minor units: "₹999", "₹8,167.12", and "₹0" (never "Free": a credit or charge of nothing). */
export function formatMoney(minor: number, currency: string): string {
  if (minor !== 0) return formatAmount(minor, currency);
  return numberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 0 }).format(0);
}
