import type { Feature, FeatureKind, UsagePeriod } from '../../../../../shared/api/features';

export const KIND_LABELS: Record<FeatureKind, string> = { boolean: 'On/off', metered: 'Metered' };
export const PERIOD_LABELS: Record<UsagePeriod, string> = { day: 'Per day', month: 'Per month' };

const number = new Intl.NumberFormat();
export const formatCount = (value: number) => number.format(value);

/** "messages per month" for a metered feature; null for an on/off one. */
export function meteredUnit(feature: Pick<Feature, 'kind' | 'period' | 'unit'>): string | null {
  if (feature.kind !== 'metered') return null;
  const unit = feature.unit ?? 'uses';
  return feature.period ? `${unit} per ${feature.period}` : unit;
}
