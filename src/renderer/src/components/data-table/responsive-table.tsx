import { Table } from '@mantine/core';
import { cardPlace, type Column } from './columns';
import { RowCards } from './row-cards';
import { ScrollRegion } from './scroll-region';
import { useCardLayout } from './use-card-layout';

export interface ResponsiveTableProps<Row> {
  /** What the rows are ("Machines"): names the sideways-scrolling region. */
  what: string;
  /** The id of the heading that names the table (and the cards' list). */
  labelledBy: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Below this width the table scrolls sideways in its own box (between `sm` and this width). */
  minWidth: number;
}

/**
 * A small table of rows already loaded: the title column heads each row; below the `sm` breakpoint
 * the rows are cards (see RowCards), so a phone sees every value and action without scrolling.
 */
export function ResponsiveTable<Row>({
  what,
  labelledBy,
  columns,
  rows,
  rowKey,
  minWidth,
}: ResponsiveTableProps<Row>) {
  const cards = useCardLayout();
  if (cards) return <RowCards labelledBy={labelledBy} columns={columns} rows={rows} rowKey={rowKey} />;
  return (
    <ScrollRegion what={what} minWidth={minWidth}>
      <Table verticalSpacing="sm" highlightOnHover aria-labelledby={labelledBy}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} scope="col" style={{ textAlign: column.align ?? 'left' }}>
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column, index) => {
                const Cell = index === 0 && cardPlace(column, index) === 'title' ? Table.Th : Table.Td;
                return (
                  <Cell
                    key={column.key}
                    scope={Cell === Table.Th ? 'row' : undefined}
                    fw={Cell === Table.Th ? 'normal' : undefined}
                    style={{ textAlign: column.align ?? 'left' }}
                  >
                    {column.render(row)}
                  </Cell>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
