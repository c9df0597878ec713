import { ActionIcon, Button, Group, Tooltip, VisuallyHidden } from '@mantine/core';
import { type ComponentType, type ReactNode, useId } from 'react';
import type { IconProps } from '../brand/icons';
import { useRowActionsLayout } from './row-actions-layout';

/** The icon buttons at the end of a table row, kept on one line (on a card: buttons that may wrap). */
export function RowActions({ align = 'right', children }: { align?: 'left' | 'right'; children: ReactNode }) {
  const buttons = useRowActionsLayout() === 'buttons';
  if (buttons)
    return (
      <Group gap="xs" wrap="wrap">
        {children}
      </Group>
    );
  return (
    <Group gap={4} justify={align === 'right' ? 'flex-end' : 'flex-start'} wrap="nowrap">
      {children}
    </Group>
  );
}

export interface RowActionProps {
  /** What it does to this row, for screen readers: "Edit jane@example.com". */
  label: string;
  /** The short word shown on hover and focus ("Edit"), or why the action is not available. */
  tooltip: string;
  icon: ComponentType<IconProps>;
  /** Destructive actions (delete, revoke) are red. */
  danger?: boolean;
  disabled?: boolean;
  /**
   * Why the action cannot be taken on this row. The button then stays focusable (so the reason can
   * be read by keyboard and screen reader, as its tooltip and description) but does nothing.
   */
  unavailable?: string;
  onClick(): void;
}

/**
 * One row action: an icon button named for its row, with its word as a tooltip; on a card (a phone)
 * a button showing its icon and word.
 */
export function RowAction({
  label,
  tooltip,
  icon: Icon,
  danger = false,
  disabled,
  unavailable,
  onClick,
}: RowActionProps) {
  const reasonId = useId();
  const layout = useRowActionsLayout();
  const reason = unavailable ? <VisuallyHidden id={reasonId}>{unavailable}</VisuallyHidden> : null;
  const common = {
    color: danger ? 'red' : 'gray',
    'aria-label': label,
    disabled,
    'data-disabled': unavailable ? true : undefined,
    'aria-disabled': unavailable ? true : undefined,
    'aria-describedby': unavailable ? reasonId : undefined,
    onClick: unavailable ? undefined : onClick,
  } as const;
  // A card shows what can be done: an action disabled for this row (a revoked license's Edit) is
  // left out, its state is on the card already; one unavailable for a reason stays, to tell it.
  if (layout === 'buttons' && disabled) return null;
  if (layout === 'buttons')
    return (
      // The word is shown; a reason why the action is unavailable is a tooltip on touch as well.
      <Tooltip
        label={unavailable}
        disabled={!unavailable}
        withArrow
        multiline
        maw={280}
        events={{ hover: true, focus: true, touch: true }}
      >
        <Button
          variant={unavailable ? 'default' : 'light'}
          size="sm"
          leftSection={<Icon size={16} />}
          {...common}
        >
          {tooltip}
          {reason}
        </Button>
      </Tooltip>
    );
  return (
    // Shown on keyboard focus too: a sighted keyboard user reads the word (or the reason) as well.
    <Tooltip
      label={unavailable ?? tooltip}
      withArrow
      multiline
      maw={320}
      events={{ hover: true, focus: true, touch: false }}
    >
      <ActionIcon variant="subtle" size="lg" {...common}>
        <Icon size={18} />
        {reason}
      </ActionIcon>
    </Tooltip>
  );
}
