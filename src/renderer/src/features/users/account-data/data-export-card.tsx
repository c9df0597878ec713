import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { DataExport } from '../../../../../shared/api/account-data';
import { AlertIcon } from '../../../components/brand/icons';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format-date';
import {
  accountDataMessages,
  useGetDataExportQuery,
  useRequestDataExportMutation,
} from './account-data-endpoints';

/** How often the card asks how far an export being made has come. */
export const EXPORT_POLL_MS = 3000;

const inProgress = (made: DataExport | null | undefined) =>
  made?.status === 'queued' || made?.status === 'building';

function ExportStatus({ made }: { made: DataExport }) {
  const { t } = useLingui();
  const progress = made.progress;
  const until = formatDateTime(made.expires_at ?? made.requested_at);
  if (inProgress(made))
    return (
      <Stack gap={6}>
        <Text size="sm" role="status">
          <Trans>Preparing your archive… {progress}%</Trans>
        </Text>
        <Progress value={made.progress} aria-label={t`Archive prepared`} animated />
      </Stack>
    );
  if (made.status === 'ready')
    return (
      <Stack gap={4} role="status">
        <Text size="sm" fw={600}>
          <Trans>Your archive is ready</Trans>
        </Text>
        <Text size="sm">
          <Trans>We e-mailed you a download link. It works until {until}.</Trans>
        </Text>
      </Stack>
    );
  if (made.status === 'expired')
    return (
      <Text size="sm" c="dimmed">
        <Trans>The link to your last archive has expired. Ask for a new one.</Trans>
      </Text>
    );
  return (
    <Alert color="red" icon={<AlertIcon />} title={t`Your archive could not be made`}>
      <Trans>Ask for a new one; if it fails again, contact support.</Trans>
    </Alert>
  );
}

/**
 * "Your data": an archive of the account (details, preferences, licenses, machines, organizations,
 * payments, subscriptions, security events and invoice PDFs), made on the server and mailed as a
 * link valid 24 hours; watched here as it is made.
 */
export function DataExportCard() {
  const { t } = useLingui();
  const [polling, setPolling] = useState(false);
  const { data: made, error: readError } = useGetDataExportQuery(undefined, {
    pollingInterval: polling ? EXPORT_POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const [requestExport, { isLoading }] = useRequestDataExportMutation();
  const [error, setError] = useState<string | null>(null);
  const busy = inProgress(made);
  // Poll only while an archive is being made.
  if (busy !== polling) setPolling(busy);

  const ask = async () => {
    setError(null);
    try {
      await requestExport().unwrap();
    } catch (failure) {
      setError(failureMessage(failure, accountDataMessages.exportFailed));
    }
  };

  return (
    <SectionCard
      headingId="data-export-title"
      title={t`Your data`}
      description={t`Download an archive of everything your account holds: your details, licenses, machines, organizations, payments, subscriptions, security events and invoices.`}
    >
      {made ? <ExportStatus made={made} /> : null}
      {readError && !made ? (
        <Text size="sm" c="red">
          {failureMessage(readError, accountDataMessages.exportFetchFailed)}
        </Text>
      ) : null}
      {error ? (
        <Alert color="red" icon={<AlertIcon />} role="alert" title={error}>
          <Trans>Nothing was changed. Try again in a moment.</Trans>
        </Alert>
      ) : null}
      <Group>
        <Button variant="light" onClick={() => void ask()} loading={isLoading} disabled={busy}>
          {made && !busy ? t`Ask for a new archive` : t`Download my data`}
        </Button>
      </Group>
    </SectionCard>
  );
}
