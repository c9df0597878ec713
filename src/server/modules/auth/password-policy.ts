import { dictionary } from '@zxcvbn-ts/language-common';
import { badRequest } from '../../http-error.js';

let commonPasswords: Set<string> | undefined;

function isCommon(password: string): boolean {
  commonPasswords ??= new Set(
    (dictionary['passwords-common'] as string[]).map((entry) => entry.toLowerCase()),
  );
  return commonPasswords.has(password.toLowerCase());
}

/**
 * The server's rule for new passwords beyond their length (checked by the schema): no composition
 * rules, but nothing from the common-password list and nothing that is just the account's e-mail.
 */
export function assertAcceptableNewPassword(password: string, email: string): void {
  const lowered = password.toLowerCase();
  const localPart = email.split('@')[0] ?? '';
  if (isCommon(password) || lowered === email || (localPart.length >= 4 && lowered === localPart)) {
    throw badRequest(
      'password_too_common',
      'This password is too common or too easy to guess. Choose a longer phrase that is unique to this account.',
    );
  }
}
