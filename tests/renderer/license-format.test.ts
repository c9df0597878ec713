import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatRelative,
} from '../../src/renderer/src/features/license/license-format';

describe('date formatting of the license and admin screens', () => {
  it.each([
    ['a missing date', undefined as unknown as string],
    ['an empty date', ''],
    ['a garbled date', 'yesterday-ish'],
  ])('writes %s as a dash instead of throwing "Invalid time value"', (_case, value) => {
    expect(formatDate(value)).toBe('—');
    expect(formatDateTime(value)).toBe('—');
    expect(formatRelative(value)).toBe('—');
  });

  it('still writes a real date', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(formatDate('2025-06-01T12:00:00Z')).toMatch(/2025/);
    expect(formatDateTime('2025-06-01T12:00:00Z')).toMatch(/2025/);
    expect(formatRelative('2025-06-01T11:55:00Z', now)).toBe('5 minutes ago');
  });
});
