import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Stack, Text, Title } from '@mantine/core';
import type { FeatureUsage, OverageOutlook, UsagePack } from '../../../../../shared/api/licenses';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { formatNumber } from '../license-format';
import type { UsagePoint } from '../usage-history';
import { billsOverage, projectedOverage } from '../usage-overage';
import { FeatureUsageMeter } from './feature-usage-meter';
import { UsageChart } from './usage-chart';
import { UsageDayTable } from './usage-day-table';

/** "₹2 each" or "₹5 per 10 messages": the price of use past the allowance. */
function priceText(feature: FeatureUsage, currency: string, unit: string): string {
  const { price_minor, per_units } = feature.overage;
  const price = formatMoney(price_minor ?? 0, currency);
  const units = formatNumber(per_units);
  return per_units === 1 ? t`${price} each` : t`${price} per ${units} ${unit}`;
}

/** When the overage is charged, and what ended periods owe until then; or that it never is. */
function chargeText(outlook: OverageOutlook, currency: string, unit: string): string {
  if (!outlook.billable) return t`Not charged: this license has no subscription that renews.`;
  const day = outlook.charged_on ? formatDate(outlook.charged_on) : null;
  if (outlook.owed_minor <= 0)
    return day
      ? t`Charged after the period ends, with the renewal on ${day}.`
      : t`Charged after the period ends, with the next renewal.`;
  const owed = formatMoney(outlook.owed_minor, currency);
  const owedUnits = formatNumber(outlook.owed_units);
  return day
    ? t`Owed from ended periods: ${owed} (${owedUnits} ${unit}), charged with the renewal on ${day}.`
    : t`Owed from ended periods: ${owed} (${owedUnits} ${unit}), charged with the next renewal.`;
}

/** What happens past the allowance, and what the use past it comes to so far. */
function OverageLines({
  feature,
  currency,
  unit,
  outlook,
}: {
  feature: FeatureUsage;
  currency: string;
  unit: string;
  outlook: OverageOutlook | undefined;
}) {
  const { t } = useLingui();
  const projected = projectedOverage(feature);
  if (!billsOverage(feature) || !projected) {
    return (
      <Text size="sm" c="dimmed">
        <Trans>Use stops at the allowance until it resets.</Trans>
      </Text>
    );
  }
  const price = priceText(feature, currency, unit);
  const cap = feature.overage.policy === 'cap' && feature.overage.cap !== null ? feature.overage.cap : null;
  const capUnits = cap === null ? '' : formatNumber(cap);
  const capText = cap === null ? '' : ' ' + t`Up to ${capUnits} ${unit} past it; then use stops.`;
  const pastUnits = formatNumber(projected.units);
  const projectedAmount = formatMoney(projected.amountMinor, currency);
  return (
    <Stack gap={4} data-testid="overage">
      <Text size="sm">
        {projected.units > 0
          ? t`Past the allowance: ${pastUnits} ${unit}, billed at ${price}.`
          : t`Past the allowance, use is billed at ${price}.`}
        {capText}
      </Text>
      <Text size="sm">
        <Trans>
          Projected overage this period:{' '}
          <Text span fw={700} data-testid="projected-overage">
            {projectedAmount}
          </Text>
        </Trans>
      </Text>
      {outlook ? (
        <Text size="sm" data-testid="overage-charge">
          {chargeText(outlook, currency, unit)}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * One metered feature on the Usage page: used of the allowance, what is left and when it resets,
 * what use past the allowance costs, and the period's days as a chart and a table.
 */
export function MeteredFeatureCard({
  feature,
  currency,
  outlook,
  packs = [],
  points,
  chartColor,
}: {
  feature: FeatureUsage;
  /** The feature's credit packs not expired or refunded, earliest expiry first. */
  packs?: UsagePack[];
  /** The plan's currency, in which the overage is priced. */
  currency: string;
  /** The overage projected and owed, and when it is charged (the usage report's). */
  outlook?: OverageOutlook | undefined;
  /** This period's days (oldest first) with the feature's use on each. */
  points: UsagePoint[];
  chartColor: string;
}) {
  const { t } = useLingui();
  // The unit is the plan's own word (data); only the fallback is the portal's.
  const unit = feature.unit ?? t`units`;
  const name = feature.name;
  const caption = t`${name} per day this period`;
  return (
    <Card withBorder padding="lg" component="article" aria-label={t`${name} usage`}>
      <Stack gap="md">
        <Title order={3} size="h4">
          {feature.name}
        </Title>
        <FeatureUsageMeter feature={feature} showName={false} />
        {feature.limit === null ? null : (
          <OverageLines feature={feature} currency={currency} unit={unit} outlook={outlook} />
        )}
        {packs.length > 0 ? (
          <Stack
            gap={2}
            component="ul"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label={t`Credit packs`}
          >
            {packs.map((pack) => {
              const left = formatNumber(pack.left);
              const units = formatNumber(pack.units);
              const until = formatDate(pack.expires_at);
              return (
                <Text key={pack.id} component="li" size="sm">
                  <Trans>
                    Credit pack: {left} of {units} {unit} left, valid until {until}
                  </Trans>
                </Text>
              );
            })}
          </Stack>
        ) : null}
        <UsageChart
          caption={caption}
          showCaption
          height={200}
          unit={unit}
          data={points}
          series={[{ name: feature.key, label: feature.name, color: chartColor }]}
        />
        <UsageDayTable caption={caption} points={points} seriesKey={feature.key} unit={unit} />
      </Stack>
    </Card>
  );
}
