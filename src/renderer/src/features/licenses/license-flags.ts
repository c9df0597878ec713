import { plural, t } from '@lingui/core/macro';
import type { License } from '../../../../shared/api/licenses';
import type { Subscription } from '../../../../shared/api/subscriptions';
import type { LicenseCheckResult } from '../../../../shared/bridge';
import { LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT } from '../../../../shared/constants';
import { formatDate } from './license-format';
import { formattingLocale, knownText } from '../../lib/i18n/portal-i18n';
import { coveredVersionMessage } from '../../../../shared/update-window';

const DAY_MS = 86_400_000;

/** Where the customer goes to fix what a flag says. */
export type FlagAction = 'support' | 'payment' | 'renew' | 'resume' | 'buy' | 'renew_updates';

/** Something wrong (or about to be) with a license, in words, and what to do about it. */
export interface LicenseFlag {
  kind:
    | 'revoked'
    | 'suspended'
    | 'paused'
    | 'expired'
    | 'expiring'
    | 'trial'
    | 'trial_expired'
    | 'update_window_ended';
  tone: 'danger' | 'warning' | 'caution';
  title: string;
  message: string;
  /** The ways out, the first the main one. */
  actions: FlagAction[];
  /** The plan `buy` or `renew_updates` opens the checkout of: a trial's, or the update renewal's. */
  planId?: string;
}

type FlaggedLicense = Pick<
  License,
  'status' | 'expires_at' | 'revoked_reason' | 'revoked_at' | 'subscription_id' | 'license_id'
> &
  Partial<
    Pick<
      License,
      | 'trial'
      | 'plan_id'
      | 'updates_until'
      | 'update_window_ended'
      | 'covered_version'
      | 'next_version'
      | 'paused_until'
    >
  >;

/**
 * A perpetual license whose update window ended: still valid, but newer versions need an update
 * renewal. Says which versions it covers when the server told (the owner's views do).
 */
function windowEndedFlag(license: FlaggedLicense, renewalPlanId: string | undefined): LicenseFlag | null {
  if (!license.update_window_ended || !license.updates_until) return null;
  const message =
    license.covered_version === undefined
      ? t`Its update window has ended: renew updates to get newer versions.`
      : // The shared English the server's check says too, in the language shown.
        knownText(coveredVersionMessage(license.covered_version, license.next_version ?? null));
  const day = formatDate(license.updates_until);
  return {
    kind: 'update_window_ended',
    tone: 'caution',
    title: t`Updates ended on ${day}`,
    message: t`${message} This license keeps working on the versions it covers.`,
    actions: ['renew_updates'],
    ...(renewalPlanId ? { planId: renewalPlanId } : {}),
  };
}

const startOfDay = (time: number) => {
  const day = new Date(time);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
};

/**
 * Calendar days from now to `expiresAt` in local time (0 today, 1 tomorrow); null when it has
 * passed or is not a date.
 */
export function daysLeft(expiresAt: string, now: number): number | null {
  const end = new Date(expiresAt).getTime();
  if (Number.isNaN(end) || end <= now) return null;
  // Rounded: a day across a daylight-saving change is 23 or 25 hours long.
  return Math.round((startOfDay(end) - startOfDay(now)) / DAY_MS);
}

/**
 * Whether the license runs out at `expires_at` rather than renewing: a license bought once does; a
 * subscription's renews unless it is set to end (or has ended). Unknown subscriptions are taken
 * to renew, so a subscriber is not warned by mistake.
 */
function endsAtExpiry(license: FlaggedLicense, subscription: Subscription | undefined): boolean {
  if (!license.subscription_id) return true;
  if (!subscription) return false;
  return subscription.cancel_at_period_end || subscription.status === 'cancelled';
}

/**
 * A license to flag: revoked (with the administrator's reason), suspended (an unpaid subscription
 * is restored by paying; anything else by support), expired, or active and running out within the
 * expiry-reminder window. Null when there is nothing to say.
 */
