import { describe, expect, it } from 'vitest';
import {
  createLicenseFormSchema,
  dayOf,
  endOfDayIso,
  toCreateLicenseRequest,
} from '../../src/renderer/src/features/admin/licenses/license-forms';
import { formatDay } from '../../src/renderer/src/features/licenses/license-format';
import { dailyUsage } from '../../src/renderer/src/features/licenses/usage-history';

/** The portal's day arithmetic: usage chart days (UTC) and the admin's expiry day (their own calendar). */

const history = [
  { date: '2028-02-28', feature_id: 'f-chat', key: 'ai_chat', amount: 3 },
  { date: '2028-02-29', feature_id: 'f-chat', key: 'ai_chat', amount: 5 },
  { date: '2028-03-01', feature_id: 'f-chat', key: 'ai_chat', amount: 7 },
  { date: '2027-12-31', feature_id: 'f-chat', key: 'ai_chat', amount: 2 },
];
const chat = [{ key: 'ai_chat' }];

describe('dailyUsage: consecutive UTC days ending today', () => {
  it('counts back over a leap day: 28 February, 29 February, 1 March', () => {
    const points = dailyUsage(history, chat, 3, Date.parse('2028-03-01T23:59:59.999Z'));
    expect(points).toEqual([
      { day: formatDay('2028-02-28'), ai_chat: 3 },
      { day: formatDay('2028-02-29'), ai_chat: 5 },
      { day: formatDay('2028-03-01'), ai_chat: 7 },
    ]);
  });

  it('counts back over the year end, with zero on days without use', () => {
    const points = dailyUsage(history, chat, 3, Date.parse('2028-01-02T00:00:00.000Z'));
    expect(points).toEqual([
      { day: formatDay('2027-12-31'), ai_chat: 2 },
      { day: formatDay('2028-01-01'), ai_chat: 0 },
      { day: formatDay('2028-01-02'), ai_chat: 0 },
    ]);
  });

  it('thirty days ending on 1 March of a leap year start on 1 February', () => {
    const points = dailyUsage([], chat, 30, Date.parse('2028-03-01T12:00:00.000Z'));
    expect(points).toHaveLength(30);
    expect(points[0]?.day).toBe(formatDay('2028-02-01'));
    expect(points.at(-1)?.day).toBe(formatDay('2028-03-01'));
  });
});

describe("admin license expiry day: a day of the admin's own calendar", () => {
  it('a chosen day ends at the last millisecond of that day where the admin is', () => {
    expect(endOfDayIso('2099-02-28')).toBe(new Date(2099, 1, 28, 23, 59, 59, 999).toISOString());
    expect(dayOf(endOfDayIso('2099-02-28'))).toBe('2099-02-28');
    expect(dayOf(new Date(2099, 11, 31, 0, 0, 0, 1).toISOString())).toBe('2099-12-31');
  });

  it('a create request sends the end of the chosen day', () => {
    const request = toCreateLicenseRequest({
      user_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
      plan_id: 'pro-monthly',
      expiry: 'date',
      expires_on: '2099-12-31',
      seats: '',
    });
    expect(request.expires_at).toBe(new Date(2099, 11, 31, 23, 59, 59, 999).toISOString());
  });

  it('a day that does not exist (30 February, month 13) is refused, not moved into the next month', () => {
    const values = { user_id: 'u', plan_id: 'p', expiry: 'date', seats: '' } as const;
    for (const day of ['2099-02-30', '2099-13-01', '2099-04-31'])
      expect(createLicenseFormSchema.safeParse({ ...values, expires_on: day }).success, day).toBe(false);
    expect(createLicenseFormSchema.safeParse({ ...values, expires_on: '2099-02-28' }).success).toBe(true);
  });
});
