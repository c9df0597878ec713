import { useLingui } from '@lingui/react/macro';
import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table wider than a phone, scrolling sideways in its own box. The box takes keyboard focus (so
 * arrow keys scroll it) and is a region named "<what> table, scrolls sideways".
 */
export function ScrollRegion({
  what,
  minWidth,
  children,
}: {
  what: string;
  minWidth: number;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      type="native"
      tabIndex={0}
      role="region"
      aria-label={t`${what} table, scrolls sideways`}
    >
      {children}
    </Table.ScrollContainer>
  );
}
