import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { BillingInterval, Plan } from '../../../../../shared/api/plans';
import type { StatusTone } from '../../../components/data/status-badge';

/** Each billing interval in words (render with the shown language's `i18n._`). */
export const INTERVAL_LABELS: Record<BillingInterval, MessageDescriptor> = {
  month: msg`Monthly`,
  year: msg`Yearly`,
  lifetime: msg`Lifetime (one payment)`,
  free: msg`Free`,
};

/** Digits of a currency's minor unit (2 for INR and USD, 0 for JPY). */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/** 999.5 INR → 99950 paise. */
export const toMinor = (major: number, currency: string) => Math.round(major * 10 ** minorDigits(currency));
/** 99950 paise → 999.5. */
export const toMajor = (minor: number, currency: string) => minor / 10 ** minorDigits(currency);

/** Where a package stands, in the language shown: archived beats draft beats inactive beats on sale. */
export function packageState(plan: Pick<Plan, 'archived_at' | 'is_active' | 'is_draft'>): {
  label: string;
  tone: StatusTone;
} {
  if (plan.archived_at) return { label: t`Archived`, tone: 'neutral' };
  if (plan.is_draft) return { label: t`Draft`, tone: 'info' };
  if (!plan.is_active) return { label: t`Inactive`, tone: 'caution' };
  return { label: t`Active`, tone: 'positive' };
}

/**
 * "2 machines at once": what a package's `max_activations` means, per seat for an organization's
 * package, in the language shown.
 */
export function machinesText(plan: Pick<Plan, 'max_activations' | 'seat_based'>): string {
  const count = plan.max_activations;
  return plan.seat_based
    ? plural(count, { one: '# machine per seat at once', other: '# machines per seat at once' })
    : plural(count, { one: '# machine at once', other: '# machines at once' });
}
