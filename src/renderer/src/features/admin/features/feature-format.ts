import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { Feature, FeatureKind, UsagePeriod } from '../../../../../shared/api/features';
import { formatNumber } from '../../licenses';

/** Each kind and period in words (render with the shown language's `i18n._`). */
export const KIND_LABELS: Record<FeatureKind, MessageDescriptor> = {
  boolean: msg`On/off`,
  metered: msg`Metered`,
};
export const PERIOD_LABELS: Record<UsagePeriod, MessageDescriptor> = {
  day: msg`Per day`,
  month: msg`Per month`,
};
/** After a limit: "/ month". */
export const PER_PERIOD: Record<UsagePeriod, MessageDescriptor> = { day: msg`/ day`, month: msg`/ month` };

export const formatCount = (value: number) => formatNumber(value);

/**
 * "messages per month" for a metered feature, in the language shown (the unit is the feature's
 * own word, as the administrator wrote it); null for an on/off one.
 */
export function meteredUnit(feature: Pick<Feature, 'kind' | 'period' | 'unit'>): string | null {
  if (feature.kind !== 'metered') return null;
  const unit = feature.unit;
  if (feature.period === 'day') return unit ? t`${unit} per day` : t`uses per day`;
  if (feature.period === 'month') return unit ? t`${unit} per month` : t`uses per month`;
  return unit ?? t`uses`;
}
