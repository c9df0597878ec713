/**
 * India's GST identification number (GSTIN), 15 characters: a 2-digit state code, the holder's
 * 10-character PAN, an entity number, the letter Z, and a check character computed from the
 * first 14 with the mod-36 algorithm of the GST Network.
 */

const GSTIN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** State and union territory codes 01–38, 97 (other territory) and 99 (centre jurisdiction). */
const isStateCode = (code: string): boolean => {
  if (!/^\d{2}$/.test(code)) return false;
  const value = Number(code);
  return (value >= 1 && value <= 38) || value === 97 || value === 99;
};

/** The check character for the first 14 characters (upper case, from the GSTIN alphabet). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index++) {
    const value = GSTIN_ALPHABET.indexOf(first14.charAt(index));
    if (value < 0) throw new RangeError(`not a GSTIN character: ${first14.charAt(index)}`);
    const product = value * (index % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_ALPHABET.charAt((36 - (sum % 36)) % 36);
}

/** Spaces and hyphens people type between groups are dropped; letters are upper-cased. */
export const normalizeGstin = (value: string): string => value.replace(/[\s-]+/g, '').toUpperCase();

/** What is wrong with a GSTIN (already normalized), in words a customer can act on; undefined if valid. */
export function gstinProblem(gstin: string): string | undefined {
  if (gstin.length !== 15) return `A GSTIN has 15 characters; this one has ${gstin.length}`;
  if (!/^[0-9A-Z]+$/.test(gstin)) return 'A GSTIN has only letters and digits';
  if (!isStateCode(gstin.slice(0, 2))) return 'A GSTIN starts with a state code: 01 to 38, 97 or 99';
  if (!/^[A-Z]{5}[0-9]{4}[A-Z]$/.test(gstin.slice(2, 12)))
    return 'Characters 3 to 12 of a GSTIN are the PAN: 5 letters, 4 digits, 1 letter';
  if (!/^[1-9A-Z]$/.test(gstin.charAt(12))) return 'Character 13 of a GSTIN is the entity number: 1–9 or A–Z';
  if (gstin.charAt(13) !== 'Z') return 'Character 14 of a GSTIN is always Z';
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin.charAt(14))
    return 'This GSTIN’s check character does not match: a character is probably mistyped';
  return undefined;
}
