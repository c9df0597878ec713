import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import type { UsageLeft } from '../../../../../shared/bridge';
import { DeviceIcon, RefreshIcon } from '../../../components/brand/icons';
import { RetryNotice } from '../../../components/data/retry-notice';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';
import { failureMessage } from '../../../lib/api-errors';
import { knownText } from '../../../lib/i18n/portal-i18n';
import { formatDate, formatNumber } from '../license-format';
import { machineMessages, useGetThisMachineUsageQuery } from '../licenses-endpoints';

type Source = UsageLeft['source'];
type LeftOfFeature = UsageLeft['features'][number];

/** Where the numbers come from, as the badge says it. */
const SOURCES: Record<Source, { label: MessageDescriptor; tone: StatusTone }> = {
  server: { label: msg`Online: counted by the license server`, tone: 'positive' },
  reservation: { label: msg`Offline: this machine’s allowance`, tone: 'caution' },
  none: { label: msg`Nothing to go by`, tone: 'neutral' },
};

/** The feature's name and unit as the license names them; the key when no license here does. */
function named(item: LeftOfFeature, features: Pick<FeatureUsage, 'key' | 'name' | 'unit'>[]) {
  const feature = features.find((each) => each.key === item.key);
  return { name: feature?.name ?? item.key, unit: feature?.unit ?? t`uses` };
}

function leftWords(item: LeftOfFeature, unit: string, line = false): string {
  if (item.left === null) return line ? t`no limit` : t`No limit`;
  const left = formatNumber(item.left);
  return t`${left} ${unit} left`;
}

function waitingWords(queued: number, unit: string): string {
  if (queued === 0) return t`Nothing waiting to upload`;
  const amount = formatNumber(queued);
  return t`${amount} ${unit} waiting to upload`;
}

/**
 * What this machine may still use, read from the desktop app (`window.desktop.usage.left()`): per
 * metered feature what is left, whether the license server or the machine's offline allowance says
 * so, and how much use made here still waits to upload. Nothing on the web, where there is no app.
 */
export function ThisMachineUsage({ features }: { features: Pick<FeatureUsage, 'key' | 'name' | 'unit'>[] }) {
  const { t } = useLingui();
  const { data, error, isError, isFetching, refetch } = useGetThisMachineUsageQuery();
  if (isError)
    return (
      <RetryNotice
        title={t`Could not read this machine’s usage`}
        message={failureMessage(error, machineMessages.usageUnreadable)}
        onRetry={() => void refetch()}
      />
    );
  if (!data) return null;
  const source = SOURCES[data.source];
  const waiting = data.features.reduce((sum, item) => sum + item.queued, 0);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="machine-usage-title">
      <Stack gap="md">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap="xs" wrap="nowrap">
            <DeviceIcon size={20} />
            <Title order={2} size="h3" id="machine-usage-title">
              <Trans>On this machine</Trans>
            </Title>
          </Group>
          <Button
            size="xs"
            variant="default"
            leftSection={<RefreshIcon size={14} />}
            loading={isFetching}
            onClick={() => void refetch()}
          >
            <Trans>Check again</Trans>
          </Button>
        </Group>
        <Stack gap={6} aria-live="polite">
          <StatusBadge
            tone={source.tone}
            data-testid="machine-usage-source"
            style={{ alignSelf: 'flex-start' }}
          >
            {t(source.label)}
          </StatusBadge>
          <Text size="sm" c="dimmed" data-testid="machine-usage-message">
            {/* Main's English (or the license check's), in the language shown. */}
            {knownText(data.message)}
          </Text>
        </Stack>
        {data.features.length > 0 ? (
          <SimpleGrid cols={{ base: 1, sm: data.features.length > 1 ? 2 : 1 }} spacing="md">
            {data.features.map((item) => {
              const { name, unit } = named(item, features);
              const periodEnd = item.period_end ? formatDate(item.period_end) : '';
              return (
                <Paper
                  key={item.key}
                  withBorder
                  radius="md"
                  p="md"
                  component="article"
                  aria-label={t`${name} on this machine`}
                >
                  <Stack gap={4}>
                    <Text fw={600} size="sm">
                      {name}
                    </Text>
                    <Text fw={700} size="xl" data-testid="machine-usage-left">
                      {leftWords(item, unit)}
                    </Text>
                    <Text size="sm" data-testid="machine-usage-queued">
                      {waitingWords(item.queued, unit)}
                    </Text>
                    {item.period_end ? (
                      <Text size="xs" c="dimmed">
                        {data.source === 'reservation'
                          ? t`For the period ending ${periodEnd}`
                          : t`Resets on ${periodEnd}`}
                      </Text>
                    ) : null}
                  </Stack>
                </Paper>
              );
            })}
          </SimpleGrid>
        ) : null}
        {waiting > 0 ? (
          <Text size="sm" data-testid="machine-usage-waiting">
            <Trans>
              Use made here is sent when the app is online with you signed in; it counts in the period it
              happened.
            </Trans>
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * One line for the dashboard's machine tile: "AI chat: 92 messages left · 5 waiting to upload";
 * nothing on the web or when the app has nothing to say.
 */
export function ThisMachineUsageLine({
  features,
}: {
  features: Pick<FeatureUsage, 'key' | 'name' | 'unit'>[];
}) {
  const { t } = useLingui();
  const { data } = useGetThisMachineUsageQuery();
  if (!data || data.features.length === 0) return null;
  const parts = data.features.map((item) => {
    const { name, unit } = named(item, features);
    const left = leftWords(item, unit, true);
    if (item.queued === 0) return `${name}: ${left}`;
    const queued = formatNumber(item.queued);
    return t`${name}: ${left} · ${queued} waiting to upload`;
  });
  const list = parts.join('; ');
  return (
    <Text size="sm" data-testid="machine-usage-line">
      {data.source === 'reservation' ? t`${list} (offline allowance).` : `${list}.`}
    </Text>
  );
}
