import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Encrypts the providers' client secrets at rest, under a key of their own from the server secret. */
export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

const VERSION = 'v1';

/**
 * AES-256-GCM with a fresh 96-bit nonce per secret; the key is HKDF of the server secret, so a
 * database copy alone does not give the secrets away, and instances sharing the secret share it.
 */
export function createSecretCipher(serverSecret: Uint8Array): SecretCipher {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'sso client secret', 32));
  return {
    encrypt(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, nonce, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(value) {
      const [version, nonce, tag, sealed] = value.split('.');
      if (version !== VERSION || !nonce || !tag || sealed === undefined)
        throw new Error('not a sealed client secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
