import { KEY_DERIVATION_ITERATIONS, KEY_LENGTH_BITS, SESSION_ID_BITS } from '../../../shared/constants';

const SALT_PREFIX = 'desktop-ai-assistant/secure-storage/v2/round-';
const IV_BYTES = 12;
const encoder = new TextEncoder();

function subtleCrypto(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto is not available (the portal needs a secure context)');
  return subtle;
}

/** 128 random bits as hex (the session id): the secret from which a storage key is derived. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SESSION_ID_BITS / 8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** PBKDF2 in two rounds (2000, then 1000 iterations) to a 256-bit AES-GCM key. */
export async function deriveStorageKey(secret: string): Promise<CryptoKey> {
  const subtle = subtleCrypto();
  let material = encoder.encode(secret) as BufferSource;
  const rounds = KEY_DERIVATION_ITERATIONS.length;
  for (const [round, iterations] of KEY_DERIVATION_ITERATIONS.entries()) {
    const base = await subtle.importKey('raw', material, 'PBKDF2', false, ['deriveBits', 'deriveKey']);
    const params = {
      name: 'PBKDF2',
      hash: 'SHA-256',
      salt: encoder.encode(`${SALT_PREFIX}${round}`),
      iterations,
    };
    if (round === rounds - 1) {
      return subtle.deriveKey(params, base, { name: 'AES-GCM', length: KEY_LENGTH_BITS }, false, [
        'encrypt',
        'decrypt',
      ]);
    }
    material = await subtle.deriveBits(params, base, KEY_LENGTH_BITS);
  }
  throw new Error('No key derivation rounds configured');
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const fromBase64Url = (text: string) => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (char) =>
    char.charCodeAt(0),
  );
};

/** AES-GCM with a fresh 96-bit IV; the result is `base64url(iv ‖ ciphertext)`, safe in a cookie. */
export async function encryptText(key: CryptoKey, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await subtleCrypto().encrypt({ name: 'AES-GCM', iv }, key, encoder.encode(plaintext));
  const out = new Uint8Array(IV_BYTES + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), IV_BYTES);
  return toBase64Url(out);
}

/** The plaintext, or null when the data was sealed with another key or was tampered with. */
export async function decryptText(key: CryptoKey, sealed: string): Promise<string | null> {
  try {
    const bytes = fromBase64Url(sealed);
    if (bytes.length <= IV_BYTES) return null;
    const plain = await subtleCrypto().decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES) },
      key,
      bytes.slice(IV_BYTES),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
