/**
 * How mail writes money and moments: amounts are integers in the currency's minor unit (paise,
 * cents) written with Intl in the currency's own number of decimals; dates are written on the
 * UTC calendar with the month as a word, so "3 Apr 2026" is never read as 4 March. Each takes the
 * recipient's language (mail-i18n.ts: `i18n.locale`); English when none is given.
 */

/** The Intl locale a mail language writes numbers and dates in; English dates are British. */
const locales: Record<string, { money: string; date: string }> = {
  en: { money: 'en', date: 'en-GB' },
  de: { money: 'de-DE', date: 'de-DE' },
  es: { money: 'es-ES', date: 'es-ES' },
  hi: { money: 'hi-IN', date: 'hi-IN' },
};
const localeOf = (language: string) => locales[language] ?? locales.en!;

/** `formatMoney(49900, 'INR')` → "₹499.00"; a currency Intl does not know is written as its code. */
export function formatMoney(amountMinor: number, currency: string, language = 'en'): string {
  const code = currency.toUpperCase();
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(localeOf(language).money, { style: 'currency', currency: code });
  } catch {
    return `${(amountMinor / 100).toFixed(2)} ${code}`;
  }
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountMinor / 10 ** decimals);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(language: string): Intl.DateTimeFormat {
  const locale = localeOf(language).date;
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    dateFormats.set(locale, format);
  }
  return format;
}

function timeFormat(language: string): Intl.DateTimeFormat {
  const locale = localeOf(language).date;
  let format = timeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormats.set(locale, format);
  }
  return format;
}

const asDate = (moment: Date | string) => (typeof moment === 'string' ? new Date(moment) : moment);

/** "3 April 2026" (UTC); "3. April 2026" in German. */
export const formatDate = (moment: Date | string, language = 'en'): string =>
  dateFormat(language).format(asDate(moment));

/** "3 April 2026, 14:05 UTC". */
export const formatDateTime = (moment: Date | string, language = 'en'): string =>
  `${dateFormat(language).format(asDate(moment))}, ${timeFormat(language).format(asDate(moment))} UTC`;

/** `formatCount(12500)` → "12,500"; "12.500" in German. */
export const formatCount = (value: number, language = 'en'): string =>
  new Intl.NumberFormat(localeOf(language).money).format(value);

/** `formatPercent(80)` → "80%"; "80 %" in German. Whole percents, rounded down. */
export const formatPercent = (percent: number, language = 'en'): string =>
  new Intl.NumberFormat(localeOf(language).money, { style: 'percent', maximumFractionDigits: 0 }).format(
    Math.floor(percent) / 100,
  );
