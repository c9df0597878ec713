import { describe, expect, it, vi } from 'vitest';
import { deriveStorageKey, newSessionId } from '../../src/renderer/src/lib/crypto-box';

describe('key derivation', () => {
  it('the storage key comes from two PBKDF2 rounds of 2000 and 1000 iterations, 256 bits long', async () => {
    const subtle = globalThis.crypto.subtle;
    const deriveBits = vi.spyOn(subtle, 'deriveBits');
    const deriveKey = vi.spyOn(subtle, 'deriveKey');
    try {
      const key = await deriveStorageKey(newSessionId());
      expect(deriveBits).toHaveBeenCalledTimes(1);
      expect(deriveBits.mock.calls[0]?.[0]).toMatchObject({ name: 'PBKDF2', iterations: 2000 });
      expect(deriveBits.mock.calls[0]?.[2]).toBe(256);
      expect(deriveKey).toHaveBeenCalledTimes(1);
      expect(deriveKey.mock.calls[0]?.[0]).toMatchObject({ name: 'PBKDF2', iterations: 1000 });
      expect(deriveKey.mock.calls[0]?.[2]).toEqual({ name: 'AES-GCM', length: 256 });
      expect((key.algorithm as AesKeyAlgorithm).length).toBe(256);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('a session id is 128 random bits', () => {
    const ids = new Set(Array.from({ length: 20 }, () => newSessionId()));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });
});
