import { ActionIcon, Group, Tooltip } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import type { IconProps } from '../brand/icons';

/** The icon buttons at the end of a table row, kept on one line. */
export function RowActions({ align = 'right', children }: { align?: 'left' | 'right'; children: ReactNode }) {
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
  onClick(): void;
}

/** One row action: an icon button named for its row, with its word as a tooltip. */
export function RowAction({ label, tooltip, icon: Icon, danger = false, disabled, onClick }: RowActionProps) {
  return (
    <Tooltip label={tooltip} withArrow>
      <ActionIcon
        variant="subtle"
        color={danger ? 'red' : 'gray'}
        size="lg"
        aria-label={label}
        disabled={disabled}
        onClick={onClick}
      >
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