export function licenseFlag(
  license: FlaggedLicense,
  {
    now = Date.now(),
    subscription,
    windowDays = LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT,
    renewalPlanId,
  }: {
    now?: number;
    subscription?: Subscription;
    windowDays?: number;
    /** The plan on sale that renews this license's updates, which its flag's button buys. */
    renewalPlanId?: string;
  } = {},
): LicenseFlag | null {
  switch (license.status) {
    case 'revoked': {
      const reason = license.revoked_reason?.trim().replace(/[.\s]+$/, '');
      const consequence = t`Its machines can no longer use it. Contact support if you think this is a mistake.`;
      return {
        kind: 'revoked',
        tone: 'danger',
        title: t`This license was revoked`,
        message: reason ? t`Reason given: ${reason}. ${consequence}` : consequence,
        actions: ['support'],
      };
    }
    case 'suspended': {
      if (subscription?.status === 'suspended')
        return {
          kind: 'suspended',
          tone: 'warning',
          title: t`Suspended: the subscription is unpaid`,
          message: t`The subscription’s payment failed and its grace period has ended, so its machines cannot use this license. Update the payment method to restore it.`,
          actions: ['payment'],
        };
      // A subscription not read (yet) may be the unpaid one: both ways out are offered.
      const maybeUnpaid = !!license.subscription_id && !subscription;
      return {
        kind: 'suspended',
        tone: 'warning',
        title: t`This license is suspended`,
        message: maybeUnpaid
          ? t`Its machines cannot use this license for now. If a subscription payment failed, update the payment method; otherwise contact support to restore it.`
          : t`Its machines cannot use this license for now. Contact support to restore it.`,
        actions: maybeUnpaid ? ['payment', 'support'] : ['support'],
      };
    }
    case 'paused': {
      const until = license.paused_until ? formatDate(license.paused_until) : null;
      return {
        kind: 'paused',
        tone: 'caution',
        title: until ? t`Paused until ${until}` : t`This license is paused`,
        message: t`Its subscription is paused, so its machines cannot use this license until it resumes. Resume the subscription sooner on the Subscriptions page.`,
        actions: ['payment'],
      };
    }
    case 'trial_expired': {
      const ended = license.expires_at ? formatDate(license.expires_at) : null;
      return {
        kind: 'trial_expired',
        tone: 'caution',
        title: t`Your free trial has ended`,
        message: ended
          ? t`The trial ended on ${ended}. Buy the plan to use it again: the license key, machines and usage stay as they are.`
          : t`The trial ended. Buy the plan to use it again: the license key, machines and usage stay as they are.`,
        actions: ['buy'],
        ...(license.plan_id ? { planId: license.plan_id } : {}),
      };
    }
    case 'expired': {
      const expired = license.expires_at ? formatDate(license.expires_at) : null;
      return {
        kind: 'expired',
        tone: 'caution',
        title: t`This license has expired`,
        message: expired
          ? t`This license expired on ${expired}. Renew it to use it again.`
          : t`This license expired. Renew it to use it again.`,
        actions: ['renew'],
      };
    }
    case 'active': {
      if (license.trial) {
        const ends = formatDate(license.trial.ends_at);
        const daysLeftInTrial = license.trial.days_left;
        return {
          kind: 'trial',
          tone: 'caution',
          title: plural(daysLeftInTrial, { one: 'Trial: # day left', other: 'Trial: # days left' }),
          message: t`Your free trial ends on ${ends}. No card was given, so nothing is charged: buy the plan to keep using it after that.`,
          actions: ['buy'],
          ...(license.plan_id ? { planId: license.plan_id } : {}),
        };
      }
      if (!license.expires_at) return windowEndedFlag(license, renewalPlanId);
      const days = daysLeft(license.expires_at, now);
      if (days === null || days > windowDays || !endsAtExpiry(license, subscription)) return null;
      // "in 3 days", "tomorrow": Intl writes it in the language shown.
      const when = new Intl.RelativeTimeFormat(formattingLocale(), { numeric: 'auto' }).format(days, 'day');
      const day = formatDate(license.expires_at);
      return {
        kind: 'expiring',
        tone: 'caution',
        title: t`Expires ${when}`,
        message: license.subscription_id
          ? t`The subscription ends on ${day}, and this license with it. Resume the subscription to keep it.`
          : t`This license expires on ${day}. Renew it to keep using it.`,
        actions: license.subscription_id ? ['resume'] : ['renew'],
      };
    }
  }
}

/** The licenses whose flag depends on their subscription's state (so it is worth reading). */
export const needsSubscription = (license: FlaggedLicense, now = Date.now()): boolean =>
  !!license.subscription_id &&
  (license.status === 'suspended' ||
    (license.status === 'active' &&
      !!license.expires_at &&
      (daysLeft(license.expires_at, now) ?? Infinity) <= LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT));

/** Whether this machine's check says it uses `license`. */
export const activeHere = (check: LicenseCheckResult | null, license: Pick<License, 'license_id'>) =>
  !!check?.valid && check.license_id === license.license_id;

/**
 * Whether "Activate on this machine" applies to a license, and when it does not, why: only an
 * active license not already in use here can be activated; a full one names the way out.
 */
export type ActivationOption =
  { kind: 'available' } | { kind: 'here' } | { kind: 'unusable' } | { kind: 'full'; reason: string };

export function activationOption(
  license: Pick<License, 'license_id' | 'status' | 'activations_used' | 'max_activations' | 'floating'>,
  check: LicenseCheckResult | null,
): ActivationOption {
  if (activeHere(check, license)) return { kind: 'here' };
  if (license.status !== 'active') return { kind: 'unusable' };
  // A floating license's machines take a seat as they run: no machine is activated on it.
  if (license.floating) return { kind: 'available' };
  const seats = license.max_activations;
  if (license.activations_used >= seats)
    return {
      kind: 'full',
      reason: plural(seats, {
        one: 'All # seat is in use. Deactivate a machine on the license’s details page to make room for this one.',
        other:
          'All # seats are in use. Deactivate a machine on the license’s details page to make room for this one.',
      }),
    };
  return { kind: 'available' };
}

/**
 * "Activate on this machine" for an organisation's license: on the user's own seat, whose machines
 * the server counts per member, so the license's seats in use say nothing about room for this one.
 */
export function seatActivationOption(
  license: Pick<License, 'license_id' | 'status'>,
  check: LicenseCheckResult | null,
): ActivationOption {
  if (activeHere(check, license)) return { kind: 'here' };
  return license.status === 'active' ? { kind: 'available' } : { kind: 'unusable' };
}
