import type { ReactNode } from 'react';

/** Where a column's cell goes when the rows are shown as cards (below the `sm` breakpoint). */
export type CardPlace = 'title' | 'field' | 'actions' | 'hidden';

export interface Column<Row> {
  /** Unique within the table. */
  key: string;
  header: string;
  /** The server's sort field for this column; the header becomes a sort button. */
  sortField?: string;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'right';
  /**
   * On a card: the first column is its title and a column keyed `actions` its buttons at the foot;
   * every other column is a "header: value" line. `hidden` leaves out what another column repeats.
   */
  card?: CardPlace;
}

/** Where the column at `index` goes on a card (see `Column.card`). */
export const cardPlace = <Row>(column: Column<Row>, index: number): CardPlace =>
  column.card ?? (index === 0 ? 'title' : column.key === 'actions' ? 'actions' : 'field');
