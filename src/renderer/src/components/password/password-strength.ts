import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../shared/constants';

export type StrengthScore = 0 | 1 | 2 | 3;

export const STRENGTH_LABELS = ['Weak', 'Fair', 'Good', 'Strong'] as const;

export interface PasswordStrength {
  score: StrengthScore;
  label: (typeof STRENGTH_LABELS)[StrengthScore];
  /** Rough guessing entropy in bits, after discounting repeats, sequences and well-known words. */
  bits: number;
  /** The server's length rule (8–128 characters). */
  lengthOk: boolean;
  /** The password is not the account's e-mail address (nor its part before @). */
  notEmail: boolean;
  /** The password is built on one of the handful of words every guessing list starts with. */
  obviouslyCommon: boolean;
}

/** Keyboard rows and alphabets: walking along one is barely harder to guess than one key. */
const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
/**
 * A few words at the top of every cracking list. Deliberately short: the server checks the full
 * list of common passwords and has the final say; this only keeps the meter from praising them.
 */
const OBVIOUS_WORDS = [
  'password',
  'passw0rd',
  'qwerty',
  'letmein',
  'welcome',
  'iloveyou',
  'admin',
  'dragon',
  'monkey',
  'football',
  'baseball',
  'sunshine',
  'princess',
  'master',
  'login',
  '123456',
];
/** Bits from which each score starts: 2 ≈ offline-attack resistant with a slow hash, 3 ≈ comfortably so. */
const SCORE_BITS = [0, 40, 60, 80] as const;

function poolSize(password: string): number {
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/[0-9]/.test(password)) pool += 10;
  if (/[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/.test(password)) pool += 33;
  if (/[^\x20-\x7e]/.test(password)) pool += 100;
  return Math.max(pool, 1);
}

function isSequenceStep(previous: string, current: string): boolean {
  const pair = `${previous}${current}`.toLowerCase();
  return SEQUENCES.some(
    (sequence) => sequence.includes(pair) || sequence.includes([...pair].reverse().join('')),
  );
}

/** Length that counts: a repeated or next-in-sequence character adds only a quarter of one. */
function effectiveLength(password: string): number {
  let length = 0;
  let previous: string | undefined;
  for (const character of password) {
    const predictable =
      previous !== undefined && (previous === character || isSequenceStep(previous, character));
    length += predictable ? 0.25 : 1;
    previous = character;
  }
  return length;
}

/**
 * A small, dependency-free strength estimate for the meter beside new-password fields: length,
 * character classes, repeats and sequences, well-known words, and whether it is the e-mail.
 * It advises only; the server decides (its length rule, its common-password list, the e-mail rule).
 */
export function estimatePasswordStrength(password: string, email = ''): PasswordStrength {
  const lowered = password.toLowerCase();
  const address = email.trim().toLowerCase();
  const localPart = address.split('@')[0] ?? '';
  const length = [...password].length;
  const lengthOk = length >= PASSWORD_MIN_LENGTH && length <= PASSWORD_MAX_LENGTH;
  const notEmail =
    address === '' || (lowered !== address && !(localPart.length >= 4 && lowered === localPart));
  const commonWord = OBVIOUS_WORDS.find((word) => lowered.includes(word));
  const obviouslyCommon = commonWord !== undefined;

  // A well-known word counts as a single guess-sized chunk rather than as its letters.
  const remainder = commonWord ? lowered.replace(commonWord, '') : password;
  const chunks = effectiveLength(remainder) + (commonWord ? 1 : 0);
  const bits = Math.round(chunks * Math.log2(poolSize(password)));

  let score = ([3, 2, 1, 0] as const).find((level) => bits >= SCORE_BITS[level]) ?? 0;
  if (!lengthOk || !notEmail) score = 0;
  return { score, label: STRENGTH_LABELS[score], bits, lengthOk, notEmail, obviouslyCommon };
}
