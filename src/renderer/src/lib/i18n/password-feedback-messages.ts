import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { TranslationKeys } from '@zxcvbn-ts/core';
import { passwordFeedbackTexts } from '../../../../shared/password-feedback';
import type { KnownPattern } from './form-messages';

/**
 * zxcvbn's feedback (shared/password-feedback.ts: the server's refusal and the portal's strength
 * meter give it in English) for the language shown, by zxcvbn's key: a key zxcvbn adds and this
 * leaves out fails the typecheck. `knownText` finds each by its English (known-messages.ts).
 */
const WARNINGS: Record<keyof TranslationKeys['warnings'], MessageDescriptor> = {
  straightRow: msg({
    id: 'password.warning.straightRow',
    message: 'A straight row of keys is easy to guess.',
  }),
  keyPattern: msg({
    id: 'password.warning.keyPattern',
    message: 'A short keyboard pattern is easy to guess.',
  }),
  simpleRepeat: msg({
    id: 'password.warning.simpleRepeat',
    message: 'Repeated characters like "aaa" are easy to guess.',
  }),
  extendedRepeat: msg({
    id: 'password.warning.extendedRepeat',
    message: 'Repeated groups like "abcabcabc" are easy to guess.',
  }),
  sequences: msg({
    id: 'password.warning.sequences',
    message: 'Sequences like "abc" or "6543" are easy to guess.',
  }),
  recentYears: msg({ id: 'password.warning.recentYears', message: 'Recent years are easy to guess.' }),
  dates: msg({ id: 'password.warning.dates', message: 'Dates are easy to guess.' }),
  topTen: msg({ id: 'password.warning.topTen', message: 'This is one of the most used passwords.' }),
  topHundred: msg({ id: 'password.warning.topHundred', message: 'This is a very often used password.' }),
  common: msg({ id: 'password.warning.common', message: 'This is a commonly used password.' }),
  similarToCommon: msg({
    id: 'password.warning.similarToCommon',
    message: 'This is close to a commonly used password.',
  }),
  wordByItself: msg({ id: 'password.warning.wordByItself', message: 'A single word is easy to guess.' }),
  namesByThemselves: msg({
    id: 'password.warning.namesByThemselves',
    message: 'Names on their own are easy to guess.',
  }),
  commonNames: msg({ id: 'password.warning.commonNames', message: 'Common names are easy to guess.' }),
  userInputs: msg({ id: 'password.warning.userInputs', message: 'It is built on your e-mail address.' }),
  pwned: msg({ id: 'password.warning.pwned', message: 'This password appeared in a data breach.' }),
};

const SUGGESTIONS: Record<keyof TranslationKeys['suggestions'], MessageDescriptor> = {
  l33t: msg({
    id: 'password.suggestion.l33t',
    message: 'Swapping letters for look-alikes, like "@" for "a", does not help much.',
  }),
  reverseWords: msg({
    id: 'password.suggestion.reverseWords',
    message: 'A common word spelled backwards is still easy to guess.',
  }),
  allUppercase: msg({
    id: 'password.suggestion.allUppercase',
    message: 'Capitals everywhere help as little as none.',
  }),
  capitalization: msg({
    id: 'password.suggestion.capitalization',
    message: 'A capital first letter adds little.',
  }),
  dates: msg({
    id: 'password.suggestion.dates',
    message: 'Leave out dates and years that mean something to you.',
  }),
  recentYears: msg({ id: 'password.suggestion.recentYears', message: 'Leave out recent years.' }),
  associatedYears: msg({
    id: 'password.suggestion.associatedYears',
    message: 'Leave out years that mean something to you.',
  }),
  sequences: msg({
    id: 'password.suggestion.sequences',
    message: 'Leave out sequences like "abc" or "123".',
  }),
  repeated: msg({ id: 'password.suggestion.repeated', message: 'Leave out repeated words and characters.' }),
  longerKeyboardPattern: msg({
    id: 'password.suggestion.longerKeyboardPattern',
    message: 'Leave out keyboard patterns.',
  }),
  anotherWord: msg({
    id: 'password.suggestion.anotherWord',
    message: 'Add a few more words that do not belong together.',
  }),
  useWords: msg({
    id: 'password.suggestion.useWords',
    message: 'Use a few words that do not belong together.',
  }),
  noNeed: msg({
    id: 'password.suggestion.noNeed',
    message: 'Symbols, digits and capitals are not required.',
  }),
  pwned: msg({
    id: 'password.suggestion.pwned',
    message: 'If you use it anywhere else, change it there too.',
  }),
};

const entriesOf = <Key extends string>(
  texts: Record<Key, string>,
  messages: Record<Key, MessageDescriptor>,
): [string, MessageDescriptor][] =>
  (Object.keys(messages) as Key[]).map((key) => [texts[key], messages[key]]);

/** Each feedback text by its English, as the portal's meter and the server's refusal say it. */
export const PASSWORD_FEEDBACK_MESSAGES: readonly (readonly [string, MessageDescriptor])[] = [
  ...entriesOf(passwordFeedbackTexts.warnings, WARNINGS),
  ...entriesOf(passwordFeedbackTexts.suggestions, SUGGESTIONS),
  // The rule's own refusal (shared/password-rule.ts), which the server sends as it is.
  [
    'This password contains the e-mail address or the name before its @. Choose one that does not.',
    msg({
      id: 'password.containsEmail',
      message:
        'This password contains the e-mail address or the name before its @. Choose one that does not.',
    }),
  ],
];

/**
 * The rule's refusal of an easy password: its verdict, zxcvbn's warning when it has one, and what
 * to do (shared/password-rule.ts joins the three), with the warning in the language shown too.
 */
export const PASSWORD_PATTERNS: readonly KnownPattern[] = [
  {
    pattern:
      /^This password is too common or too easy to guess\. (?:(.+) )?Choose a longer phrase that is unique to this account\.$/,
    message: (match, { known }) => {
      const warning = match[1] ? `${known(match[1])} ` : '';
      return msg({
        id: 'password.tooEasy',
        message: `This password is too common or too easy to guess. ${warning}Choose a longer phrase that is unique to this account.`,
      });
    },
  },
];
