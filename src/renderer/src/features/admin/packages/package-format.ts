import type { BillingInterval, Plan } from '../../../../../shared/api/plans';
import type { StatusTone } from '../../../components/data/status-badge';

export const INTERVAL_LABELS: Record<BillingInterval, string> = {
  month: 'Monthly',
  year: 'Yearly',
  lifetime: 'Lifetime (one payment)',
  free: 'Free',
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

/** Where a package stands: archived beats draft beats inactive beats on sale. */
export function packageState(plan: Pick<Plan, 'archived_at' | 'is_active' | 'is_draft'>): {
  label: string;
  tone: StatusTone;
} {
  if (plan.archived_at) return { label: 'Archived', tone: 'neutral' };
  if (plan.is_draft) return { label: 'Draft', tone: 'info' };
  if (!plan.is_active) return { label: 'Inactive', tone: 'caution' };
  return { label: 'Active', tone: 'positive' };
}

/** "2 machines at once": what a package's `max_activations` means, per seat for an organization's package. */
export const machinesText = (plan: Pick<Plan, 'max_activations' | 'seat_based'>) =>
  `${plan.max_activations} machine${plan.max_activations === 1 ? '' : 's'}${plan.seat_based ? ' per seat' : ''} at once`;
