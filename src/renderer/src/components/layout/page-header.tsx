import { Container, type ContainerProps, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './heading-plate.module.css';

/** A signed-in screen's title (the page's one h1), what it is for, and optional actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
      <Stack gap={4} maw={740} className={classes.plate}>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" size="md">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions}
    </Group>
  );
}

/** A signed-in screen in a column of its own width: the header, then the content under it. */
export function HeaderedPage({
  size,
  title,
  description,
  children,
}: {
  size: ContainerProps['size'];
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container size={size} px={0}>
      <Stack gap="xl">
        <PageHeader title={title} description={description} />
        {children}
      </Stack>
    </Container>
  );
}
