/**
 * EU VAT identification numbers, checked by format only (no network: VIES is not asked). Each
 * member state's pattern after its prefix is the one the European Commission publishes for VIES
 * ("VAT number validation", ec.europa.eu/taxation_customs/vies). Written here rather than taken
 * from a library (jsvat and the like) because the portal and the server share it, it is 27
 * patterns, and a format check is all a reverse charge note needs; check digits are not verified.
 */

import { countryName } from './countries.js';

/** The VAT prefix of each member state: the ISO code, except Greece (EL). */
const PREFIX: Record<string, string> = { GR: 'EL' };

/** What follows the prefix, per member state (ISO 3166-1 code). */
const FORMATS: Record<string, { pattern: RegExp; example: string }> = {
  AT: { pattern: /^U\d{8}$/, example: 'ATU12345678' },
  BE: { pattern: /^[01]\d{9}$/, example: 'BE0123456789' },
  BG: { pattern: /^\d{9,10}$/, example: 'BG123456789' },
  CY: { pattern: /^\d{8}[A-Z]$/, example: 'CY12345678X' },
  CZ: { pattern: /^\d{8,10}$/, example: 'CZ12345678' },
  DE: { pattern: /^\d{9}$/, example: 'DE123456789' },
  DK: { pattern: /^\d{8}$/, example: 'DK12345678' },
  EE: { pattern: /^\d{9}$/, example: 'EE123456789' },
  ES: { pattern: /^(?=.*[A-Z])[A-Z0-9]\d{7}[A-Z0-9]$/, example: 'ESX1234567X' },
  FI: { pattern: /^\d{8}$/, example: 'FI12345678' },
  FR: { pattern: /^[0-9A-HJ-NP-Z]{2}\d{9}$/, example: 'FR12345678901' },
  GR: { pattern: /^\d{9}$/, example: 'EL123456789' },
  HR: { pattern: /^\d{11}$/, example: 'HR12345678901' },
  HU: { pattern: /^\d{8}$/, example: 'HU12345678' },
  IE: { pattern: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, example: 'IE1234567WA' },
  IT: { pattern: /^\d{11}$/, example: 'IT12345678901' },
  LT: { pattern: /^(\d{9}|\d{12})$/, example: 'LT123456789' },
  LU: { pattern: /^\d{8}$/, example: 'LU12345678' },
  LV: { pattern: /^\d{11}$/, example: 'LV12345678901' },
  MT: { pattern: /^\d{8}$/, example: 'MT12345678' },
  NL: { pattern: /^\d{9}B\d{2}$/, example: 'NL123456789B01' },
  PL: { pattern: /^\d{10}$/, example: 'PL1234567890' },
  PT: { pattern: /^\d{9}$/, example: 'PT123456789' },
  RO: { pattern: /^[1-9]\d{1,9}$/, example: 'RO1234567890' },
  SE: { pattern: /^\d{10}01$/, example: 'SE123456789001' },
  SI: { pattern: /^\d{8}$/, example: 'SI12345678' },
  SK: { pattern: /^\d{10}$/, example: 'SK1234567890' },
};

/** The 27 member states of the European Union (ISO 3166-1 codes). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set(Object.keys(FORMATS));

export const isEuCountry = (country: string | null | undefined): boolean =>
  country !== null && country !== undefined && EU_COUNTRIES.has(country);

/** The prefix a VAT number of `country` starts with (`EL` for Greece). */
export const vatPrefix = (country: string): string => PREFIX[country] ?? country;

/**
 * A VAT number as it is stored and printed: upper case, without the spaces, dots and hyphens
 * people type, and with the country's prefix (added when only the digits were typed).
 */
export function normalizeVatNumber(country: string, value: string): string {
  const compact = value.replace(/[\s.-]+/g, '').toUpperCase();
  const pattern = FORMATS[country]?.pattern;
  const prefix = vatPrefix(country);
  if (pattern && !compact.startsWith(prefix) && pattern.test(compact)) return `${prefix}${compact}`;
  return compact;
}

/**
 * Why `vatNumber` (normalized) is not a VAT number of `country`, or undefined when its format is
 * right. Only for member states; the message names the expected shape with an example.
 */
export function vatNumberProblem(country: string, vatNumber: string): string | undefined {
  const format = FORMATS[country];
  if (!format) return undefined;
  const prefix = vatPrefix(country);
  if (!vatNumber.startsWith(prefix) || !format.pattern.test(vatNumber.slice(prefix.length)))
    return `This is not a VAT number of ${countryName(country) ?? country}: it should look like ${format.example}`;
  return undefined;
}
