import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AdminSubscription } from '../../../../../shared/api/admin-subscriptions';
import type { SubscriptionStatus } from '../../../../../shared/api/subscriptions';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';

/** Each status in words (render with the shown language's `i18n._`), and the tone its badge takes. */
export const SUBSCRIPTION_STATUS_LABELS: Record<
  SubscriptionStatus,
  { label: MessageDescriptor; tone: StatusTone }
> = {
  active: { label: msg`Active`, tone: 'positive' },
  past_due: { label: msg`Past due`, tone: 'caution' },
  suspended: { label: msg`Suspended`, tone: 'negative' },
  paused: { label: msg`Paused`, tone: 'info' },
  cancelled: { label: msg`Canceled`, tone: 'neutral' },
  pending: { label: msg`Not paid yet`, tone: 'info' },
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
  const { i18n } = useLingui();
  const ending = subscription.status === 'active' && subscription.cancel_at_period_end;
  const pausing = subscription.status === 'active' && !ending && subscription.pause !== null;
  const { label, tone } = SUBSCRIPTION_STATUS_LABELS[subscription.status];
  return (
    <StatusBadge tone={ending ? 'caution' : pausing ? 'info' : tone} {...(size ? { size } : {})}>
      {ending ? <Trans>Ends at period end</Trans> : pausing ? <Trans>Pause planned</Trans> : i18n._(label)}
    </StatusBadge>
  );
}

/** A date of a period: "27 Nov 2026", as the language shown writes it. */
export const periodDate = (iso: string) =>
  new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'medium' }).format(new Date(iso));

/** "Monthly" or "Yearly", in the language shown. */
export const intervalLabel = (interval: 'month' | 'year') => (interval === 'month' ? t`Monthly` : t`Yearly`);
