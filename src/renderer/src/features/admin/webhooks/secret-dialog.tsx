import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import type { WebhookEndpointWithSecret } from '../../../../../shared/api/webhooks';
import { AlertIcon, CopyIcon } from '../../../components/brand/icons';
import { formatMoment } from './webhook-format';

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
  const { t } = useLingui();
  const url = endpoint?.url;
  const until = endpoint?.previous_secret_expires_at
    ? formatMoment(endpoint.previous_secret_expires_at)
    : null;
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t`Close` }}
      opened={endpoint !== null}
      onClose={onClose}
      title={rotated ? t`New signing secret` : t`Endpoint added: its signing secret`}
      size="lg"
    >
      {endpoint ? (
        <Stack gap="md">
          <Text size="sm">
            <Trans>
              Verify every delivery to <Code>{url}</Code> with this secret, for example with the{' '}
              <Code>standardwebhooks</Code> library.
            </Trans>
          </Text>
          <Alert color="yellow" icon={<AlertIcon />} title={t`Copy it now: it is shown only this once`}>
            {rotated && until
              ? t`The previous secret signs deliveries too until ${until}, so update the receiver before then.`
              : t`Store it where the receiving server reads its configuration.`}
          </Alert>
          <Code
            block
            style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
            aria-label={t`Signing secret`}
          >
            {endpoint.secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={endpoint.secret}>
              {({ copied, copy }) => (
                <Button variant="light" leftSection={<CopyIcon size={16} />} onClick={copy}>
                  {copied ? <Trans>Copied</Trans> : <Trans>Copy secret</Trans>}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose} data-autofocus>
              <Trans>Done</Trans>
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
