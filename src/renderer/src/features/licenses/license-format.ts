import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { DownloadPlatform, FeatureUsage, License, LicenseStatus } from '../../../../shared/api/licenses';
import type { LicenseCheckResult } from '../../../../shared/bridge';
import { formatDate as formatLibDate, formatDateTime as formatLibDateTime } from '../../lib/format-date';
import { formattingLocale, knownText } from '../../lib/i18n/portal-i18n';
import { numberFormat } from '../../lib/number-format';

/** How the license screens write dates, sizes and statuses, in the language shown. */

/** One formatter per locale: the language shown may change while the portal runs. */
function perLocale<F>(make: (locale: string | undefined) => F): () => F {
  const made = new Map<string | undefined, F>();
  return () => {
    const locale = formattingLocale();
    let format = made.get(locale);
    if (!format) {
      format = make(locale);
      made.set(locale, format);
    }
    return format;
  };
}
const dayFormat = perLocale(
  (locale) => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
);
const relativeFormat = perLocale((locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));

/** Shown for a date the answer lacks or garbled, where Intl would throw "Invalid time value". */
const NO_DATE = '—';
const validDate = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

export const formatDate = (iso: string) => {
  const date = validDate(iso);
  return date ? formatLibDate(iso) : NO_DATE;
};
export const formatDateTime = (iso: string) => {
  const date = validDate(iso);
  return date ? formatLibDateTime(iso) : NO_DATE;
};
export const formatNumber = (value: number) => numberFormat(formattingLocale()).format(value);
/** A `YYYY-MM-DD` day of the usage history (UTC) as "Nov 3". */
export const formatDay = (day: string) => dayFormat().format(new Date(`${day}T00:00:00Z`));

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "just now". */
export function formatRelative(iso: string, now = Date.now()): string {
  const date = validDate(iso);
  if (!date) return NO_DATE;
  const seconds = Math.round((date.getTime() - now) / 1000);
  for (const [unit, size] of RELATIVE_STEPS)
    if (Math.abs(seconds) >= size) return relativeFormat().format(Math.round(seconds / size), unit);
  return t`just now`;
}

/**
 * What is left of the offline grace period ("6 days", "5 hours", "less than an hour"), in the
 * language shown: the same steps as shared/bridge.ts's `describeGraceRemaining`, which is English only.
 */
export function graceRemainingText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  if (days >= 1) return plural(days, { one: '# day', other: '# days' });
  const hours = Math.floor(seconds / 3600);
  if (hours >= 1) return plural(hours, { one: '# hour', other: '# hours' });
  return t`less than an hour`;
}

