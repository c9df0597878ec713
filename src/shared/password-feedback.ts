import type { TranslationKeys } from '@zxcvbn-ts/core';

/**
 * zxcvbn's feedback in the portal's words. zxcvbn gives keys only (its English texts ship with a
 * language pack whose dictionaries the portal does not need), and every key must have a text.
 */
export const passwordFeedbackTexts: TranslationKeys = {
  warnings: {
    straightRow: 'A straight row of keys is easy to guess.',
    keyPattern: 'A short keyboard pattern is easy to guess.',
    simpleRepeat: 'Repeated characters like "aaa" are easy to guess.',
    extendedRepeat: 'Repeated groups like "abcabcabc" are easy to guess.',
    sequences: 'Sequences like "abc" or "6543" are easy to guess.',
    recentYears: 'Recent years are easy to guess.',
    dates: 'Dates are easy to guess.',
    topTen: 'This is one of the most used passwords.',
    topHundred: 'This is a very often used password.',
    common: 'This is a commonly used password.',
    similarToCommon: 'This is close to a commonly used password.',
    wordByItself: 'A single word is easy to guess.',
    namesByThemselves: 'Names on their own are easy to guess.',
    commonNames: 'Common names are easy to guess.',
    userInputs: 'It is built on your e-mail address.',
    pwned: 'This password appeared in a data breach.',
  },
  suggestions: {
    l33t: 'Swapping letters for look-alikes, like "@" for "a", does not help much.',
    reverseWords: 'A common word spelled backwards is still easy to guess.',
    allUppercase: 'Capitals everywhere help as little as none.',
    capitalization: 'A capital first letter adds little.',
    dates: 'Leave out dates and years that mean something to you.',
    recentYears: 'Leave out recent years.',
    associatedYears: 'Leave out years that mean something to you.',
    sequences: 'Leave out sequences like "abc" or "123".',
    repeated: 'Leave out repeated words and characters.',
    longerKeyboardPattern: 'Leave out keyboard patterns.',
    anotherWord: 'Add a few more words that do not belong together.',
    useWords: 'Use a few words that do not belong together.',
    noNeed: 'Symbols, digits and capitals are not required.',
    pwned: 'If you use it anywhere else, change it there too.',
  },
  // Required by zxcvbn; the portal shows no crack times.
  timeEstimation: {
    ltSecond: 'less than a second',
    second: '1 second',
    seconds: '{base} seconds',
    minute: '1 minute',
    minutes: '{base} minutes',
    hour: '1 hour',
    hours: '{base} hours',
    day: '1 day',
    days: '{base} days',
    month: '1 month',
    months: '{base} months',
    year: '1 year',
    years: '{base} years',
    centuries: 'centuries',
  },
};
