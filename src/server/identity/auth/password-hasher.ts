import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { ConcurrencyLimit } from '../../platform/concurrency-limit.js';
import { HttpError } from '../../platform/http-error.js';

/** argon2id's work per hash: memory in KiB, and passes over it. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
}

/** OWASP's minimum for argon2id: 19 MiB, two passes (with one lane). */
export const OWASP_PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 19_456, timeCost: 2 };

/** The same password typed on different keyboards or systems must hash the same (NIST SP 800-63B). */
export const normalizePassword = (password: string): string => password.normalize('NFKC');

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or an unreadable hash. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Spends the time of a real verification, so unknown accounts answer as slowly as known ones. */
  burnVerificationTime(password: string): Promise<void>;
}

export interface PasswordHasherOptions {
  /** Hashes computed at once; the rest queue. Fewer than the cores leaves one for the event loop. */
  maxConcurrency: number;
  /** Hashes allowed to wait before new sign-ins are told to come back (503). */
  maxQueue: number;
  /**
   * OWASP's minimum unless given. Only tests give less: their thousands of sign-ins would otherwise
   * spend minutes hashing. A stored hash names its cost, so verifying works whatever it was.
   */
  cost?: PasswordHashCost;
}

/**
 * argon2id off the event loop (libuv's thread pool), with a cap on hashes in flight: unbounded,
 * a sign-in storm would take every core and every pool thread, and stall all other requests,
 * token signing included, behind it.
 */
export function createPasswordHasher(options: PasswordHasherOptions): PasswordHasher {
  // `Algorithm` is a const enum the compiler cannot inline here; 2 is its Argon2id member.
  const argon2Options = {
    algorithm: 2 as Algorithm,
    parallelism: 1,
    ...(options.cost ?? OWASP_PASSWORD_HASH_COST),
  };
  const limit = new ConcurrencyLimit(
    options.maxConcurrency,
    options.maxQueue,
    () =>
      new HttpError(503, 'server_busy', 'The server is busy signing people in. Try again in a moment.', {
        'retry-after': '2',
      }),
  );
  // Made once, outside the limit: a failure here (a full queue) must never be remembered, or
  // unknown accounts would answer differently from known ones for good.
  let dummyHash: Promise<string> | undefined;

  const hasher: PasswordHasher = {
    hash: (password) => limit.run(() => hash(normalizePassword(password), argon2Options)),
    async verify(passwordHash, password) {
      try {
        return await limit.run(() => verify(passwordHash, normalizePassword(password)));
      } catch (error) {
        if (error instanceof HttpError) throw error;
        return false;
      }
    },
    async burnVerificationTime(password) {
      dummyHash ??= hash('not-a-real-password-used-for-timing', argon2Options);
      await hasher.verify(await dummyHash, password);
    },
  };
  return hasher;
}
