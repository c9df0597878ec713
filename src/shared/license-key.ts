/**
 * License keys: 23 random Crockford base-32 characters (115 bits) and 2 check characters, shown
 * in five groups of five (`7KQ2M-…`). The check characters catch a mistyped or swapped character
 * before any lookup, and Crockford's alphabet has no I, L, O or U to misread.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_LENGTH = 23;
export const LICENSE_KEY_LENGTH = RANDOM_LENGTH + 2;
export const LICENSE_KEY_PATTERN = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/;

const valueOf = (character: string) => ALPHABET.indexOf(character);

/** Two check characters: Luhn mod 32 (every single error, most swaps) and a position-weighted sum. */
function checkCharacters(payload: string): string {
  let luhn = 0;
  let weighted = 0;
  for (let index = 0; index < payload.length; index += 1) {
    const value = valueOf(payload[payload.length - 1 - index] as string);
    const doubled = index % 2 === 0 ? value * 2 : value;
    luhn += Math.floor(doubled / 32) + (doubled % 32);
    weighted += value * (index + 1);
  }
  return `${ALPHABET[(32 - (luhn % 32)) % 32]}${ALPHABET[weighted % 32]}`;
}

const grouped = (characters: string) => characters.match(/.{5}/g)?.join('-') ?? characters;

/** A new key from `randomValues` (Web Crypto or node:crypto fill a byte array alike). */
export function generateLicenseKey(randomValues: (bytes: Uint8Array) => Uint8Array): string {
  const bytes = randomValues(new Uint8Array(RANDOM_LENGTH));
  // 256 is a multiple of 32, so taking each byte modulo 32 keeps every character equally likely.
  const payload = Array.from(bytes, (byte) => ALPHABET[byte % 32]).join('');
  return grouped(payload + checkCharacters(payload));
}

/**
 * The canonical form of a typed key (upper case, Crockford look-alikes mapped, spaces and dashes
 * ignored), or `undefined` when it cannot be a key: wrong length, foreign characters or a failed check.
 */
export function normalizeLicenseKey(typed: string): string | undefined {
  const characters = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (characters.length !== LICENSE_KEY_LENGTH || [...characters].some((c) => valueOf(c) < 0))
    return undefined;
  const payload = characters.slice(0, RANDOM_LENGTH);
  return checkCharacters(payload) === characters.slice(RANDOM_LENGTH) ? grouped(characters) : undefined;
}

/** `7KQ2M-•••••-•••••-•••••-XY9Z4`: enough to recognise a key on screen without showing it. */
export const maskLicenseKey = (key: string) =>
  key
    .split('-')
    .map((group, index, groups) => (index === 0 || index === groups.length - 1 ? group : '•••••'))
    .join('-');
