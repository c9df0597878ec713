import { countryName } from '../../../shared/countries';

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
 * A country's name in `locale` (undefined: English), as the browser's own data has it: the list of
 * shared/countries.ts names each in English, which the server keeps; the portal shows the name in
 * the language chosen, its English where the browser knows none.
 */
export function countryNameIn(code: string, locale: string | undefined): string {
  const english = countryName(code) ?? code;
  if (locale === undefined) return english;
  return namesIn(locale)?.of(code) ?? english;
}
