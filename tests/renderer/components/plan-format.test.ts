import { describe, expect, it } from 'vitest';
import { formatPlanPrice } from '../../../src/renderer/src/features/plans/plan-format';
// The portal's language (English until another is shown): the plan's words are written in it.
import '../../../src/renderer/src/lib/i18n/portal-i18n';

describe('plan price', () => {
  it.each([
    [{ price_minor: 1_999, currency: 'USD', billing_interval: 'month' }, '$19.99', 'per month'],
    [{ price_minor: 99_900, currency: 'INR', billing_interval: 'month' }, '₹999', 'per month'],
    [{ price_minor: 4_999_000, currency: 'INR', billing_interval: 'year' }, '₹49,990', 'per year'],
    [{ price_minor: 1_500, currency: 'JPY', billing_interval: 'lifetime' }, '¥1,500', 'one-time payment'],
    [{ price_minor: 0, currency: 'USD', billing_interval: 'free' }, 'Free', 'free forever'],
  ] as const)('%o reads %s %s', (plan, amount, period) => {
    expect(formatPlanPrice(plan, 'en-US')).toEqual({ amount, period });
  });
});
