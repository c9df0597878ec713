import { describe, expect, it } from 'vitest';
import { estimatePasswordStrength } from '../../../src/renderer/src/components/password/password-strength';

describe('password strength estimate', () => {
  it.each([
    ['short', 'abc1!', 0],
    ['a well-known word', 'password', 0],
    ['a well-known word with a digit', 'Password1', 0],
    ['a keyboard walk', 'qwertyuiop', 0],
    ['an alphabet run', 'abcdefghijkl', 0],
    ['one repeated character', 'aaaaaaaaaaaa', 0],
    ['eight lower-case letters', 'mydogmax', 0],
    ['letters and digits', 'hunter2847', 1],
    ['mixed classes, eleven characters', 'Tr0ub4dor&3', 2],
    ['a long passphrase', 'correct horse battery staple', 3],
  ] as const)('rates %s (%s) at level %i', (_name, password, score) => {
    expect(estimatePasswordStrength(password).score).toBe(score);
  });

  it('labels the four levels Weak, Fair, Good, Strong', () => {
    expect(estimatePasswordStrength('mydogmax').label).toBe('Weak');
    expect(estimatePasswordStrength('hunter2847').label).toBe('Fair');
    expect(estimatePasswordStrength('Tr0ub4dor&3').label).toBe('Good');
    expect(estimatePasswordStrength('correct horse battery staple').label).toBe('Strong');
  });

  it('server rule: 8 to 128 characters', () => {
    expect(estimatePasswordStrength('Ab1!xy7').lengthOk).toBe(false);
    expect(estimatePasswordStrength('Ab1!xy7z').lengthOk).toBe(true);
    expect(estimatePasswordStrength('x'.repeat(128)).lengthOk).toBe(true);
    const tooLong = estimatePasswordStrength(`${'Zq9!'.repeat(32)}k`);
    expect(tooLong.lengthOk).toBe(false);
    expect(tooLong.score).toBe(0);
  });

  it('server rule: a password equal to the email (or its part before @) is refused, whatever its length', () => {
    const email = 'Dana.Whitfield@example.com';
    expect(estimatePasswordStrength('dana.whitfield@example.com', email)).toMatchObject({
      notEmail: false,
      score: 0,
    });
    expect(estimatePasswordStrength('DANA.WHITFIELD', email)).toMatchObject({ notEmail: false, score: 0 });
    expect(estimatePasswordStrength('correct horse battery staple', email).notEmail).toBe(true);
    // A short local part is not a rule of the server, so the meter does not invent one.
    expect(estimatePasswordStrength('abc', 'abc@example.com').notEmail).toBe(true);
  });

  it('flags the obvious words but leaves the real common-password check to the server', () => {
    expect(estimatePasswordStrength('letmein2024').obviouslyCommon).toBe(true);
    expect(estimatePasswordStrength('violet-harbour-lamp').obviouslyCommon).toBe(false);
  });
});
