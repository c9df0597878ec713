import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Code, Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { SupportRequest } from '../../../../../shared/api/support';
import { StatusBadge } from '../../../components/data/status-badge';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';

import { fetchSupportRequestsFailed, useFetchMySupportRequestsQuery } from '../users-endpoints';

const PER_PAGE = 5;

function RequestItem({ request }: { request: SupportRequest }) {
  const { t } = useLingui();
  const handled = request.state === 'handled';
  const sent = formatDate(request.created_at);
  const handledOn = request.handled_at ? formatDate(request.handled_at) : null;
  return (
    <Box component="li" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={2} miw={0}>
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {request.subject}
          </Text>
          <Text size="sm" c="dimmed">
            <Code fz="xs">{request.reference}</Code> · {request.topic}
          </Text>
          <Text size="xs" c="dimmed">
            {handled && handledOn ? t`Sent ${sent} · handled ${handledOn}` : t`Sent ${sent}`}
          </Text>
        </Stack>
        <StatusBadge tone={handled ? 'positive' : 'info'} size="md">
          {handled ? t`Handled` : t`Open`}
        </StatusBadge>
      </Group>
    </Box>
  );
}

/**
 * GET /support/requests: the customer's own requests, newest first, with whether support has
 * handled each; a request just sent shows up at once (sending invalidates the list).
 */
export function MySupportRequestsCard() {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const requests = useFetchMySupportRequestsQuery(
    { page, perPage: PER_PAGE },
    { refetchOnMountOrArgChange: true },
  );
  const data = requests.currentData ?? null;
  const failed = requests.isError && !requests.isFetching;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;

  return (
    <SectionCard
      headingId="my-support-requests-title"
      title={t`Your requests`}
      description={t`What you sent to support, and whether it has been handled. Replies come by e-mail.`}
    >
      {failed ? (
        <ErrorAlert title={t`Your requests could not be loaded`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failureMessage(requests.error, fetchSupportRequestsFailed)}</Text>
            <Button size="xs" variant="white" color="red" onClick={() => void requests.refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Stack>
        </ErrorAlert>
      ) : data === null ? (
        <Stack gap="sm" aria-busy="true" aria-label={t`Loading your requests`}>
          <Skeleton height={44} />
          <Skeleton height={44} />
        </Stack>
      ) : data.total === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No requests yet. Requests you send below are listed here with their reference.</Trans>
        </Text>
      ) : (
        <Box
          component="ul"
          aria-labelledby="my-support-requests-title"
          aria-busy={requests.isFetching}
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
        >
          {data.data.map((request) => (
            <RequestItem key={request.id} request={request} />
          ))}
        </Box>
      )}
      {data && totalPages > 1 ? (
        <Group justify="flex-end">
          <nav aria-label={t`Support request pages`}>
            <Pagination total={totalPages} value={page} onChange={setPage} size="sm" />
          </nav>
        </Group>
      ) : null}
    </SectionCard>
  );
}
