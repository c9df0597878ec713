import { type Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's minimum for argon2id: 19 MiB, two passes, one lane. Hashing runs on libuv's thread
// pool, off the event loop.
// `Algorithm` is a const enum the compiler cannot inline here; 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

// The same password typed on different keyboards or systems must hash the same (NIST SP 800-63B).
const normalize = (password: string): string => password.normalize('NFKC');

export const hashPassword = (password: string): Promise<string> => hash(normalize(password), ARGON2_OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, normalize(password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of a real verification, so unknown accounts answer as slowly as known ones. */
export async function burnVerificationTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-used-for-timing');
  await verifyPassword(await dummyHash, password);
}