/** "80.4 MB", "912 KB". */
export function formatBytes(bytes: number): string {
  const units = [t`bytes`, 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const amount = numberFormat(formattingLocale(), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(value);
  return `${amount} ${units[unit]}`;
}

export const PLATFORM_NAMES: Record<DownloadPlatform, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
};

const STATUS_MESSAGES: Record<LicenseStatus, MessageDescriptor> = {
  active: msg`Active`,
  suspended: msg`Suspended`,
  paused: msg`Paused`,
  revoked: msg`Revoked`,
  expired: msg`Expired`,
  trial_expired: msg`Trial ended`,
};

/** A license status in words, in the language shown. */
export const statusLabel = (status: LicenseStatus): string => i18n._(STATUS_MESSAGES[status]);

/** The status labels, each read in the language shown when it is read (other screens list them). */
export const STATUS_LABELS: Readonly<Record<LicenseStatus, string>> = Object.defineProperties(
  {} as Record<LicenseStatus, string>,
  Object.fromEntries(
    (Object.keys(STATUS_MESSAGES) as LicenseStatus[]).map((status) => [
      status,
      { enumerable: true, get: () => statusLabel(status) },
    ]),
  ),
);

/**
 * A license's validity in words: "Revoked on Jan 3, 2026" for a revoked one (even a lifetime
 * license, which then no longer "never expires"), "Never expires", "Expired on …", "Renews on …"
 * when an active subscription will renew it, else "Expires on …".
 */
/**
 * A perpetual license's update window: "Updates until Mar 3, 2027", or "Updates ended on Mar 3,
 * 2027" (the license's notice then says what it covers and how to renew).
 */
export function updateWindowText(updatesUntil: string, now = Date.now()): string {
  const day = formatDate(updatesUntil);
  return new Date(updatesUntil).getTime() > now ? t`Updates until ${day}` : t`Updates ended on ${day}`;
}

export function expiryText(
  license: Pick<License, 'expires_at' | 'status' | 'revoked_at'> & {
    renews?: boolean;
    updates_until?: string | null;
  },
): string {
  if (license.status === 'revoked') {
    if (!license.revoked_at) return t`Revoked`;
    const day = formatDate(license.revoked_at);
    return t`Revoked on ${day}`;
  }
  // A perpetual license never expires; what runs out is its updates.
  if (!license.expires_at && license.updates_until) {
    const updates = updateWindowText(license.updates_until);
    return t`Never expires · ${updates}`;
  }
  if (!license.expires_at) return t`Never expires`;
  const day = formatDate(license.expires_at);
  if (license.status === 'expired' || new Date(license.expires_at).getTime() < Date.now())
    return t`Expired on ${day}`;
  return license.renews ? t`Renews on ${day}` : t`Expires on ${day}`;
}

export function seatsText(used: number, allowed: number): string {
  const usedSeats = formatNumber(used);
  const allowedSeats = formatNumber(allowed);
  return plural(allowed, {
    one: `${usedSeats} of ${allowedSeats} seat in use`,
    other: `${usedSeats} of ${allowedSeats} seats in use`,
  });
}

/** "1,000 messages per month", "Unlimited", "Included". */
export function limitText(feature: Pick<FeatureUsage, 'kind' | 'limit' | 'unit' | 'period'>): string {
  if (feature.kind === 'boolean') return t`Included`;
  // The unit is the plan's own word (data), not the portal's; the period is one of two.
  const unit = feature.unit ?? t`uses`;
  if (feature.limit === null) return t`Unlimited ${unit}`;
  const limit = formatNumber(feature.limit);
  if (!feature.period) return `${limit} ${unit}`;
  return feature.period === 'day' ? t`${limit} ${unit} per day` : t`${limit} ${unit} per month`;
}

export const isMetered = (feature: Pick<FeatureUsage, 'kind'>) => feature.kind === 'metered';

/** Share of the limit used, 0–100; null when there is no limit to measure against. */
export function usedPercent(feature: Pick<FeatureUsage, 'limit' | 'used'>): number | null {
  if (feature.limit === null) return null;
  if (feature.limit <= 0) return 100;
  return Math.min(100, Math.round((feature.used / feature.limit) * 100));
}

/** A license the API answered, checked for the fields the screens read (anything else is a format error). */
export const isLicense = (value: unknown): value is License =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as License).license_id === 'string' &&
  typeof (value as License).license_key === 'string' &&
  typeof (value as License).plan === 'object' &&
  (value as License).plan !== null &&
  typeof (value as License).max_activations === 'number';

/**
 * This machine's status check as a badge: the dot carries the colour, the text keeps the body
 * colour (readable in both schemes).
 */
export function checkBadge(result: LicenseCheckResult): { label: string; color: string } {
  if (result.valid)
    return result.offline
      ? { label: t`Valid (offline)`, color: 'yellow' }
      : { label: t`Valid`, color: 'teal' };
  if (result.status === 'not_configured') return { label: t`Not configured`, color: 'gray' };
  if (result.status === 'error') return { label: t`Not checked`, color: 'orange' };
  if (result.status === 'paused') return { label: t`Paused`, color: 'blue' };
  return { label: t`Not valid`, color: 'red' };
}

/** What a license check says as a person reads it, when this machine holds no key but the account may. */
export interface CheckSummary {
  label: string;
  color: string;
  message: string;
}

/**
 * A license check as the Support page shows it. With no key stored on this machine the check's own
 * answer is "No license configured"; what matters then is the account's licenses, so the summary
 * says how many there are and that none is activated here (or that there are none yet).
 */
export function summarizeCheck(
  result: LicenseCheckResult,
  licenses: readonly Pick<License, 'status' | 'plan'>[] | null,
  where: 'browser' | 'computer',
): CheckSummary {
  if (result.status !== 'not_configured')
    return { ...checkBadge(result), message: knownText(result.message) };
  const browser = where === 'browser';
  if (licenses === null)
    return {
      label: browser ? t`No license on this browser` : t`No license on this computer`,
      color: 'gray',
      message: browser
        ? t`No license key is stored on this browser.`
        : t`No license key is stored on this computer.`,
    };
  if (licenses.length === 0)
    return { label: t`No license yet`, color: 'gray', message: t`Your account has no license yet.` };
  const usable = formatNumber(licenses.filter((license) => license.status === 'active').length);
  const total = formatNumber(licenses.length);
  const licenseCount = licenses.length;
  const count = plural(licenseCount, { one: `${total} license`, other: `${total} licenses` });
  return {
    label: browser ? t`Not activated on this browser` : t`Not activated on this computer`,
    color: licenses.some((license) => license.status === 'active') ? 'iris' : 'gray',
    message: browser
      ? t`Your account has ${count} (${usable} active); none is activated on this browser.`
      : t`Your account has ${count} (${usable} active); none is activated on this computer.`,
  };
}
