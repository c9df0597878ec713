import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Accordion,
  Button,
  Code,
  Group,
  Pagination,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../../../../shared/api/webhooks';
import { RefreshIcon } from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import { DetailDrawer } from '../../../components/drawer/detail-drawer';
import { errorText, failureOf } from '../query-answer';
import {
  useGetWebhookDeliveryQuery,
  useListWebhookDeliveriesQuery,
  useRedeliverWebhookMutation,
} from './admin-webhooks-endpoints';
import { deliveryState, formatMoment, headerLines, prettyBody } from './webhook-format';

const PER_PAGE = 20;
const STATUS_FILTERS: { value: string; label: MessageDescriptor }[] = [
  { value: '', label: msg`All` },
  { value: 'failed', label: msg`Failed` },
  { value: 'pending', label: msg`Retrying` },
  { value: 'succeeded', label: msg`Delivered` },
];

const blockStyle = {
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  maxHeight: 240,
  overflow: 'auto',
} as const;

function AttemptView({ attempt }: { attempt: WebhookAttempt }) {
  const { t } = useLingui();
  const outcome = attempt.response_status !== null ? `HTTP ${attempt.response_status}` : t`No answer`;
  const number = attempt.attempt;
  const duration = attempt.duration_ms;
  const next = attempt.next_attempt_at ? formatMoment(attempt.next_attempt_at) : null;
  return (
    <Stack
      gap={6}
      p="sm"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text fw={600} size="sm">
          <Trans>
            Attempt {number} · {outcome} · {duration} ms
          </Trans>
        </Text>
        <Text size="xs" c="dimmed">
          {formatMoment(attempt.started_at)}
        </Text>
      </Group>
      {attempt.error ? (
        <Text size="sm" c="var(--mantine-color-error)">
          {attempt.error}
        </Text>
      ) : null}
      {next ? (
        <Text size="xs" c="dimmed">
          <Trans>Next attempt {next}</Trans>
        </Text>
      ) : null}
      <Text size="xs" fw={600}>
        <Trans>Request headers</Trans>
      </Text>
      <Code block style={blockStyle}>
        {`POST ${attempt.url}\n${headerLines(attempt.request_headers)}`}
      </Code>
      {attempt.response_status !== null ? (
        <>
          <Text size="xs" fw={600}>
            <Trans>Response</Trans>
          </Text>
          <Code block style={blockStyle}>
            {`${headerLines(attempt.response_headers)}\n\n${attempt.response_body ?? ''}`}
          </Code>
        </>
      ) : null}
    </Stack>
  );
}

