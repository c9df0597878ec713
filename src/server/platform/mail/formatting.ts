/**
 * How mail writes money and moments: amounts are integers in the currency's minor unit (paise,
 * cents) written with Intl in the currency's own number of decimals; dates are written on the
 * UTC calendar with the month as a word, so "3 Apr 2026" is never read as 4 March.
 */

/** `formatMoney(49900, 'INR')` → "₹499.00"; a currency Intl does not know is written as its code. */
export function formatMoney(amountMinor: number, currency: string): string {
  const code = currency.toUpperCase();
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat('en', { style: 'currency', currency: code });
  } catch {
    return `${(amountMinor / 100).toFixed(2)} ${code}`;
  }
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountMinor / 10 ** decimals);
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const asDate = (moment: Date | string) => (typeof moment === 'string' ? new Date(moment) : moment);

/** "3 April 2026" (UTC). */
export const formatDate = (moment: Date | string): string => dateFormat.format(asDate(moment));

/** "3 April 2026, 14:05 UTC". */
export const formatDateTime = (moment: Date | string): string =>
  `${dateFormat.format(asDate(moment))}, ${timeFormat.format(asDate(moment))} UTC`;
