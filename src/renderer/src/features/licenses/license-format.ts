import type { DownloadPlatform, FeatureUsage, License, LicenseStatus } from '../../../../shared/api/licenses';
import type { LicenseCheckResult } from '../../../../shared/bridge';

/** How the license screens write dates, sizes and statuses. */

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const numberFormat = new Intl.NumberFormat();
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** Shown for a date the answer lacks or garbled, where Intl would throw "Invalid time value". */
const NO_DATE = '—';
const validDate = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

export const formatDate = (iso: string) => {
  const date = validDate(iso);
  return date ? dateFormat.format(date) : NO_DATE;
};
export const formatDateTime = (iso: string) => {
  const date = validDate(iso);
  return date ? dateTimeFormat.format(date) : NO_DATE;
};
export const formatNumber = (value: number) => numberFormat.format(value);
/** A `YYYY-MM-DD` day of the usage history (UTC) as "Nov 3". */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

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
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit);
  return 'just now';
}

/** "80.4 MB", "912 KB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

export const PLATFORM_NAMES: Record<DownloadPlatform, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
};

export const STATUS_LABELS: Record<LicenseStatus, string> = {
  active: 'Active',
  suspended: 'Suspended',
  paused: 'Paused',
  revoked: 'Revoked',
  expired: 'Expired',
  trial_expired: 'Trial ended',
};

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
  return new Date(updatesUntil).getTime() > now ? `Updates until ${day}` : `Updates ended on ${day}`;
}

export function expiryText(
  license: Pick<License, 'expires_at' | 'status' | 'revoked_at'> & {
    renews?: boolean;
    updates_until?: string | null;
  },
): string {
  if (license.status === 'revoked')
    return license.revoked_at ? `Revoked on ${formatDate(license.revoked_at)}` : 'Revoked';
  // A perpetual license never expires; what runs out is its updates.
  if (!license.expires_at && license.updates_until)
    return `Never expires · ${updateWindowText(license.updates_until)}`;
  if (!license.expires_at) return 'Never expires';
  const day = formatDate(license.expires_at);
  if (license.status === 'expired' || new Date(license.expires_at).getTime() < Date.now())
    return `Expired on ${day}`;
  return license.renews ? `Renews on ${day}` : `Expires on ${day}`;
}

export const seatsText = (used: number, allowed: number) =>
  `${formatNumber(used)} of ${formatNumber(allowed)} seat${allowed === 1 ? '' : 's'} in use`;

/** "1,000 messages per month", "Unlimited", "Included". */
export function limitText(feature: Pick<FeatureUsage, 'kind' | 'limit' | 'unit' | 'period'>): string {
  if (feature.kind === 'boolean') return 'Included';
  if (feature.limit === null) return `Unlimited ${feature.unit ?? 'uses'}`;
  return `${formatNumber(feature.limit)} ${feature.unit ?? 'uses'}${feature.period ? ` per ${feature.period}` : ''}`;
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
    return result.offline ? { label: 'Valid (offline)', color: 'yellow' } : { label: 'Valid', color: 'teal' };
  if (result.status === 'not_configured') return { label: 'Not configured', color: 'gray' };
  if (result.status === 'error') return { label: 'Not checked', color: 'orange' };
  if (result.status === 'paused') return { label: 'Paused', color: 'blue' };
  return { label: 'Not valid', color: 'red' };
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
  if (result.status !== 'not_configured') return { ...checkBadge(result), message: result.message };
  if (licenses === null)
    return {
      label: `No license on this ${where}`,
      color: 'gray',
      message: `No license key is stored on this ${where}.`,
    };
  if (licenses.length === 0)
    return { label: 'No license yet', color: 'gray', message: 'Your account has no license yet.' };
  const usable = licenses.filter((license) => license.status === 'active').length;
  const count = `${formatNumber(licenses.length)} license${licenses.length === 1 ? '' : 's'}`;
  return {
    label: `Not activated on this ${where}`,
    color: usable > 0 ? 'iris' : 'gray',
    message: `Your account has ${count} (${formatNumber(usable)} active); none is activated on this ${where}.`,
  };
}
