import { describe, expect, it } from 'vitest';
import { loginFormSchema } from '../../../src/shared/api/auth';
import {
  signInNameError,
  signInPasswordError,
  validateSignIn,
} from '../../../src/renderer/src/features/auth/sign-in-form';
// The portal's language (English until another is shown): the form's messages are written in it.
import '../../../src/renderer/src/lib/i18n/portal-i18n';

/** The first message the shared schema gives for `value`, or null when it accepts it. */
function schemaError(field: 'username' | 'password', value: string): string | null {
  const result = loginFormSchema.shape[field].safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'invalid');
}

// The login page checks its fields by hand (no zod on /login); these must answer as the shared schema does.
describe('sign-in form checks match the shared login schema', () => {
  it.each([
    '',
    '   ',
    'ada@example.com',
    '  ada@example.com  ',
    'not an address',
    'a',
    'a'.repeat(254),
    ` ${'a'.repeat(254)} `,
    'a'.repeat(255),
    'ada\u0000@example.com',
    'ada\u0007@example.com',
    'ada\t@example.com',
    `${'a'.repeat(255)}\u0000`,
    'ünïcødé@example.com',
    '\ud800ada',
  ])('email %j', (value) => {
    expect(signInNameError(value)).toBe(schemaError('username', value));
  });

  it.each(['', ' ', 'x', 'secret-secret', 'a'.repeat(1024), 'a'.repeat(1025), '\u0000'])(
    'password %j',
    (value) => {
      expect(signInPasswordError(value)).toBe(schemaError('password', value));
    },
  );

  it('is keyed by the form fields', () => {
    expect(validateSignIn.email('')).toBe('Enter your e-mail address');
    expect(validateSignIn.password('')).toBe('Password is required');
  });
});
