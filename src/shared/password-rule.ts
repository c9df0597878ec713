import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { emailParts, passwordContainsEmail } from './password-email-rule.js';
import { passwordFeedbackTexts } from './password-feedback.js';

/**
 * The one rule for new passwords beyond their length (the schemas check that), used by the server
 * to refuse and by the portal's strength meter to warn first: zxcvbn must rate the password at
 * least {@link MIN_PASSWORD_SCORE}, and it must not contain the account's e-mail address or name.
 * zxcvbn finds what a short list cannot: repeats, sequences, keyboard walks, dates, l33t spellings
 * of common passwords. Its dictionaries weigh hundreds of KB, so the portal loads this lazily.
 */

/**
 * zxcvbn's 3 means about 10^8 guesses: out of reach online (sign-in is rate limited and locks out)
 * and costly offline against argon2id, while a few unrelated words still pass easily; 4 would also
 * turn away many memorable phrases.
 */
export const MIN_PASSWORD_SCORE = 3;
/**
 * Only this many characters are scored, which keeps a check to tens of milliseconds: zxcvbn's
 * matching grows faster than the length. A start this long that scores well is strong whatever
 * follows; the e-mail rule still reads the whole password.
 */
const SCORED_LENGTH = 64;
/** Parts of the e-mail name shorter than this are too common to mean anything personal. */
const MIN_PERSONAL_WORD_LENGTH = 3;

export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export interface NewPasswordVerdict {
  acceptable: boolean;
  /** zxcvbn's 0–4 (0 when the password contains the e-mail, whatever zxcvbn thinks of it). */
  score: PasswordScore;
  /** zxcvbn rates it at least {@link MIN_PASSWORD_SCORE}, leaving the e-mail rule aside. */
  hardToGuess: boolean;
  containsEmail: boolean;
  /** Why zxcvbn finds it easy to guess, when it does. */
  warning: string | undefined;
  /** zxcvbn's advice for a better one; empty when it has none. */
  suggestions: string[];
  /** What is wrong and what to do, for the person choosing it; `undefined` when acceptable. */
  problem: string | undefined;
}

const CONTAINS_EMAIL =
  'This password contains the e-mail address or the name before its @. Choose one that does not.';
const TOO_EASY = 'This password is too common or too easy to guess.';
const WHAT_TO_DO = 'Choose a longer phrase that is unique to this account.';

let zxcvbn: ZxcvbnFactory | undefined;

/** Built on first use: building the ranked dictionaries takes a few tens of milliseconds. */
function scorer(): ZxcvbnFactory {
  zxcvbn ??= new ZxcvbnFactory({
    dictionary,
    graphs: adjacencyGraphs,
    translations: passwordFeedbackTexts,
    maxLength: SCORED_LENGTH,
  });
  return zxcvbn;
}

/** What an attacker who knows the address tries first: it, its name and the name's parts. */
function personalWords(email: string): string[] {
  const { address, name } = emailParts(email);
  const parts = name.split(/[^\p{L}\p{N}]+/u);
  return [...new Set([address, name, ...parts])].filter((word) => word.length >= MIN_PERSONAL_WORD_LENGTH);
}

/** Judges a new password for the account with this e-mail (empty while the address is unknown). */
export function judgeNewPassword(password: string, email = ''): NewPasswordVerdict {
  const containsEmail = passwordContainsEmail(password, email);
  // Scored in the form the server hashes (NFKC), so full-width look-alikes count as what they are.
  const result = scorer().check(password.normalize('NFKC'), personalWords(email));
  const hardToGuess = result.score >= MIN_PASSWORD_SCORE;
  const warning = result.feedback.warning ?? undefined;
  let problem: string | undefined;
  if (containsEmail) problem = CONTAINS_EMAIL;
  else if (!hardToGuess) problem = [TOO_EASY, warning, WHAT_TO_DO].filter(Boolean).join(' ');
  return {
    acceptable: problem === undefined,
    score: containsEmail ? 0 : result.score,
    hardToGuess,
    containsEmail,
    warning,
    suggestions: result.feedback.suggestions,
    problem,
  };
}
