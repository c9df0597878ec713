import { countryName, currentCountryCode } from '../../../shared/countries';

const displayNames = new Map<string, Intl.DisplayNames | null>();

/** The browser's names of regions in `locale` (one per locale), or null where it has none. */
function namesIn(locale: string): Intl.DisplayNames | null {
  if (!displayNames.has(locale)) {
    let names: Intl.DisplayNames | null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    } catch {
      names = null;
    }
    displayNames.set(locale, names);
  }
  return displayNames.get(locale) ?? null;
}

/**
 * A country's name in `locale` (undefined: English). shared/countries.ts names each country in
 * English, which the server keeps; the portal shows the browser's name for the language chosen,
 * the English where the browser has none. A withdrawn code the portal once offered reads as its successor.
 */
export function countryNameIn(code: string, locale: string | undefined): string {
  const current = currentCountryCode(code);
  const english = (current && countryName(current)) ?? code;
  if (locale === undefined || current === undefined) return english;
  return namesIn(locale)?.of(current) ?? english;
}
