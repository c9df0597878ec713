/**
 * The sign-in form's own checks, written out by hand so the login page does not load zod: the same
 * rules and messages as the shared `loginFormSchema` fields (`signInNameSchema` for the e-mail,
 * `currentPasswordSchema` for the password), which the server applies again to what is sent.
 * tests/renderer/components/sign-in-form.test.ts holds the two to the same answers. The messages
 * are written in the language shown when the form checks.
 */
import { t } from '@lingui/core/macro';

export interface SignInValues {
  email: string;
  password: string;
}

/** Bounds of the shared schemas (an e-mail address is at most 254 characters; hashing stays cheap to refuse). */
export const SIGN_IN_NAME_MAX_LENGTH = 254;
export const SIGN_IN_PASSWORD_MAX_LENGTH = 1024;

const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cs}]*$/u;

/** `signInNameSchema`: trimmed, required, bounded, no control characters. */
export function signInNameError(value: string): string | null {
  const name = value.trim();
  if (name.length < 1) return t`Enter your e-mail address`;
  if (name.length > SIGN_IN_NAME_MAX_LENGTH) return t`E-mail address is too long`;
  if (!NO_CONTROL_CHARACTERS.test(name)) return t`Must not contain control characters`;
  return null;
}

/** `currentPasswordSchema`: any password up to a bound, not trimmed. */
export function signInPasswordError(value: string): string | null {
  if (value.length < 1) return t`Password is required`;
  if (value.length > SIGN_IN_PASSWORD_MAX_LENGTH) return t`Password is too long`;
  return null;
}

/** Errors by field, as Mantine's `useForm({ validate })` takes them. */
export const validateSignIn = {
  email: signInNameError,
  password: signInPasswordError,
} satisfies Record<keyof SignInValues, (value: string) => string | null>;
