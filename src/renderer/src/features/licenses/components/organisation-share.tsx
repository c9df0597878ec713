import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { formatNumber } from '../license-format';
import { Card, Stack, Text } from '@mantine/core';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import type { MemberUsage } from '../../../../../shared/api/member-usage';

const format = (value: number) => formatNumber(value);

/** "You: 6 of your cap 20" or "You: 6 (no cap)". */
function yours(used: number, cap: number | null): string {
  const amount = format(used);
  if (cap === null) return t`You: ${amount} (no cap)`;
  const allowed = format(cap);
  return t`You: ${amount} of your cap ${allowed}`;
}

/** "Organization: 15 of 100" or "Organization: 15 (no limit)". */
function pool(feature: FeatureUsage): string {
  const amount = format(feature.used);
  if (feature.limit === null) return t`Organization: ${amount} (no limit)`;
  const limit = format(feature.limit);
  return t`Organization: ${amount} of ${limit}`;
}

/**
 * On an organisation's license, what the member used of each metered feature beside what the whole
 * organisation used of its shared allowance: "You: 6 of your cap 20 · Organization: 15 of 100".
 */
export function OrganisationShare({ own, features }: { own: MemberUsage; features: FeatureUsage[] }) {
  const lines = own.features.flatMap((mine) => {
    const shared = features.find((feature) => feature.feature_id === mine.feature_id);
    return shared ? [{ mine, shared }] : [];
  });
  if (lines.length === 0) return null;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="organisation-share-title">
      <Stack gap={4}>
        <Text id="organisation-share-title" fw={600} size="sm">
          <Trans>Your share of the organization’s allowance</Trans>
        </Text>
        {lines.map(({ mine, shared }) => (
          <Text key={mine.feature_id} size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <Text span fw={600} size="sm">
              {mine.name}
            </Text>
            {` — ${yours(mine.used, mine.cap)} · ${pool(shared)} ${mine.unit ?? t`units`}`}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}
