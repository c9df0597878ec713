import { Button, Code, DataList, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminSupportRequest } from '../../../../../shared/api/support';
import { StatusBadge } from '../../../components/data/status-badge';
import { DetailDrawer, DrawerField as Field, NoValue } from '../../../components/drawer/detail-drawer';
import { failureMessage } from '../../../lib/api-errors';
import { adminSupportMessages, useSetSupportRequestHandledMutation } from './admin-support-endpoints';

export const requestTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function SupportStateBadge({ request }: { request: Pick<AdminSupportRequest, 'state'> }) {
  return request.state === 'handled' ? (
    <StatusBadge tone="positive" size="md">
      Handled
    </StatusBadge>
  ) : (
    <StatusBadge tone="caution" size="md">
      Open
    </StatusBadge>
  );
}

/** Marks the request handled, or open again, and says so. */
export function HandledButton({ request }: { request: AdminSupportRequest }) {
  const [mark, { isLoading }] = useSetSupportRequestHandledMutation();
  const handled = request.state === 'handled';
  const run = async () => {
    try {
      await mark({ id: request.id, handled: !handled }).unwrap();
      notifications.show({
        color: handled ? 'gray' : 'teal',
        title: handled ? 'Marked open' : 'Marked handled',
        message: `${request.reference}: ${request.subject}`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Not changed',
        message: failureMessage(error, adminSupportMessages.markFailed),
      });
    }
  };
  return (
    <Button
      size="xs"
      variant={handled ? 'default' : 'light'}
      loading={isLoading}
      onClick={() => void run()}
      aria-label={`${handled ? 'Reopen' : 'Mark handled'}: ${request.reference}`}
    >
      {handled ? 'Reopen' : 'Mark handled'}
    </Button>
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
  return (
    <DetailDrawer
      opened={request !== null}
      onClose={onClose}
      size="lg"
      fullScreen="(max-width: 40em)"
      title={request ? `Support request ${request.reference}` : 'Support request'}
      closeLabel="Close the support request"
    >
      {request && (
        <Stack gap="lg">
          <Group gap="sm" justify="space-between">
            <Group gap="sm">
              <SupportStateBadge request={request} />
              <Text size="sm" c="dimmed">
                {requestTime.format(new Date(request.created_at))}
              </Text>
            </Group>
            <HandledButton request={request} />
          </Group>
          <DataList labelWidth={110} size="sm" withDivider>
            <Field label="From">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {request.email}
              </Text>
              {request.user_id ? null : (
                <Text size="xs" c="dimmed">
                  The account was deleted since
                </Text>
              )}
            </Field>
            <Field label="Topic">{request.topic}</Field>
            <Field label="Subject">{request.subject}</Field>
            <Field label="Reference">
              <Code fz="xs">{request.reference}</Code>
            </Field>
            <Field label="Handled">
              {request.handled_at ? (
                `${requestTime.format(new Date(request.handled_at))}${request.handled_by_email ? ` by ${request.handled_by_email}` : ''}`
              ) : (
                <NoValue />
              )}
            </Field>
          </DataList>
          <Stack gap="xs" component="section" aria-labelledby="support-message">
            <Title order={3} size="h5" id="support-message">
              Message
            </Title>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {request.message}
            </Text>
          </Stack>
          <Stack gap="xs" component="section" aria-labelledby="support-diagnostics">
            <Title order={3} size="h5" id="support-diagnostics">
              App and account information
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
                The customer chose not to send it.
              </Text>
            )}
          </Stack>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Reply by e-mail to {request.email}. When the server has a support mailbox, the request’s mail
            there has this address as its Reply-To.
          </Text>
        </Stack>
      )}
    </DetailDrawer>
  );
}
