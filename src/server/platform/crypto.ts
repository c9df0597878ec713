import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A URL-safe random secret of `bytes` bytes (256 bits by default). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Compares secrets in time that depends neither on where they differ nor on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}
