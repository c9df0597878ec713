import { describe, expect, it } from 'vitest';
import { currentPeriodStart, periodEnd } from '../../../src/server/catalogue/features/usage-periods.js';
import { expiryAfterInterval } from '../../../src/server/licensing/licenses/periods.js';

const at = (iso: string) => new Date(iso);

describe('expiryAfterInterval: a billing interval ends on the same day of the next month or year', () => {
  it('a month from 31 January ends on the last day of February, never in March', () => {
    expect(expiryAfterInterval('month', at('2027-01-31T10:15:30.250Z'))).toBe('2027-02-28T10:15:30.250Z');
    // A leap year has a 29 February to end on.
    expect(expiryAfterInterval('month', at('2028-01-31T10:15:30.250Z'))).toBe('2028-02-29T10:15:30.250Z');
    expect(expiryAfterInterval('month', at('2027-01-29T00:00:00.000Z'))).toBe('2027-02-28T00:00:00.000Z');
  });

  it('a month from the 31st of a month before a 30-day one ends on the 30th', () => {
    expect(expiryAfterInterval('month', at('2027-03-31T23:59:59.999Z'))).toBe('2027-04-30T23:59:59.999Z');
    expect(expiryAfterInterval('month', at('2027-08-31T12:00:00.000Z'))).toBe('2027-09-30T12:00:00.000Z');
  });

  it('a month from a day every month has keeps that day (30 April → 30 May), across the year end too', () => {
    expect(expiryAfterInterval('month', at('2027-04-30T08:00:00.000Z'))).toBe('2027-05-30T08:00:00.000Z');
    expect(expiryAfterInterval('month', at('2027-12-31T23:30:00.000Z'))).toBe('2028-01-31T23:30:00.000Z');
    expect(expiryAfterInterval('month', at('2027-12-15T00:00:00.000Z'))).toBe('2028-01-15T00:00:00.000Z');
  });

  it('a year from 29 February ends on 28 February; from any other day, on the same day', () => {
    expect(expiryAfterInterval('year', at('2028-02-29T06:00:00.000Z'))).toBe('2029-02-28T06:00:00.000Z');
    expect(expiryAfterInterval('year', at('2027-02-28T06:00:00.000Z'))).toBe('2028-02-28T06:00:00.000Z');
    expect(expiryAfterInterval('year', at('2027-12-31T23:59:59.999Z'))).toBe('2028-12-31T23:59:59.999Z');
  });

  it('free and lifetime plans never lapse', () => {
    expect(expiryAfterInterval('free', at('2027-01-31T00:00:00.000Z'))).toBeNull();
    expect(expiryAfterInterval('lifetime', at('2027-01-31T00:00:00.000Z'))).toBeNull();
  });
});

describe('usage periods: UTC days and calendar months', () => {
  it('a period starts at the start of the UTC day or month that the moment falls in', () => {
    expect(currentPeriodStart('day', at('2028-02-29T23:59:59.999Z'))).toBe('2028-02-29T00:00:00.000Z');
    expect(currentPeriodStart('month', at('2028-02-29T23:59:59.999Z'))).toBe('2028-02-01T00:00:00.000Z');
    expect(currentPeriodStart('month', at('2027-12-31T23:59:59.999Z'))).toBe('2027-12-01T00:00:00.000Z');
    expect(currentPeriodStart('day', at('2028-01-01T00:00:00.000Z'))).toBe('2028-01-01T00:00:00.000Z');
  });

  it('a period ends where the next one starts: across month ends, leap days and December', () => {
    expect(periodEnd('month', '2027-12-01T00:00:00.000Z')).toBe('2028-01-01T00:00:00.000Z');
    expect(periodEnd('month', '2028-01-01T00:00:00.000Z')).toBe('2028-02-01T00:00:00.000Z');
    expect(periodEnd('month', '2028-02-01T00:00:00.000Z')).toBe('2028-03-01T00:00:00.000Z');
    expect(periodEnd('day', '2027-12-31T00:00:00.000Z')).toBe('2028-01-01T00:00:00.000Z');
    expect(periodEnd('day', '2028-02-28T00:00:00.000Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(periodEnd('day', '2027-02-28T00:00:00.000Z')).toBe('2027-03-01T00:00:00.000Z');
  });

  it('the period of a moment ends after it: every day of a leap year is inside its own day and month', () => {
    for (let day = 0; day < 366; day += 1) {
      const moment = new Date(Date.parse('2028-01-01T12:00:00.000Z') + day * 86_400_000);
      for (const period of ['day', 'month'] as const) {
        const start = currentPeriodStart(period, moment);
        expect(Date.parse(start)).toBeLessThanOrEqual(moment.getTime());
        expect(Date.parse(periodEnd(period, start))).toBeGreaterThan(moment.getTime());
      }
    }
  });
});
