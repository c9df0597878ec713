import { formattingLocale } from './i18n/portal-i18n';

/**
 * One Intl.NumberFormat per locale and options: making one costs about as much as rendering a plan
 * card, and a page of plans or payments asks for dozens with the same options. Without a locale,
 * the language shown (it can change at any time, so the cache is per locale, not one per options).
 */
const formatters = new Map<string, Intl.NumberFormat>();

export function numberFormat(
  locale: string | undefined = formattingLocale(),
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat {
  const key = JSON.stringify([locale ?? null, options]);
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}
