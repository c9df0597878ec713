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
  return per_units === 1 ? `${price} each` : `${price} per ${formatNumber(per_units)} ${unit}`;
}

/** When the overage is charged, and what ended periods owe until then; or that it never is. */
function chargeText(outlook: OverageOutlook, currency: string, unit: string): string {
  if (!outlook.billable) return 'Not charged: this license has no subscription that renews.';
  const when = outlook.charged_on
    ? ` with the renewal on ${formatDate(outlook.charged_on)}`
    : ' with the next renewal';
  if (outlook.owed_minor <= 0) return `Charged after the period ends,${when}.`;
  return `Owed from ended periods: ${formatMoney(outlook.owed_minor, currency)} (${formatNumber(outlook.owed_units)} ${unit}), charged${when}.`;
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
  const projected = projectedOverage(feature);
  if (!billsOverage(feature) || !projected) {
    return (
      <Text size="sm" c="dimmed">
        Use stops at the allowance until it resets.
      </Text>
    );
  }
  const price = priceText(feature, currency, unit);
  const cap = feature.overage.policy === 'cap' && feature.overage.cap !== null ? feature.overage.cap : null;
  const capText = cap === null ? '' : ` Up to ${formatNumber(cap)} ${unit} past it; then use stops.`;
  return (
    <Stack gap={4} data-testid="overage">
      <Text size="sm">
        {projected.units > 0
          ? `Past the allowance: ${formatNumber(projected.units)} ${unit}, billed at ${price}.`
          : `Past the allowance, use is billed at ${price}.`}
        {capText}
      </Text>
      <Text size="sm">
        Projected overage this period:{' '}
        <Text span fw={700} data-testid="projected-overage">
          {formatMoney(projected.amountMinor, currency)}
        </Text>
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
  const unit = feature.unit ?? 'units';
  const caption = `${feature.name} per day this period`;
  return (
    <Card withBorder padding="lg" component="article" aria-label={`${feature.name} usage`}>
      <Stack gap="md">
        <Title order={3} size="h4">
          {feature.name}
        </Title>
        <FeatureUsageMeter feature={feature} showName={false} />
        {feature.limit === null ? null : (
          <OverageLines feature={feature} currency={currency} unit={unit} outlook={outlook} />
        )}
        {packs.length > 0 ? (
          <Stack gap={2} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Credit packs">
            {packs.map((pack) => (
              <Text key={pack.id} component="li" size="sm">
                Credit pack: {formatNumber(pack.left)} of {formatNumber(pack.units)} {unit} left, valid until{' '}
                {formatDate(pack.expires_at)}
              </Text>
            ))}
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
