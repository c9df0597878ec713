import { Card, EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

export interface EmptyStateCardProps {
  title: string;
  /** Heading level of the title within the page (h2 under the page's h1 by default). */
  order?: 2 | 3 | 4;
  description?: ReactNode;
  icon?: ReactNode;
  /** What to do next: buttons or links. */
  actions?: ReactNode;
  /** Extra content under the actions (a note, a form). */
  children?: ReactNode;
}

/** A bordered "nothing here yet" panel that says what to do next. */
export function EmptyStateCard({
  title,
  order = 2,
  description,
  icon,
  actions,
  children,
}: EmptyStateCardProps) {
  return (
    <Card withBorder padding="lg">
      <EmptyState variant={icon ? 'light' : undefined} icon={icon} maw={560} mx="auto">
        <EmptyState.Title order={order}>{title}</EmptyState.Title>
        {description ? <EmptyState.Description>{description}</EmptyState.Description> : null}
        {actions ? <EmptyState.Actions>{actions}</EmptyState.Actions> : null}
        {children}
      </EmptyState>
    </Card>
  );
}
