import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './heading-plate.module.css';

export interface PageFrameProps {
  title: string;
  description: string;
  /** Buttons beside the title (e.g. "New user"). */
  actions?: ReactNode;
  children: ReactNode;
}

/** A console screen's frame: one h1, a line saying what the screen is for, its actions. */
export function PageFrame({ title, description, actions, children }: PageFrameProps) {
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <Stack gap={4} className={classes.plate}>
          <Title order={1}>{title}</Title>
          <Text c="dimmed">{description}</Text>
        </Stack>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
      {children}
    </Stack>
  );
}
