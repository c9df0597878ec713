import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import {
  looksUntranslated,
  pseudoMessage,
  pseudoText,
} from '../../../src/renderer/src/lib/i18n/pseudo-locale';

/** The letters of a text, without the padding the pseudo-locale adds. */
const withoutPadding = (text: string) => text.replaceAll('·', '');

describe('pseudoText', () => {
  it('accents every Latin letter and keeps the rest', () => {
    const text = pseudoText('Save changes');
    expect(withoutPadding(text)).toBe('Šáṽé çĥáñĝéš');
    expect(looksUntranslated(text)).toBe(false);
  });

  it('makes the text about 40 % longer, the padding after the last word', () => {
    const text = pseudoText('Delete this license?');
    // 17 letters: ceil(17 × 0.4) = 7 dots, before the question mark.
    expect(text).toBe(`Ďéĺéţé ţĥíš ĺíçéñšé${'·'.repeat(7)}?`);
    expect(text.length / 'Delete this license?'.length).toBeCloseTo(1.35, 1);
  });

  it('keeps the full stop last', () => {
    expect(pseudoText('Saved.').endsWith('.')).toBe(true);
  });

  it('leaves text without letters as it is', () => {
    expect(pseudoText('12 / 34 — …')).toBe('12 / 34 — …');
  });
});

describe('pseudoMessage', () => {
  it('keeps placeholders as they are', () => {
    const message = pseudoMessage(compileMessage('Signed in as {name}')) as unknown[];
    expect(message).toContainEqual(['name']);
    const text = message.filter((token) => typeof token === 'string').join('');
    expect(withoutPadding(text)).toBe('Šíĝñéď íñ áš ');
  });

  it('keeps the # and the choices of a plural, each made pseudo', () => {
    const compiled = compileMessage('{count, plural, one {# seat} other {# seats}}');
    const [token] = pseudoMessage(compiled) as [[string, string, Record<string, unknown[]>]];
    const [name, type, choices] = token;
    expect([name, type]).toEqual(['count', 'plural']);
    expect(choices['one']).toContain('#');
    expect(choices['other']).toContain('#');
    const words = (choice: unknown[] | undefined) =>
      withoutPadding((choice ?? []).filter((part) => typeof part === 'string' && part !== '#').join(''));
    expect(words(choices['one'])).toBe(' šéáţ');
    expect(words(choices['other'])).toBe(' šéáţš');
  });

  it('keeps the tags of a <Trans> with elements, and makes the text between them pseudo', () => {
    const message = pseudoMessage('Read the <0>guide</0> first') as string;
    expect(withoutPadding(message)).toBe('Ŕéáď ţĥé <0>ĝúíďé</0> ƒíŕšţ');
    expect(message).toContain('<0>');
    expect(message).toContain('</0>');
    expect(looksUntranslated(message.replace(/<\/?\d+>/g, ''))).toBe(false);
  });

  it('keeps a self-closing tag', () => {
    expect(pseudoMessage('Line<0/>break')).toContain('<0/>');
  });
});

describe('looksUntranslated', () => {
  it('flags plain English', () => {
    expect(looksUntranslated('Sign in')).toBe(true);
  });

  it('passes pseudo text, numbers and short codes', () => {
    expect(looksUntranslated(pseudoText('Sign in'))).toBe(false);
    expect(looksUntranslated('₹1,499 · 12 %')).toBe(false);
    expect(looksUntranslated('OK')).toBe(false);
  });
});
