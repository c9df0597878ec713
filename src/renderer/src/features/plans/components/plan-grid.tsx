import { SimpleGrid, type SimpleGridProps } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './plan-card.module.css';

/** The most cards a row holds at each width, before balancing. */
const MAX_COLUMNS = { base: 1, sm: 2, md: 3, lg: 4 } as const;

/**
 * As many columns as `count` cards need in the fewest rows that hold them, spread evenly: five
 * cards at four a row are three and two, never four and one alone.
 */
export const balancedColumns = (count: number, max: number): number =>
  count <= 0 ? 1 : Math.ceil(count / Math.ceil(count / max));

/**
 * Plan cards in rows of even length at every width (see `balancedColumns`); where two columns
 * leave an odd card over (a narrow window), it takes the whole last row instead of half of it.
 */
export function PlanGrid({
  count,
  children,
  ...props
}: { count: number; children: ReactNode } & Omit<SimpleGridProps, 'cols'>) {
  const cols = {
    base: MAX_COLUMNS.base,
    sm: balancedColumns(count, MAX_COLUMNS.sm),
    md: balancedColumns(count, MAX_COLUMNS.md),
    lg: balancedColumns(count, MAX_COLUMNS.lg),
  };
  return (
    <SimpleGrid cols={cols} spacing="lg" className={classes.grid} {...props}>
      {children}
    </SimpleGrid>
  );
}
