import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, DataList, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminSupportRequest } from '../../../../../shared/api/support';
import { StatusBadge } from '../../../components/data/status-badge';
import { DetailDrawer, DrawerField as Field, NoValue } from '../../../components/drawer/detail-drawer';
import { failureMessage } from '../../../lib/api-errors';
import { dateTimeFormat } from '../../../lib/date-format';
import { adminSupportMessages, useSetSupportRequestHandledMutation } from './admin-support-endpoints';

/** A request's times, in the language shown. */
export const requestTime = () => dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' });

export function SupportStateBadge({ request }: { request: Pick<AdminSupportRequest, 'state'> }) {
  return request.state === 'handled' ? (
    <StatusBadge tone="positive" size="md">
      <Trans>Handled</Trans>
    </StatusBadge>
  ) : (
    <StatusBadge tone="caution" size="md">
      <Trans>Open</Trans>
    </StatusBadge>
  );
}

/** Marks the request handled, or open again, and says so. */
export function HandledButton({ request }: { request: AdminSupportRequest }) {
  const { t } = useLingui();
  const [mark, { isLoading }] = useSetSupportRequestHandledMutation();
  const handled = request.state === 'handled';
  const run = async () => {
    try {
      await mark({ id: request.id, handled: !handled }).unwrap();
      notifications.show({
        color: handled ? 'gray' : 'teal',
        title: handled ? t`Marked open` : t`Marked handled`,
        message: `${request.reference}: ${request.subject}`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Not changed`,
        message: failureMessage(error, adminSupportMessages.markFailed),
      });
    }
  };
  const reference = request.reference;
  return (
    <Button
      size="xs"
      variant={handled ? 'default' : 'light'}
      loading={isLoading}
      onClick={() => void run()}
      aria-label={handled ? t`Reopen: ${reference}` : t`Mark handled: ${reference}`}
    >
      {handled ? <Trans>Reopen</Trans> : <Trans>Mark handled</Trans>}
    </Button>
  );
}

/** When the request was marked handled, and by whom when the server says. */
function HandledAt({ at, by }: { at: string; by: string | null | undefined }) {
  const when = requestTime().format(new Date(at));
  return by ? (
    <Trans>
      {when} by {by}
    </Trans>
  ) : (
    when
  );
}

/** One support request in full: who wrote, what they wrote, and the information they sent with it. */
export function SupportRequestDrawer({
  request,
  onClose,
}: {
  /** The row from the list, or null when closed. */
  request: AdminSupportRequest | null;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const reference = request?.reference;
  const handledBy = request?.handled_by_email;
  const email = request?.email;
  return (
    <DetailDrawer
      opened={request !== null}
      onClose={onClose}
      size="lg"
      fullScreen="(max-width: 40em)"
      title={request ? t`Support request ${reference}` : t`Support request`}
      closeLabel={t`Close the support request`}
    >
      {request && (
        <Stack gap="lg">
          <Group gap="sm" justify="space-between">
            <Group gap="sm">
              <SupportStateBadge request={request} />
              <Text size="sm" c="dimmed">
                {requestTime().format(new Date(request.created_at))}
              </Text>
            </Group>
            <HandledButton request={request} />
          </Group>
          <DataList labelWidth={110} size="sm" withDivider>
            <Field label={t`From`}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {request.email}
              </Text>
              {request.user_id ? null : (
                <Text size="xs" c="dimmed">
                  <Trans>The account was deleted since</Trans>
                </Text>
              )}
            </Field>
            <Field label={t`Topic`}>{request.topic}</Field>
            <Field label={t`Subject`}>{request.subject}</Field>
            <Field label={t`Reference`}>
              <Code fz="xs">{request.reference}</Code>
            </Field>
            <Field label={t`Handled`}>
              {request.handled_at ? <HandledAt at={request.handled_at} by={handledBy} /> : <NoValue />}
            </Field>
          </DataList>
          <Stack gap="xs" component="section" aria-labelledby="support-message">
            <Title order={3} size="h5" id="support-message">
              <Trans>Message</Trans>
            </Title>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {request.message}
            </Text>
          </Stack>
          <Stack gap="xs" component="section" aria-labelledby="support-diagnostics">
            <Title order={3} size="h5" id="support-diagnostics">
              <Trans>App and account information</Trans>
            </Title>
            {request.diagnostics ? (
              <Code
                block
                fz="xs"
                data-testid="support-diagnostics"
                style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                {request.diagnostics}
              </Code>
            ) : (
              <Text size="sm" c="dimmed">
                <Trans>The customer chose not to send it.</Trans>
              </Text>
            )}
          </Stack>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            <Trans>
              Reply by e-mail to {email}. When the server has a support mailbox, the request’s mail there has
              this address as its Reply-To.
            </Trans>
          </Text>
        </Stack>
      )}
    </DetailDrawer>
  );
}
