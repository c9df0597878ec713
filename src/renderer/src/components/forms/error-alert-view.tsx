import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon } from '../brand/icons';

export interface ErrorAlertProps {
  title?: string;
  children: ReactNode;
}

/** A red alert, announced to screen readers as it appears. */
export default function ErrorAlertView({ title, children }: ErrorAlertProps) {
  return (
    <Alert color="red" variant="light" title={title} icon={<AlertIcon size={20} />} role="alert">
      {children}
    </Alert>
  );
}
