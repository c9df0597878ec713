import { ph, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '../../../../../shared/api/webhooks';
import {
  ArrowRightIcon,
  BanIcon,
  CheckIcon,
  KeyIcon,
  MailIcon,
  PencilIcon,
  TrashIcon,
} from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import type { Column } from '../../../components/data-table/data-table';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { errorText, pagedResult, pagesOf } from '../query-answer';
import {
  useDeleteWebhookEndpointMutation,
  useListWebhookEndpointsQuery,
  useRotateWebhookSecretMutation,
  useSendTestWebhookMutation,
  useUpdateWebhookEndpointMutation,
  adminWebhooksApi,
} from '../webhooks/admin-webhooks-endpoints';
import { DeliveriesDrawer } from '../webhooks/deliveries-drawer';
import { EndpointFormModal } from '../webhooks/endpoint-form-modal';
import { SecretDialog } from '../webhooks/secret-dialog';
import { disabledReason, endpointState, formatDay, formatMoment } from '../webhooks/webhook-format';
import type { CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<never> = {
  sortFields: ['created_at', 'url'],
  defaultSort: '-created_at',
  filters: [],
};

/** The webhook endpoints as a CSV file (no secrets: the list never holds them). */
const ENDPOINTS_CSV: CsvColumn<WebhookEndpoint>[] = [
  { header: 'URL', value: (endpoint) => endpoint.url },
  { header: 'Description', value: (endpoint) => endpoint.description },
  { header: 'Events', value: (endpoint) => endpoint.event_types.join('; ') },
  { header: 'Enabled', value: (endpoint) => (endpoint.enabled ? 'Yes' : 'No') },
  { header: 'Disabled reason', value: (endpoint) => endpoint.disabled_reason },
  { header: 'Failures in a row', value: (endpoint) => endpoint.consecutive_failures },
  { header: 'Created', value: (endpoint) => endpoint.created_at },
  { header: 'ID', value: (endpoint) => endpoint.id },
];

/** `/admin/webhooks`: endpoints that receive the portal's events, their secrets and delivery logs. */
export default function AdminWebhooksPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const endpoints = pagedResult(useListWebhookEndpointsQuery(list.params));
  const [readEndpoints] = adminWebhooksApi.endpoints.listWebhookEndpoints.useLazyQuery();
  const [updateEndpoint] = useUpdateWebhookEndpointMutation();
  const [deleteEndpoint] = useDeleteWebhookEndpointMutation();
  const [rotateSecret] = useRotateWebhookSecretMutation();
  const [sendTest] = useSendTestWebhookMutation();

  /** `null`: closed; `'new'`: adding; an endpoint: editing it. */
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<{ endpoint: WebhookEndpointWithSecret; rotated: boolean } | null>(
    null,
  );
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const rotatingUrl = rotating?.url;
  const deletingUrl = deleting?.url;

  const setEnabled = async (endpoint: WebhookEndpoint, enabled: boolean) => {
    try {
      await updateEndpoint({ id: endpoint.id, changes: { enabled } }).unwrap();
      notifications.show({
        color: 'teal',
        title: enabled ? t`Endpoint enabled` : t`Endpoint disabled`,
        message: enabled
          ? t`${ph({ url: endpoint.url })} receives events again; deliveries that waited go out now.`
          : t`${ph({ url: endpoint.url })} receives nothing until it is enabled again.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Could not change the endpoint`,
        message: errorText(error),
      });
    }
  };

  const test = async (endpoint: WebhookEndpoint) => {
    try {
      await sendTest(endpoint.id).unwrap();
      notifications.show({
        color: 'teal',
        title: t`Test event queued`,
        message: t`A webhook.test event is on its way to ${ph({ url: endpoint.url })}; its delivery shows in the log.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: t`Could not send a test event`, message: errorText(error) });
    }
  };

  const eventCount = (count: number) => plural(count, { one: '# event', other: '# events' });
  const failingSince = (since: string, failures: number) => {
    const moment = formatMoment(since);
    return failures > 0
      ? plural(failures, {
          one: `Failing since ${moment}, # delivery failed`,
          other: `Failing since ${moment}, # deliveries failed`,
        })
      : t`Failing since ${moment}`;
  };

  const columns: Column<WebhookEndpoint>[] = [
    {
      key: 'url',
      header: t`Endpoint`,
      sortField: 'url',
      render: (endpoint) => (
        <Stack gap={2} miw={200} maw={420}>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {endpoint.url}
          </Text>
          {endpoint.description ? (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {endpoint.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'events',
      header: t`Events`,
      render: (endpoint) => (
        <Text size="sm" title={endpoint.event_types.join(', ')}>
          {endpoint.event_types.length === 1
            ? endpoint.event_types[0]
            : eventCount(endpoint.event_types.length)}
        </Text>
      ),
    },
    {
      key: 'state',
      header: t`Status`,
      render: (endpoint) => {
        const state = endpointState(endpoint);
        return (
          <Stack gap={2}>
            <StatusBadge tone={state.tone} size="md">
              {i18n._(state.label)}
            </StatusBadge>
            {!endpoint.enabled && endpoint.disabled_reason ? (
              <Text size="xs" c="dimmed" maw={220}>
                {disabledReason(endpoint.disabled_reason)}
              </Text>
            ) : null}
            {endpoint.enabled && endpoint.failing_since ? (
              <Text size="xs" c="dimmed">
                {failingSince(endpoint.failing_since, endpoint.consecutive_failures)}
              </Text>
            ) : null}
          </Stack>
        );
      },
    },
    {
      key: 'created',
      header: t`Added`,
      sortField: 'created_at',
      render: (endpoint) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDay(endpoint.created_at)}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      render: (endpoint) => (
        <RowActions align="left">
          <RowAction
            label={t`Deliveries to ${ph({ url: endpoint.url })}`}
            tooltip={t`Deliveries`}
            icon={ArrowRightIcon}
            onClick={() => setLogOf(endpoint)}
          />
          <RowAction
            label={t`Send a test event to ${ph({ url: endpoint.url })}`}
            tooltip={t`Send a test event`}
            icon={MailIcon}
            onClick={() => void test(endpoint)}
          />
          <RowAction
            label={t`Edit ${ph({ url: endpoint.url })}`}
            tooltip={t`Edit`}
            icon={PencilIcon}
            onClick={() => setEditing(endpoint)}
          />
          <RowAction
            label={t`Rotate the signing secret of ${ph({ url: endpoint.url })}`}
            tooltip={t`Rotate the signing secret`}
            icon={KeyIcon}
            onClick={() => setRotating(endpoint)}
          />
          {endpoint.enabled ? (
            <RowAction
              label={t`Disable ${ph({ url: endpoint.url })}`}
              tooltip={t`Disable`}
              icon={BanIcon}
              onClick={() => void setEnabled(endpoint, false)}
            />
          ) : (
            <RowAction
              label={t`Enable ${ph({ url: endpoint.url })}`}
              tooltip={t`Enable`}
              icon={CheckIcon}
              onClick={() => void setEnabled(endpoint, true)}
            />
          )}
          <RowAction
            label={t`Delete ${ph({ url: endpoint.url })}`}
            tooltip={t`Delete`}
            icon={TrashIcon}
            danger
            onClick={() => setDeleting(endpoint)}
          />
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Webhooks`}
      description={t`Endpoints that receive the portal's events (licenses, activations, payments, subscriptions), signed as Standard Webhooks describe and retried for about a day.`}
      create={{ label: t`Add endpoint`, onClick: () => setEditing('new') }}
      list={list}
      result={endpoints}
      noun={t`endpoints`}
      searchPlaceholder={t`URL or description`}
      noMatchesHint={t`Try another URL, or clear the search.`}
      empty={{
        title: t`No webhook endpoints yet`,
        text: t`Add an endpoint to have the portal tell another system when licenses, payments or subscriptions change.`,
      }}
      csv={{
        name: 'webhook-endpoints',
        columns: ENDPOINTS_CSV,
        fetchPage: pagesOf(readEndpoints, list.params),
      }}
      table={{ columns, rowKey: (endpoint) => endpoint.id, skeletonRows: Math.min(list.query.perPage, 5) }}
    >
      <EndpointFormModal
        endpoint={editing === 'new' ? null : editing}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        onCreated={(created) => {
          setEditing(null);
          setSecret({ endpoint: created, rotated: false });
        }}
        onSaved={() => {
          setEditing(null);
          notifications.show({
            color: 'teal',
            title: t`Endpoint saved`,
            message: t`The changes apply to new events.`,
          });
        }}
      />
      <SecretDialog
        endpoint={secret?.endpoint ?? null}
        rotated={secret?.rotated ?? false}
        onClose={() => setSecret(null)}
      />
      <DeliveriesDrawer endpoint={logOf} onClose={() => setLogOf(null)} />

      <ConfirmDialog
        centered
        opened={rotating !== null}
        title={t`Rotate the signing secret?`}
        confirmLabel={t`Rotate secret`}
        failureTitle={t`Could not rotate the secret`}
        onClose={() => setRotating(null)}
        onConfirm={async () => {
          if (!rotating) return;
          const rotated = await rotateSecret(rotating.id).unwrap();
          setRotating(null);
          setSecret({ endpoint: rotated, rotated: true });
        }}
      >
        <Text size="sm">
          <Trans>
            A new secret signs every delivery to <Code>{rotatingUrl}</Code> from now on. The current one keeps
            signing too for 24 hours, so the receiver can switch over without missing any.
          </Trans>
        </Text>
      </ConfirmDialog>

      <ConfirmDialog
        centered
        opened={deleting !== null}
        title={t`Delete this endpoint?`}
        confirmLabel={t`Delete endpoint`}
        failureTitle={t`Could not delete the endpoint`}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await deleteEndpoint(deleting.id).unwrap();
          notifications.show({
            color: 'teal',
            title: t`Endpoint deleted`,
            message: t`${ph({ url: deleting.url })} receives nothing more.`,
          });
          setDeleting(null);
        }}
      >
        <Text size="sm">
          <Trans>
            <Code>{deletingUrl}</Code> will receive nothing more, and its delivery log is deleted with it.
          </Trans>
        </Text>
      </ConfirmDialog>
    </ListPage>
  );
}
