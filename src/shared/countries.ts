import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

/**
 * The countries a billing address may name: ISO 3166-1 alpha-2 codes as the maintained
 * i18n-iso-countries package lists them (the officially assigned codes, and XK for Kosovo), each
 * with its English name. The form offers this list and the server accepts only its codes, so the
 * two cannot disagree; withdrawn codes (DD, YU, CS…) are not on it.
 */
export interface Country {
  code: string;
  name: string;
}

const names = new Map<string, string>(
  Object.entries(english.countries).map(([code, name]) => [
    code,
    // The first name is the official short name; the others are aliases.
    typeof name === 'string' ? name : (name[0] ?? code),
  ]),
);

/** Every country by name, for a list to choose from. */
export const COUNTRIES: readonly Country[] = [...names]
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

/**
 * Codes the portal once offered (it listed every code the browser could name) that ISO 3166-1 has
 * withdrawn, each with the current code of the country the portal showed for it: a customer who
 * chose "Germany" may have saved DD. Billing details saved then read as the current code.
 */
const WITHDRAWN: Readonly<Record<string, string>> = {
  AN: 'CW',
  BU: 'MM',
  CS: 'RS',
  DD: 'DE',
  DY: 'BJ',
  FX: 'FR',
  HV: 'BF',
  NH: 'VU',
  RH: 'ZW',
  SU: 'RU',
  TP: 'TL',
  UK: 'GB',
  VD: 'VN',
  YD: 'YE',
  YU: 'RS',
  ZR: 'CD',
};

/** Whether `code` (upper case) is a country of the list. */
export const isCountryCode = (code: string): boolean => names.has(code);

/**
 * The code to show and use for a stored country: the code itself when it is on the list, the
 * current one for a code the portal once offered, else undefined (stored data never makes this throw).
 */
export function currentCountryCode(code: string): string | undefined {
  const upper = code.trim().toUpperCase();
  if (names.has(upper)) return upper;
  return WITHDRAWN[upper];
}

/** The English name of a country code (a withdrawn one the portal offered reads as its successor). */
export function countryName(code: string): string | undefined {
  const current = currentCountryCode(code);
  return current === undefined ? undefined : names.get(current);
}
