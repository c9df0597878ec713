import { Trans } from '@lingui/react/macro';
import { Button, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Notice, type NoticeTone } from './notice';

export interface RetryNoticeProps {
  /** What could not be loaded. */
  title: ReactNode;
  /** Why: the server's words, else the fallback. */
  message: ReactNode;
  /** Offers "Try again" when given. */
  onRetry?: () => void;
  tone?: NoticeTone;
  /** Announce it as it appears (the default: the user must act on it). */
  urgent?: boolean;
}

/** A read that failed, in a notice: why, and a "Try again" beneath. */
export function RetryNotice({ title, message, onRetry, tone = 'danger', urgent = true }: RetryNoticeProps) {
  return (
    <Notice tone={tone} title={title} urgent={urgent}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {onRetry ? (
          <Button size="xs" variant="light" onClick={onRetry}>
            <Trans>Try again</Trans>
          </Button>
        ) : null}
      </Stack>
    </Notice>
  );
}
