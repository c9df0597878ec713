import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '../../../shared/api/two-factor.js';
import type { Clock } from '../../platform/clock.js';
import { conflict } from '../../platform/http-error.js';

/**
 * Authenticator-app codes (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, as every app
 * supports) and the encryption of their secrets at rest (AES-256-GCM under the server's
 * two-factor key): with TWO_FACTOR_KEY set, or on SQLite, a copy of the database alone cannot
 * compute anybody's codes (on PostgreSQL a generated key is kept in the database, see two-factor-key.ts).
 */

/**
 * A secret this server cannot decrypt: sealed under another TWO_FACTOR_KEY. The person can still
 * sign in with a recovery code or a passkey; the message names the setting for whoever runs it.
 */
export const unreadableSecretError = () =>
  conflict(
    'two_factor_key_mismatch',
    'This server cannot read your authenticator app secret: it was sealed with a different TWO_FACTOR_KEY. ' +
      'Use a recovery code or a passkey, and ask the administrator to give every instance the same TWO_FACTOR_KEY.',
  );

/** Steps either side of now a code is accepted for: clocks of phones drift. */
const ACCEPTED_DRIFT_STEPS = 1;

export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/** `key` is the configured or generated secret; the AES key is its SHA-256. Sealed: iv.tag.ciphertext (base64url). */
export function createSecretCipher(key: string): SecretCipher {
  const aesKey = createHash('sha256').update(key).digest();
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },
    decrypt(sealed) {
      try {
        const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
        if (!iv || !tag || !body) throw new Error('malformed two-factor secret');
        const decipher = createDecipheriv('aes-256-gcm', aesKey, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        // GCM refuses a secret sealed under another key ("unable to authenticate data"): that is
        // instances or restarts with different keys, a fault of the setting, not of the caller.
        throw unreadableSecretError();
      }
    },
  };
}

const totpOf = (base32Secret: string, label = '') =>
  new TOTP({
    issuer: PRODUCT_NAME,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32Secret),
  });

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** What an app needs to enrol: the otpauth URI and the same as a QR code (SVG). */
export async function totpEnrolmentOf(
  base32Secret: string,
  accountName: string,
): Promise<{ otpauthUri: string; qrSvg: string }> {
  const otpauthUri = totpOf(base32Secret, accountName).toString();
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri, qrSvg };
}

/**
 * The time step `code` is valid for at the clock's now (within the accepted drift), or null.
 * The caller refuses a step at or before the last one accepted: that is a replay.
 */
export function matchTotpStep(base32Secret: string, code: string, clock: Clock): number | null {
  const totp = totpOf(base32Secret);
  const timestamp = clock.now().getTime();
  const delta = totp.validate({ token: code, timestamp, window: ACCEPTED_DRIFT_STEPS });
  if (delta === null) return null;
  return totp.counter({ timestamp }) + delta;
}
