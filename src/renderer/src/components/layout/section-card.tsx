import { Card, type CardProps, Group, type MantineSpacing, Stack, Text, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

export interface SectionCardProps {
  /** The heading's id; the section is named by its heading. */
  headingId: string;
  title: ReactNode;
  /** The line under the heading. */
  description: ReactNode;
  /** Beside the heading, on its right (buttons, a filter); under it when the card is narrow. */
  actions?: ReactNode;
  /** How the actions line up with the heading: at its top, or at its foot (controls with labels). */
  actionsAlign?: 'flex-start' | 'flex-end';
  /** The space between the heading and each part under it. */
  gap?: MantineSpacing;
  /** Makes the card a form with this submit handler (the form's own rules check the fields). */
  onSubmit?: FormEventHandler<HTMLFormElement>;
  /** The section's own id, for a link to it. */
  id?: string;
  h?: CardProps['h'];
  children: ReactNode;
}

/** A titled section of a page on a card: the heading, a line on what it is for, then its content. */
export function SectionCard({
  headingId,
  title,
  description,
  actions,
  actionsAlign = 'flex-start',
  gap = 'md',
  onSubmit,
  id,
  h,
  children,
}: SectionCardProps) {
  const heading = (
    <div>
      <Title order={2} size="h3" id={headingId}>
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {description}
      </Text>
    </div>
  );
  const body = (
    <Stack gap={gap}>
      {actions ? (
        <Group justify="space-between" align={actionsAlign} wrap="wrap" gap="sm">
          {heading}
          {actions}
        </Group>
      ) : (
        heading
      )}
      {children}
    </Stack>
  );
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId} id={id} h={h}>
      {onSubmit ? (
        <form onSubmit={onSubmit} noValidate>
          {body}
        </form>
      ) : (
        body
      )}
    </Card>
  );
}
