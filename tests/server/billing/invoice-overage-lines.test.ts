import { describe, expect, it } from 'vitest';
import { type ChargeFacts, itemiseCharge } from '../../../src/server/billing/invoices/itemise.js';
import { overageLineWords } from '../../../src/server/billing/invoices/overage-lines.js';
import { chargeForPrice } from '../../../src/server/billing/invoices/tax.js';

const inclusive = { name: 'GST', rateBasisPoints: 1800, inclusive: true };
const exclusive = { ...inclusive, inclusive: false };

const renewal: ChargeFacts = {
  plan: { name: 'Pro', billing_interval: 'month', price_minor: 99_900 },
  planId: 'pro',
  recurring: true,
  quantity: 1,
  perSeat: false,
  coupon: undefined,
  seatsAdded: undefined,
  chargedMinor: 99_900,
  currency: 'INR',
};

const sum = (amounts: number[]) => amounts.reduce((total, amount) => total + amount, 0);

const billed = {
  featureId: 'f',
  featureKey: 'ai_requests',
  featureName: 'AI requests',
  unit: 'requests',
  period: 'month' as const,
  periodStart: '2026-11-01T00:00:00.000Z',
  periodEnd: '2026-12-01T00:00:00.000Z',
  units: 1234,
  amountMinor: 650,
  currency: 'INR',
  priceMinor: 50,
  perUnits: 100,
};

describe('overage on a renewal’s invoice', () => {
  it('names the feature, the period, the units and their price; a daily allowance names its day', () => {
    expect(overageLineWords(billed)).toBe(
      'AI requests over the allowance, November 2026: 1,234 requests × ₹0.50 per 100',
    );
    expect(
      overageLineWords({ ...billed, period: 'day', periodStart: '2026-11-03T00:00:00.000Z', perUnits: 1 }),
    ).toBe('AI requests over the allowance, 3 November 2026: 1,234 requests × ₹0.50 each');
  });

  it('is taxed as the plan’s price: with prices including tax, and with tax added', () => {
    const overage = [{ description: 'AI requests over the allowance', amountMinor: 650 }];
    const withTax = itemiseCharge({ ...renewal, chargedMinor: 99_900 + 650, overage }, inclusive);
    expect(withTax.lines.map((line) => [line.kind, line.amount])).toEqual([
      ['item', 99_900],
      ['item', 650],
    ]);
    expect(sum(withTax.lines.map((line) => line.amount))).toBe(withTax.split.grossMinor);

    const charged = chargeForPrice(99_900, exclusive) + chargeForPrice(650, exclusive);
    const beforeTax = itemiseCharge({ ...renewal, chargedMinor: charged, overage }, exclusive);
    expect(beforeTax.lines.map((line) => [line.kind, line.amount])).toEqual([
      ['item', 99_900],
      ['item', 650],
    ]);
    expect(beforeTax.split).toEqual({
      netMinor: 99_900 + 650,
      taxMinor: charged - 99_900 - 650,
      grossMinor: charged,
    });
  });
});
