import { describe, expect, it } from 'vitest';
import {
  expiryText,
  formatDate,
  formatDateTime,
  formatRelative,
  updateWindowText,
} from '../../src/renderer/src/features/licenses/license-format';

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

describe('a license’s validity in words', () => {
  const future = '2099-03-01T10:00:00.000Z';
  const day = formatDate(future);
  const base = { status: 'active' as const, expires_at: future, revoked_at: null, renews: false };

  it('says "Renews on" when an active subscription will renew it, "Expires on" otherwise', () => {
    expect(expiryText({ ...base, renews: true })).toBe(`Renews on ${day}`);
    expect(expiryText(base)).toBe(`Expires on ${day}`);
  });

  it('says "Expired on" for a license past its end, even one that was renewing', () => {
    expect(
      expiryText({ ...base, status: 'expired', expires_at: '2020-01-01T00:00:00.000Z', renews: true }),
    ).toBe(`Expired on ${formatDate('2020-01-01T00:00:00.000Z')}`);
  });

  it('never says "Never expires" of a revoked lifetime license: it says when it was revoked', () => {
    expect(expiryText({ ...base, expires_at: null })).toBe('Never expires');
    const revokedAt = '2025-05-02T09:00:00.000Z';
    expect(expiryText({ ...base, expires_at: null, status: 'revoked', revoked_at: revokedAt })).toBe(
      `Revoked on ${formatDate(revokedAt)}`,
    );
    expect(expiryText({ ...base, status: 'revoked', revoked_at: revokedAt, renews: true })).toBe(
      `Revoked on ${formatDate(revokedAt)}`,
    );
  });

  it('a perpetual license never expires and says how long its updates run, or that they ended', () => {
    const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
    expect(expiryText({ ...base, expires_at: null, updates_until: future })).toBe(
      `Never expires · Updates until ${formatDate(future)}`,
    );
    const past = '2024-03-03T00:00:00.000Z';
    expect(expiryText({ ...base, expires_at: null, updates_until: past })).toBe(
      `Never expires · Updates ended on ${formatDate(past)}`,
    );
    expect(updateWindowText(past)).toBe(`Updates ended on ${formatDate(past)}`);
  });
});
