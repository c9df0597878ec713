import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX } from '../../../shared/api/api-tokens.js';

// `aap_` + 32 random bytes as base64url (43 characters) + the CRC32 of those 43 characters in
// 6 base62 digits, as GitHub's tokens do: a secret scanner recognises a token by its prefix and
// tells a real one from a look-alike offline by the checksum, and the server refuses a mistyped
// or made-up token before looking anything up.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;

function base62(value: number, width: number): string {
  let digits = '';
  let rest = value;
  for (let index = 0; index < width; index++) {
    digits = BASE62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  }
  return digits;
}

const checksumOf = (body: string) => base62(crc32(body), CHECKSUM_LENGTH);

/** A new token: the secret to show once. */
export function generateApiToken(): string {
  const body = randomBytes(32).toString('base64url');
  return `${API_TOKEN_PREFIX}${body}${checksumOf(body)}`;
}

/** Whether a bearer is meant as an API token (rather than a session's access token). */
export const looksLikeApiToken = (bearer: string) => bearer.startsWith(API_TOKEN_PREFIX);

/** Whether the token has the right shape and its checksum matches its body. */
export function hasValidChecksum(token: string): boolean {
  if (!API_TOKEN_PATTERN.test(token)) return false;
  const body = token.slice(API_TOKEN_PREFIX.length, API_TOKEN_PREFIX.length + BODY_LENGTH);
  return token.slice(-CHECKSUM_LENGTH) === checksumOf(body);
}

export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** What lists show: the prefix with the first four characters of the body, and the last four. */
export const displayParts = (token: string) => ({
  prefix: token.slice(0, API_TOKEN_PREFIX.length + 4),
  last_four: token.slice(-4),
});
