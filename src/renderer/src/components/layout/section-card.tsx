import { Card, type CardProps, type MantineSpacing, Stack, Text, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

export interface SectionCardProps {
  /** The heading's id; the section is named by its heading. */
  headingId: string;
  title: ReactNode;
  /** The line under the heading. */
  description: ReactNode;
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
  gap = 'md',
  onSubmit,
  id,
  h,
  children,
}: SectionCardProps) {
  const body = (
    <Stack gap={gap}>
      <div>
        <Title order={2} size="h3" id={headingId}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
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
