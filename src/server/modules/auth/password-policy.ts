import { dictionary } from '@zxcvbn-ts/language-common';
import { badRequest } from '../../http-error.js';
import { normalizePassword } from './password-hasher.js';

let commonPasswords: Set<string> | undefined;

function isCommon(password: string): boolean {
  commonPasswords ??= new Set(
    (dictionary['passwords-common'] as string[]).map((entry) => entry.toLowerCase()),
  );
  return commonPasswords.has(password.toLowerCase());
}

const TOO_COMMON =
  'This password is too common or too easy to guess. Choose a longer phrase that is unique to this account.';

/**
 * The server's rule for new passwords beyond their length (checked by the schema): no composition
 * rules, but nothing from the common-password list and nothing that is just the account's e-mail.
 * Returns what is wrong, or `undefined` for an acceptable password.
 */
export function newPasswordProblem(password: string, email: string): string | undefined {
  // Checked in the form that is hashed, so full-width or other look-alike characters do not
  // slip a common password through.
  const normalized = normalizePassword(password);
  const lowered = normalized.toLowerCase();
  const localPart = email.split('@')[0] ?? '';
  const guessable =
    isCommon(normalized) || lowered === email || (localPart.length >= 4 && lowered === localPart);
  return guessable ? TOO_COMMON : undefined;
}

/** {@link newPasswordProblem} as a 400 answer, for the API. */
export function assertAcceptableNewPassword(password: string, email: string): void {
  const problem = newPasswordProblem(password, email);
  if (problem) throw badRequest('password_too_common', problem);
}
