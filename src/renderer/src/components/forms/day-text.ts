import { formattingLocale } from '../../lib/i18n/portal-i18n';

/**
 * A calendar day (`YYYY-MM-DD`) written as the portal writes dates everywhere else, in the
 * reader's locale with `dateStyle: 'medium'` ("Jan 31, 2025" in en-US, "31 Jan 2025" in en-GB,
 * "31.01.2025" in de), and read back from what a person types in that locale.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})/;

export interface DayText {
  /** `YYYY-MM-DD` → the locale's medium date; '' for anything else. */
  format: (day: string) => string;
  /** What someone typed → `YYYY-MM-DD`, or null while it is not (yet) a whole, real day. */
  parse: (text: string) => string | null;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

function realDay(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1) return null;
  // Day 0 of the next month is the last of this one (UTC: no daylight-saving hour in the way).
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

export function dayText(locale?: string): DayText {
  const medium = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const resolved = medium.resolvedOptions().locale;
  const fold = (word: string) =>
    word
      .toLocaleLowerCase(resolved)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/\.$/, '');

  // The locale's own digits (Arabic-Indic, Devanagari…) read as 0-9.
  const digits = new Map<string, string>();
  const numbers = new Intl.NumberFormat(resolved, { useGrouping: false });
  for (let digit = 0; digit <= 9; digit += 1) digits.set(numbers.format(digit), String(digit));
  const latinDigits = (text: string) => text.replace(/\p{Nd}/gu, (char) => digits.get(char) ?? char);

  // Month names as the locale writes them in a date and on their own, plus English ones.
  const monthNames = new Map<string, number>();
  const literalWords = new Set<string>();
  const wordsOf = (text: string) => text.match(/\p{L}+/gu) ?? [];
  const nameFormats = [
    medium,
    new Intl.DateTimeFormat(resolved, { dateStyle: 'long', timeZone: 'UTC' }),
    new Intl.DateTimeFormat(resolved, { month: 'short', timeZone: 'UTC' }),
    new Intl.DateTimeFormat(resolved, { month: 'long', timeZone: 'UTC' }),
    new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }),
    new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }),
  ];
  for (let month = 0; month < 12; month += 1)
    for (const format of nameFormats)
      for (const part of format.formatToParts(new Date(Date.UTC(2001, month, 15)))) {
        const text = latinDigits(part.value);
        if (part.type === 'month' && !/\d/.test(text)) monthNames.set(fold(text), month + 1);
        else if (part.type === 'literal') for (const word of wordsOf(text)) literalWords.add(fold(word));
      }

  // Where the year, month and day stand when the locale writes a day in numbers (31/01/2025).
  const numericOrder = new Intl.DateTimeFormat(resolved, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    timeZone: 'UTC',
  })
    .formatToParts(new Date(Date.UTC(2001, 0, 31)))
    .map((part) => part.type)
    .filter((type) => type === 'year' || type === 'month' || type === 'day');

  const monthOf = (word: string): number | null | undefined => {
    const folded = fold(word);
    const exact = monthNames.get(folded);
    if (exact) return exact;
    // "Sept", "sep", "janv": the start of one month's name only.
    if (folded.length >= 3) {
      const months = new Set([...monthNames].filter(([name]) => name.startsWith(folded)).map(([, m]) => m));
      if (months.size === 1) return [...months][0];
    }
    return literalWords.has(folded) ? undefined : null;
  };

  const format = (day: string) => {
    const match = DAY.exec(day);
    if (!match) return '';
    const date = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? '' : medium.format(date);
  };

  const parse = (text: string): string | null => {
    const tokens = latinDigits(text).match(/\p{L}+|\d+/gu) ?? [];
    const numbers: string[] = [];
    let month: number | null = null;
    for (const token of tokens) {
      if (/^\d+$/.test(token)) {
        numbers.push(token);
        continue;
      }
      const named = monthOf(token);
      if (named === null || (named !== undefined && month !== null)) return null;
      if (named !== undefined) month = named;
    }
    const whole = (token: string | undefined) => (token === undefined ? Number.NaN : Number(token));
    // A year is written whole: "2/1/202" is someone still typing, not the year 202.
    const isYear = (token: string | undefined) => token !== undefined && token.length === 4;

    if (month !== null) {
      if (numbers.length !== 2) return null;
      const [first, second] = numbers;
      if (isYear(first) === isYear(second)) return null;
      return isYear(first)
        ? realDay(whole(first), month, whole(second))
        : realDay(whole(second), month, whole(first));
    }
    if (numbers.length !== 3) return null;
    // A day that starts with the year is year-month-day in every locale (2025-01-31, 2025/01/31).
    const order = isYear(numbers[0]) ? ['year', 'month', 'day'] : numericOrder;
    const value = (type: string) => numbers[order.indexOf(type)];
    if (!isYear(value('year')) || (value('day')?.length ?? 0) > 2 || (value('month')?.length ?? 0) > 2)
      return null;
    return realDay(whole(value('year')), whole(value('month')), whole(value('day')));
  };

  return { format, parse };
}

/** One per locale: reading a locale's month names costs a few hundred formats. */
const byLocale = new Map<string, DayText>();

/** The language shown's (the browser's own for English), made when first asked for in it. */
function shownDayText(): DayText {
  const locale = formattingLocale();
  const key = locale ?? '';
  let text = byLocale.get(key);
  if (!text) {
    text = dayText(locale);
    byLocale.set(key, text);
  }
  return text;
}

/** The reader's own: in the language shown, as every other date in the portal (it may change at any time). */
export const readersDayText: DayText = {
  format: (day) => shownDayText().format(day),
  parse: (text) => shownDayText().parse(text),
};
