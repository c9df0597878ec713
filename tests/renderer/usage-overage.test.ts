import { describe, expect, it } from 'vitest';
import { periodChartDays, projectedOverage } from '../../src/renderer/src/features/licenses/usage-overage';

const priced = (policy: 'stop' | 'bill' | 'cap', over: number, price: number | null = 250, per = 10) => ({
  overage: { policy, price_minor: price, per_units: per, cap: policy === 'cap' ? 100 : null },
  over_allowance: over,
});

describe('projectedOverage', () => {
  it('bills each block of per_units, a part of a block in full', () => {
    expect(projectedOverage(priced('bill', 30))).toEqual({ units: 30, blocks: 3, amountMinor: 750 });
    expect(projectedOverage(priced('bill', 31))).toEqual({ units: 31, blocks: 4, amountMinor: 1000 });
    expect(projectedOverage(priced('cap', 1))).toEqual({ units: 1, blocks: 1, amountMinor: 250 });
    expect(projectedOverage(priced('bill', 0))).toEqual({ units: 0, blocks: 0, amountMinor: 0 });
  });

  it('is nothing under stop or without a price', () => {
    expect(projectedOverage(priced('stop', 5))).toBeNull();
    expect(projectedOverage(priced('bill', 5, null))).toBeNull();
  });
});

describe('periodChartDays', () => {
  const now = Date.parse('2026-03-15T22:00:00.000Z');
  it('covers a month from its first day through today, by the UTC calendar', () => {
    expect(periodChartDays({ period: 'month', period_start: '2026-03-01T00:00:00.000Z' }, now)).toBe(15);
    expect(periodChartDays({ period: 'month', period_start: '2026-03-15T00:00:00.000Z' }, now)).toBe(1);
  });
  it('looks back a week for a daily feature, and 30 days without a period', () => {
    expect(periodChartDays({ period: 'day', period_start: '2026-03-15T00:00:00.000Z' }, now)).toBe(7);
    expect(periodChartDays({ period: null, period_start: null }, now)).toBe(30);
  });
});
