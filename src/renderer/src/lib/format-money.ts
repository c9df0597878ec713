import { t } from '@lingui/core/macro';
import { formattingLocale } from './i18n/portal-i18n';
import { numberFormat } from './number-format';

/** Digits of the currency's minor unit (2 for USD and INR, 0 for JPY), as Intl knows them. */
function minorDigits(currency: string, locale: string | undefined): number {
  try {
    return numberFormat(locale, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount in the currency's minor unit for people, in the language shown unless `locale` says
 * otherwise: "₹999", "$19.50", and "Free" for nothing (a price or a payment of nothing;
 * `formatMoney` writes "₹0" where nothing is an amount like another).
 */
export function formatAmount(minor: number, currency: string, locale = formattingLocale()): string {
  if (minor === 0) return t`Free`;
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
  return numberFormat(formattingLocale(), { style: 'currency', currency, maximumFractionDigits: 0 }).format(
    0,
  );
}
