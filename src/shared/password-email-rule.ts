/**
 * A new password must not contain the account's e-mail address, nor the name before the @: both
 * are the first things someone who knows the address tries. Kept free of zxcvbn so the portal's
 * forms can check it at once, before the strength rule has loaded.
 */

/** Shorter names ("ann", "li") turn up by chance inside unrelated phrases too often to refuse. */
const MIN_EMAIL_NAME_LENGTH = 4;

/** Compared in the form the server hashes (NFKC), so look-alike characters do not slip through. */
const comparablePassword = (password: string): string => password.normalize('NFKC').toLowerCase();

const comparableEmail = (email: string): string => email.trim().normalize('NFKC').toLowerCase();

/** The address (trimmed, lower-cased) and its name before @. */
export function emailParts(email: string): { address: string; name: string } {
  const address = comparableEmail(email);
  return { address, name: address.split('@')[0] ?? '' };
}

const lettersAndDigits = (text: string): string => text.replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Whether the password contains the e-mail address, or its name before @. Case and punctuation do
 * not count: "JonathanSmith!" and "jonathan_smith" both contain the name "jonathan.smith".
 */
export function passwordContainsEmail(password: string, email: string): boolean {
  const { address, name } = emailParts(email);
  if (address === '') return false;
  const typed = comparablePassword(password);
  const bareName = lettersAndDigits(name);
  return (
    typed.includes(address) ||
    (bareName.length >= MIN_EMAIL_NAME_LENGTH && lettersAndDigits(typed).includes(bareName))
  );
}
