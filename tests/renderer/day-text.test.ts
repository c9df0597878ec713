import { describe, expect, it } from 'vitest';
import { dayText, readersDayText } from '../../src/renderer/src/components/forms/day-text';
import { formatDate } from '../../src/renderer/src/features/licenses/license-format';

/** The day fields write and read a day as the rest of the portal writes dates, per locale. */

describe('dayText: a YYYY-MM-DD day in the locale’s medium date', () => {
  it.each([
    ['en-US', 'Jan 31, 2025'],
    ['en-GB', '31 Jan 2025'],
    ['de-DE', '31.01.2025'],
    ['fr-FR', '31 janv. 2025'],
    ['ja-JP', '2025/01/31'],
  ])('%s writes 2025-01-31 as "%s" and reads it back', (locale, text) => {
    const { format, parse } = dayText(locale);
    expect(format('2025-01-31')).toBe(text);
    expect(parse(text)).toBe('2025-01-31');
  });

  it('writes the day itself whatever the clock’s time zone (no day before or after)', () => {
    // The day is a calendar day, not an instant: the first and last of the year stay themselves.
    expect(dayText('en-US').format('2025-01-01')).toBe('Jan 1, 2025');
    expect(dayText('en-US').format('2024-12-31')).toBe('Dec 31, 2024');
  });

  it('is the same text the portal shows for that day elsewhere (reader’s locale, medium style)', () => {
    // formatDate writes an instant in the local zone; noon keeps it on the same day in every zone
    // within ±12 h.
    expect(readersDayText.format('2025-03-09')).toBe(formatDate(new Date(2025, 2, 9, 12).toISOString()));
  });

  it('writes nothing for a value that is not a day', () => {
    const { format } = dayText('en-US');
    expect(format('')).toBe('');
    expect(format('31/01/2025')).toBe('');
  });

  it('reads the month in words, whole or started, in any case, and in English', () => {
    const us = dayText('en-US');
    expect(us.parse('february 1 2025')).toBe('2025-02-01');
    expect(us.parse('1 Feb 2025')).toBe('2025-02-01');
    expect(us.parse('Sept 9, 2025')).toBe('2025-09-09');
    expect(dayText('en-GB').parse('9 Sept 2025')).toBe('2025-09-09');
    expect(dayText('fr-FR').parse('1 février 2025')).toBe('2025-02-01');
    expect(dayText('fr-FR').parse('1 fevr 2025')).toBe('2025-02-01');
    expect(dayText('de-DE').parse('1. März 2025')).toBe('2025-03-01');
    expect(dayText('de-DE').parse('1 March 2025')).toBe('2025-03-01');
    expect(dayText('es-ES').parse('1 de marzo de 2025')).toBe('2025-03-01');
  });

  it('reads numbers in the locale’s order, and year-month-day anywhere', () => {
    expect(dayText('en-US').parse('2/1/2025')).toBe('2025-02-01');
    expect(dayText('en-GB').parse('2/1/2025')).toBe('2025-01-02');
    expect(dayText('de-DE').parse('2.1.2025')).toBe('2025-01-02');
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'ja-JP'])
      expect(dayText(locale).parse('2025-02-01')).toBe('2025-02-01');
  });

  it('reads a locale’s own digits', () => {
    const arabic = dayText('ar-EG');
    const text = arabic.format('2025-01-31');
    expect(text).not.toMatch(/\d{4}/);
    expect(arabic.parse(text)).toBe('2025-01-31');
  });

  it('reads nothing until the day is whole and real', () => {
    const { parse } = dayText('en-US');
    for (const text of [
      '',
      'Feb',
      'Feb 1',
      'Feb 1, 202',
      '2/1/202',
      '2/1',
      'Feb 30, 2025',
      'Feb 29, 2025',
      '13/1/2025',
      '2025-02-30',
      'Ja 1 2025',
      'Mar Feb 1 2025',
      'Feb 1 2025 3',
      'Smarch 1 2025',
      '123/1/2025',
    ])
      expect(parse(text), text).toBeNull();
    expect(parse('Feb 29, 2028')).toBe('2028-02-29');
  });
});
