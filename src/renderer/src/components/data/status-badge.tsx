import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a status means to the reader; each tone has one colour across the portal. */
export type StatusTone = 'positive' | 'caution' | 'negative' | 'neutral' | 'info';

const TONE_COLORS: Record<StatusTone, string> = {
  positive: 'teal',
  caution: 'yellow',
  negative: 'red',
  neutral: 'gray',
  info: 'iris',
};

export interface StatusBadgeProps extends Omit<BadgeProps, 'color' | 'variant' | 'children'> {
  tone: StatusTone;
  children: ReactNode;
}

/**
 * A status as a dot badge: the dot carries the colour and the words keep the body colour, so the
 * label stays readable (WCAG AA) in light and dark schemes whatever the tone.
 */
export function StatusBadge({ tone, children, size = 'lg', ...props }: StatusBadgeProps) {
  return (
    // max-content: a short status never truncates in a narrow table cell.
    <Badge variant="dot" color={TONE_COLORS[tone]} size={size} tt="none" fw={600} miw="max-content" {...props}>
      {children}
    </Badge>
  );
}
