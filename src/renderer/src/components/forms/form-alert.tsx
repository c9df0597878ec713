import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon } from '../brand/icons';

/** The server's message about a failed submit, announced to screen readers as it appears. */
export function FormAlert({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <Alert color="red" variant="light" title={title} icon={<AlertIcon size={20} />} role="alert">
      {children}
    </Alert>
  );
}
