import type { AdminSubscription } from '../../../../../shared/api/admin-subscriptions';
import type { SubscriptionStatus } from '../../../../../shared/api/subscriptions';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';

/** Each status in words, and the tone its badge takes. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, { label: string; tone: StatusTone }> = {
  active: { label: 'Active', tone: 'positive' },
  past_due: { label: 'Past due', tone: 'caution' },
  suspended: { label: 'Suspended', tone: 'negative' },
  paused: { label: 'Paused', tone: 'info' },
  cancelled: { label: 'Canceled', tone: 'neutral' },
  pending: { label: 'Not paid yet', tone: 'info' },
};

/**
 * The status, or "Ends at period end" for an active one that will not renew, or "Pause planned"
 * for an active one that pauses at its period's end (the customer's card says the same).
 */
export function SubscriptionStatusBadge({
  subscription,
  size,
}: {
  subscription: Pick<AdminSubscription, 'status' | 'cancel_at_period_end' | 'pause'>;
  size?: 'md' | 'lg';
}) {
  const ending = subscription.status === 'active' && subscription.cancel_at_period_end;
  const pausing = subscription.status === 'active' && !ending && subscription.pause !== null;
  const { label, tone } = SUBSCRIPTION_STATUS_LABELS[subscription.status];
  return (
    <StatusBadge tone={ending ? 'caution' : pausing ? 'info' : tone} {...(size ? { size } : {})}>
      {ending ? 'Ends at period end' : pausing ? 'Pause planned' : label}
    </StatusBadge>
  );
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
/** A date of a period: "27 Nov 2026". */
export const periodDate = (iso: string) => day.format(new Date(iso));

/** "Every month" or "Every year". */
export const intervalLabel = (interval: 'month' | 'year') => (interval === 'month' ? 'Monthly' : 'Yearly');
