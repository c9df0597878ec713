import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../src/shared/api/subscriptions';
import { LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT } from '../../src/shared/constants';
import {
  activationOption,
  daysLeft,
  licenseFlag,
  needsSubscription,
} from '../../src/renderer/src/features/licenses/license-flags';

/* What the dashboard and the license cards flag, and when "Activate on this machine" applies. */

const NOW = new Date(2026, 10, 27, 12, 0, 0).getTime();
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW + days * DAY).toISOString();

const license = (extra: Partial<Parameters<typeof licenseFlag>[0]> = {}) => ({
  license_id: 'L1',
  status: 'active' as const,
  expires_at: at(30),
  revoked_reason: null,
  revoked_at: null,
  subscription_id: null,
  ...extra,
});

const subscription = (extra: Partial<Subscription> = {}) =>
  ({ license_id: 'L1', status: 'active', cancel_at_period_end: false, ...extra }) as Subscription;

describe('licenseFlag', () => {
  it('a revoked license gives the administrator’s reason (one full stop) and points to support', () => {
    const flag = licenseFlag(license({ status: 'revoked', revoked_reason: 'Refunded on request.' }), {
      now: NOW,
    });
    expect(flag).toMatchObject({ kind: 'revoked', tone: 'danger', actions: ['support'] });
    expect(flag?.message).toMatch(/^Reason given: Refunded on request\. Its machines/);
    const noReason = licenseFlag(license({ status: 'revoked' }), { now: NOW });
    expect(noReason?.message).toMatch(/^Its machines can no longer use it\./);
  });

  it('a suspended license: payment when its subscription went unpaid, support otherwise, both when unknown', () => {
    const unpaid = licenseFlag(license({ status: 'suspended', subscription_id: 'S1' }), {
      now: NOW,
      subscription: subscription({ status: 'suspended' }),
    });
    expect(unpaid).toMatchObject({ kind: 'suspended', actions: ['payment'] });
    expect(unpaid?.message).toContain('Update the payment method');

    const byAdmin = licenseFlag(license({ status: 'suspended', subscription_id: 'S1' }), {
      now: NOW,
      subscription: subscription({ status: 'active' }),
    });
    expect(byAdmin?.actions).toEqual(['support']);
    expect(licenseFlag(license({ status: 'suspended' }), { now: NOW })?.actions).toEqual(['support']);
    expect(
      licenseFlag(license({ status: 'suspended', subscription_id: 'S1' }), { now: NOW })?.actions,
    ).toEqual(['payment', 'support']);
  });

  it('an expired license is renewed', () => {
    expect(licenseFlag(license({ status: 'expired', expires_at: at(-2) }), { now: NOW })).toMatchObject({
      kind: 'expired',
      actions: ['renew'],
    });
  });

  it(`an active license bought once is flagged from ${LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT} days before it expires`, () => {
    const edge = licenseFlag(license({ expires_at: at(LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT) }), { now: NOW });
    expect(edge).toMatchObject({ kind: 'expiring', actions: ['renew'] });
    expect(edge?.title).toBe(`Expires in ${LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT} days`);
    expect(
      licenseFlag(license({ expires_at: at(LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT + 1) }), { now: NOW }),
    ).toBe(null);
    expect(licenseFlag(license({ expires_at: at(1) }), { now: NOW })?.title).toBe('Expires tomorrow');
    expect(licenseFlag(license({ expires_at: at(0.25) }), { now: NOW })?.title).toBe('Expires today');
    expect(licenseFlag(license({ expires_at: null }), { now: NOW })).toBe(null);
    // The window is the server's setting when the caller knows it.
    expect(licenseFlag(license({ expires_at: at(10) }), { now: NOW, windowDays: 14 })?.kind).toBe('expiring');
  });

  it('a subscription’s license is flagged only when the subscription is set to end', () => {
    const soon = license({ expires_at: at(3), subscription_id: 'S1' });
    expect(licenseFlag(soon, { now: NOW, subscription: subscription() })).toBe(null);
    // Not read (yet): taken to renew, so no false warning.
    expect(licenseFlag(soon, { now: NOW })).toBe(null);
    expect(
      licenseFlag(soon, { now: NOW, subscription: subscription({ cancel_at_period_end: true }) }),
    ).toMatchObject({ kind: 'expiring', actions: ['resume'] });
    expect(needsSubscription(soon, NOW)).toBe(true);
    expect(needsSubscription(license({ expires_at: at(3) }), NOW)).toBe(false);
    expect(needsSubscription(license({ subscription_id: 'S1' }), NOW)).toBe(false);
  });

  it('a trial says its days left with Buy now (its plan’s checkout); one that ended unpaid says so', () => {
    const trial = { ends_at: at(9), days_left: 9, started_at: at(-5), source: 'account' as const };
    const flag = licenseFlag(license({ expires_at: at(9), plan_id: 'pro', trial }), { now: NOW });
    expect(flag).toMatchObject({
      kind: 'trial',
      title: 'Trial: 9 days left',
      actions: ['buy'],
      planId: 'pro',
    });
    expect(flag?.message).toMatch(/nothing is charged/);
    const last = licenseFlag(license({ trial: { ...trial, days_left: 1 } }), { now: NOW });
    expect(last?.title).toBe('Trial: 1 day left');
    const ended = licenseFlag(
      license({
        status: 'trial_expired',
        expires_at: at(-1),
        plan_id: 'pro',
        trial: { ...trial, days_left: 0 },
      }),
      { now: NOW },
    );
    expect(ended).toMatchObject({
      kind: 'trial_expired',
      title: 'Your free trial has ended',
      actions: ['buy'],
    });
    expect(ended?.message).toMatch(/license key, machines and usage stay/);
  });

  it('a perpetual license whose updates ended says what it covers, with Renew updates to the renewal plan', () => {
    const ended = license({
      expires_at: null,
      updates_until: at(-10),
      update_window_ended: true,
      covered_version: '2.3.0',
      next_version: '2.4.0',
    });
    const flag = licenseFlag(ended, { now: NOW, renewalPlanId: 'studio-updates' });
    expect(flag).toMatchObject({
      kind: 'update_window_ended',
      tone: 'caution',
      actions: ['renew_updates'],
      planId: 'studio-updates',
    });
    expect(flag?.title).toMatch(/^Updates ended on /);
    expect(flag?.message).toBe(
      'Your license covers versions up to 2.3. Renew updates to get 2.4 and later. This license keeps working on the versions it covers.',
    );
    // No renewal on sale: the button goes to the purchase page; nothing released past the window yet.
    const alone = licenseFlag({ ...ended, next_version: null }, { now: NOW });
    expect(alone?.planId).toBeUndefined();
    expect(alone?.message).toMatch(
      /^Your license covers versions up to 2\.3\. Renew updates to get newer versions\./,
    );
    // A window still open, or a view that does not say what it covers.
    expect(
      licenseFlag({ ...ended, update_window_ended: false, updates_until: at(30) }, { now: NOW }),
    ).toBeNull();
    expect(licenseFlag({ ...ended, covered_version: undefined }, { now: NOW })?.message).toMatch(
      /^Its update window has ended: renew updates/,
    );
  });

  it('an active license far from its expiry has no flag', () => {
    expect(licenseFlag(license(), { now: NOW })).toBe(null);
  });
});

