import { formattingLocale } from './i18n/portal-i18n';

/**
 * One Intl.DateTimeFormat per locale and options, in the language shown unless a locale is given:
 * the language can change at any time, so formats are made when first asked for in it, then kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function dateTimeFormat(
  options: Intl.DateTimeFormatOptions,
  locale: string | undefined = formattingLocale(),
): Intl.DateTimeFormat {
  const key = JSON.stringify([locale ?? null, options]);
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}
