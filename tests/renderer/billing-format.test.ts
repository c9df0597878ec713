import { describe, expect, it } from 'vitest';
import { toMinorUnits } from '../../src/renderer/src/features/admin/invoices/refund-dialog';
import { formatMinorAmount } from '../../src/renderer/src/features/invoices';

describe('amounts of invoices and refunds in the portal', () => {
  it('turns a typed refund amount into minor units exactly, with the currency’s decimals', () => {
    expect(toMinorUnits('999.00', 'INR')).toBe(99_900);
    expect(toMinorUnits('0.29', 'INR')).toBe(29); // 0.29 × 100 is 28.999… in floating point
    expect(toMinorUnits(1.1, 'INR')).toBe(110);
    expect(toMinorUnits('12', 'INR')).toBe(1200);
    expect(toMinorUnits('12.5', 'INR')).toBe(1250);
    expect(toMinorUnits('1500', 'JPY')).toBe(1500);
    expect(toMinorUnits('1.234', 'KWD')).toBe(1234);
    expect(toMinorUnits('12.345', 'INR')).toBeUndefined();
    expect(toMinorUnits('12.340', 'INR')).toBe(1234);
    expect(toMinorUnits('-1', 'INR')).toBeUndefined();
    expect(toMinorUnits('1e3', 'INR')).toBeUndefined();
    expect(toMinorUnits('', 'INR')).toBeUndefined();
  });

  it('writes minor units with the currency’s own decimals, negative for credit notes', () => {
    expect(formatMinorAmount(99_900, 'INR')).toMatch(/999\.00/);
    expect(formatMinorAmount(-33_333, 'INR')).toMatch(/^-.*333\.33$/);
    expect(formatMinorAmount(1500, 'JPY')).toMatch(/1,500$/);
  });
});