describe('daysLeft', () => {
  it('counts calendar days, and nothing once past', () => {
    expect(daysLeft(at(0.25), NOW)).toBe(0);
    expect(daysLeft(at(1), NOW)).toBe(1);
    expect(daysLeft(at(-0.1), NOW)).toBe(null);
    expect(daysLeft('not a date', NOW)).toBe(null);
  });
});

describe('activationOption', () => {
  const seats = {
    license_id: 'L1',
    status: 'active' as const,
    activations_used: 1,
    max_activations: 3,
    floating: false,
  };
  const valid = { valid: true, status: 'active' as const, message: 'License is valid', license_id: 'L1' };

  it('is available for an active license with a free seat that this machine does not use', () => {
    expect(activationOption(seats, null)).toEqual({ kind: 'available' });
    expect(activationOption(seats, { ...valid, license_id: 'L2' })).toEqual({ kind: 'available' });
  });

  it('not for the license this machine uses, nor one that cannot be used', () => {
    expect(activationOption(seats, valid)).toEqual({ kind: 'here' });
    for (const status of ['suspended', 'revoked', 'expired'] as const)
      expect(activationOption({ ...seats, status }, null)).toEqual({ kind: 'unusable' });
  });

  it('a full license says why', () => {
    const option = activationOption({ ...seats, activations_used: 3 }, null);
    expect(option.kind).toBe('full');
    expect(option.kind === 'full' && option.reason).toMatch(/^All 3 seats are in use\./);
    const one = activationOption({ ...seats, activations_used: 1, max_activations: 1 }, null);
    expect(one.kind === 'full' && one.reason).toMatch(/^All 1 seat is in use\./);
  });

  it('a floating license is never full by its activations: a machine takes a seat of its pool as it runs', () => {
    expect(activationOption({ ...seats, activations_used: 3, floating: true }, null)).toEqual({
      kind: 'available',
    });
  });
});
