import type { ReactNode } from 'react';
import { ErrorAlert } from './error-alert';

/** The server's message about a failed submit, announced to screen readers as it appears. */
export function FormAlert({ title, children }: { title?: string; children: ReactNode }) {
  return <ErrorAlert title={title}>{children}</ErrorAlert>;
}
