import { describe, expect, it } from 'vitest';
import { generatePassword } from '../../src/server/identity/first-admin.js';
import { passwordContainsEmail } from '../../src/shared/password-email-rule.js';
import { judgeNewPassword, MIN_PASSWORD_SCORE } from '../../src/shared/password-rule.js';
import { STRONG_PASSWORD } from '../support/test-server.js';

const EMAIL = 'jonathan.smith@example.com';

describe('the new-password rule shared by the server and the portal', () => {
  it.each([
    ['a repeated character', 'aaaaaaaa', 'Repeated characters like "aaa" are easy to guess.'],
    ['an alphabet run', 'abcdefgh', 'Sequences like "abc" or "6543" are easy to guess.'],
    ['a keyboard row', 'qwertyuiop', 'This is a very often used password.'],
    ['a keyboard walk over two rows', '1q2w3e4r5t', 'This is a commonly used password.'],
    ['the most common password', 'password', 'This is one of the most used passwords.'],
    ['a common password in full-width letters', 'ｐａｓｓｗｏｒｄ１', 'This is a commonly used password.'],
  ])('refuses %s (%s), saying why and what to do', (_kind, password, warning) => {
    const verdict = judgeNewPassword(password, EMAIL);
    expect(verdict).toMatchObject({ acceptable: false, hardToGuess: false, containsEmail: false, warning });
    expect(verdict.score).toBeLessThan(MIN_PASSWORD_SCORE);
    expect(verdict.problem).toBe(
      `This password is too common or too easy to guess. ${warning} Choose a longer phrase that is unique to this account.`,
    );
    expect(verdict.suggestions.length).toBeGreaterThan(0);
  });

  it.each([
    ['a passphrase', 'violet harbour lamp 42'],
    ["the tests' own passphrase", STRONG_PASSWORD],
    ['a generated first-admin password', generatePassword()],
  ])('accepts %s', (_kind, password) => {
    expect(judgeNewPassword(password, EMAIL)).toMatchObject({
      acceptable: true,
      hardToGuess: true,
      problem: undefined,
      warning: undefined,
    });
  });

  it.each([
    ['the e-mail name with a year', 'jonathan.smith2024'],
    ['the e-mail name in capitals inside a strong phrase', 'violet JONATHAN.SMITH harbour'],
    ['the e-mail name without its dot', 'JonathanSmith!!'],
    ['the whole address', 'Jonathan.Smith@Example.com'],
  ])('refuses %s (%s), whatever zxcvbn makes of it', (_kind, password) => {
    expect(judgeNewPassword(password, EMAIL)).toMatchObject({
      acceptable: false,
      containsEmail: true,
      score: 0,
      problem:
        'This password contains the e-mail address or the name before its @. Choose one that does not.',
    });
  });

  it('reads an e-mail name shorter than four characters as a hint to zxcvbn only', () => {
    expect(passwordContainsEmail('bob violet harbour 42', 'bob@example.com')).toBe(false);
    expect(judgeNewPassword('bob violet harbour 42', 'bob@example.com').acceptable).toBe(true);
    // The whole address is still refused, however short its name.
    expect(passwordContainsEmail('my bob@example.com', 'bob@example.com')).toBe(true);
    expect(passwordContainsEmail('anything at all', '')).toBe(false);
  });

  it('scores only the first 64 characters, but looks for the e-mail in all of them', () => {
    const strongStart = 'Xq7!kz#9Lm2$wPt8'.repeat(4);
    // Whatever follows 64 repeated letters is not scored, so the cost stays bounded.
    expect(judgeNewPassword(`${'a'.repeat(64)} violet harbour lamp 42`).acceptable).toBe(false);
    expect(judgeNewPassword(`${strongStart}${'a'.repeat(64)}`).acceptable).toBe(true);
    expect(judgeNewPassword(`${strongStart}jonathan.smith`, EMAIL)).toMatchObject({ containsEmail: true });
  });
});
