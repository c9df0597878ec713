import { Trans } from '@lingui/react/macro';
import { Alert, Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon } from '../brand/icons';

export interface RetryAlertProps {
  /** The failure's message, as the alert's title. */
  title: string;
  /** What could not be done and what to try. */
  children: ReactNode;
  onRetry: () => void;
}

/** A read that failed: what went wrong, and a Retry beside it. */
export function RetryAlert({ title, children, onRetry }: RetryAlertProps) {
  return (
    <Alert color="red" icon={<AlertIcon />} title={title} role="alert">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{children}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          <Trans>Retry</Trans>
        </Button>
      </Group>
    </Alert>
  );
}
