import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import type { WebhookEndpointWithSecret } from '../../../../../shared/api/webhooks';
import { AlertIcon, CopyIcon } from '../../../components/brand/icons';

/**
 * The signing secret of a new endpoint, or the new one after a rotation: shown this once, with a
 * button that copies it. After a rotation the previous secret keeps signing for a day.
 */
export function SecretDialog({
  endpoint,
  rotated,
  onClose,
}: {
  endpoint: WebhookEndpointWithSecret | null;
  rotated: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={endpoint !== null}
      onClose={onClose}
      title={rotated ? 'New signing secret' : 'Endpoint added: its signing secret'}
      size="lg"
    >
      {endpoint ? (
        <Stack gap="md">
          <Text size="sm">
            Verify every delivery to <Code>{endpoint.url}</Code> with this secret, for example with the{' '}
            <Code>standardwebhooks</Code> library.
          </Text>
          <Alert color="yellow" icon={<AlertIcon />} title="Copy it now: it is shown only this once">
            {rotated && endpoint.previous_secret_expires_at
              ? `The previous secret signs deliveries too until ${new Date(endpoint.previous_secret_expires_at).toLocaleString()}, so update the receiver before then.`
              : 'Store it where the receiving server reads its configuration.'}
          </Alert>
          <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} aria-label="Signing secret">
            {endpoint.secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={endpoint.secret}>
              {({ copied, copy }) => (
                <Button variant="light" leftSection={<CopyIcon size={16} />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy secret'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose} data-autofocus>
              Done
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