/** One delivery's payload and attempts, read when its panel opens; and "Send again". */
function DeliveryDetail({
  delivery,
  endpointEnabled,
}: {
  delivery: WebhookDelivery;
  endpointEnabled: boolean;
}) {
  const { t } = useLingui();
  const detail = useGetWebhookDeliveryQuery(delivery.id);
  const eventId = delivery.event_id;
  const [redeliver, redelivering] = useRedeliverWebhookMutation();
  const failure = failureOf(detail);
  const send = async () => {
    try {
      await redeliver(delivery.id).unwrap();
      notifications.show({
        color: 'teal',
        title: t`Queued to send again`,
        message: t`With the same webhook-id (${eventId}), so the receiver can tell it had it.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: t`Could not send it again`, message: errorText(error) });
    }
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          <span translate="no">webhook-id</span> <Code>{eventId}</Code>
        </Text>
        <Button
          size="xs"
          variant="light"
          leftSection={<RefreshIcon size={14} />}
          loading={redelivering.isLoading}
          disabled={!endpointEnabled}
          title={endpointEnabled ? undefined : t`Enable the endpoint to send again`}
          onClick={() => void send()}
        >
          <Trans>Send again</Trans>
        </Button>
      </Group>
      {failure ? (
        <Text c="var(--mantine-color-error)" size="sm" role="alert">
          {failure}
        </Text>
      ) : !detail.data ? (
        <Text size="sm" c="dimmed">
          <Trans>Loading…</Trans>
        </Text>
      ) : (
        <>
          <Text size="xs" fw={600}>
            <Trans>Payload</Trans>
          </Text>
          <Code block style={blockStyle}>
            {prettyBody(detail.data.payload)}
          </Code>
          {detail.data.attempt_log.length === 0 ? (
            <Text size="sm" c="dimmed">
              <Trans>Not tried yet.</Trans>
            </Text>
          ) : (
            detail.data.attempt_log.map((attempt) => <AttemptView key={attempt.attempt} attempt={attempt} />)
          )}
        </>
      )}
    </Stack>
  );
}

/** An endpoint's delivery log: newest first, each with its attempts, request and response. */
export function DeliveriesDrawer({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
}) {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  // Only the open delivery's attempts are read.
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useListWebhookDeliveriesQuery(
    { endpointId: endpoint?.id ?? '', page, perPage: PER_PAGE, ...(status ? { status } : {}) },
    { skip: !endpoint, refetchOnMountOrArgChange: true },
  );
  const failure = failureOf(deliveries);
  const pages = Math.max(1, Math.ceil((deliveries.data?.total ?? 0) / PER_PAGE));
  return (
    <DetailDrawer
      opened={endpoint !== null}
      onClose={() => {
        setPage(1);
        setStatus('');
        onClose();
      }}
      title={t`Deliveries`}
      closeLabel={t`Close the deliveries`}
      size="xl"
      fullScreen="(max-width: 48em)"
      error={failure}
      loading={deliveries.isLoading ? t`Loading the deliveries` : false}
    >
      {endpoint ? (
        <Stack gap="md">
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            <Code>{endpoint.url}</Code>
          </Text>
          <Group justify="space-between" wrap="wrap">
            <SegmentedControl
              size="xs"
              aria-label={t`Show deliveries`}
              value={status}
              onChange={(value) => {
                setStatus(value);
                setPage(1);
              }}
              data={STATUS_FILTERS.map(({ value, label }) => ({ value, label: i18n._(label) }))}
            />
            <Button
              size="xs"
              variant="subtle"
              onClick={() => void deliveries.refetch()}
              loading={deliveries.isFetching}
            >
              <Trans>Refresh</Trans>
            </Button>
          </Group>
          {deliveries.data && deliveries.data.data.length === 0 ? (
            <Stack gap={4} py="lg" ta="center">
              <Title order={4}>
                <Trans>No deliveries</Trans>
              </Title>
              <Text size="sm" c="dimmed">
                <Trans>
                  Events the endpoint subscribed to appear here as they happen; try “Send a test event”.
                </Trans>
              </Text>
            </Stack>
          ) : (
            <Accordion variant="separated" chevronPosition="left" value={open} onChange={setOpen}>
              {(deliveries.data?.data ?? []).map((delivery) => {
                const state = deliveryState(delivery);
                const attempts = delivery.attempts;
                return (
                  <Accordion.Item key={delivery.id} value={delivery.id}>
                    <Accordion.Control>
                      <Group justify="space-between" gap="xs" wrap="wrap">
                        <Group gap="xs" wrap="wrap">
                          <StatusBadge tone={state.tone} size="md">
                            {i18n._(state.label)}
                          </StatusBadge>
                          <Text size="sm" ff="monospace">
                            {delivery.event_type}
                          </Text>
                          {delivery.redelivery_of ? (
                            <Text size="xs" c="dimmed">
                              <Trans>sent again</Trans>
                            </Text>
                          ) : null}
                        </Group>
                        <Text size="xs" c="dimmed">
                          {plural(attempts, { one: '# attempt', other: '# attempts' })}
                          {delivery.last_status_code !== null
                            ? ` · HTTP ${delivery.last_status_code}`
                            : ''} · {formatMoment(delivery.created_at)}
                        </Text>
                      </Group>
                    </Accordion.Control>
                    <Accordion.Panel>
                      {open === delivery.id ? (
                        <DeliveryDetail delivery={delivery} endpointEnabled={endpoint.enabled} />
                      ) : null}
                    </Accordion.Panel>
                  </Accordion.Item>
                );
              })}
            </Accordion>
          )}
          {pages > 1 ? (
            <Pagination
              value={page}
              onChange={setPage}
              total={pages}
              size="sm"
              aria-label={t`Pages of deliveries`}
            />
          ) : null}
        </Stack>
      ) : null}
    </DetailDrawer>
  );
}
