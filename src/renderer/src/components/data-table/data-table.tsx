import { Trans, useLingui } from '@lingui/react/macro';
import { NativeSelect, Skeleton, Stack, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { ChevronDownIcon } from '../brand/icons';
import type { Column } from './columns';
import classes from './data-table.module.css';
import { RetryAlert } from './retry-alert';
import { RowCards } from './row-cards';
import { useCardLayout } from './use-card-layout';

export type { Column } from './columns';

export interface DataTableProps<Row> {
  /** The table's accessible name (also its caption for screen readers). */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[] | null;
  rowKey: (row: Row) => string;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  /** Current sort (`field` or `-field`) and what a header click asks for. */
  sort?: string;
  onSort?: (sort: string) => void;
  /** What an empty result says, and what to do about it. */
  empty: ReactNode;
  /** Skeleton rows while the first page loads. */
  skeletonRows?: number;
}

type Direction = 'ascending' | 'descending' | 'none';

const directionOf = (sort: string | undefined, field: string): Direction =>
  sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : 'none';

/** Ascending first, then descending, then back to ascending. */
const nextSort = (sort: string | undefined, field: string) => (sort === field ? `-${field}` : field);

/** On cards there are no headers to click: the sortable columns in a picker, each way round. */
function SortPicker<Row>({
  columns,
  sort,
  onSort,
}: {
  columns: readonly Column<Row>[];
  sort: string;
  onSort: (sort: string) => void;
}) {
  const { t } = useLingui();
  const options = columns
    .filter((column) => column.sortField)
    .flatMap(({ header, sortField }) => [
      { value: sortField!, label: t`${header}, ascending` },
      { value: `-${sortField!}`, label: t`${header}, descending` },
    ]);
  if (options.length === 0) return null;
  // A list's own default order may be on a field no column shows.
  if (!options.some((option) => option.value === sort))
    options.unshift({ value: sort, label: t`Default order` });
  return (
    <NativeSelect
      label={t`Sort by`}
      data={options}
      value={sort}
      onChange={(event) => onSort(event.currentTarget.value)}
      w={{ base: '100%', xs: 260 }}
    />
  );
}

/**
 * One server-paged table: sortable headers (buttons with aria-sort), skeleton rows on the
 * first load, the previous rows dimmed while the next page loads, an empty state and an error
 * with a retry. Wide tables scroll inside their own box, never the page; below the `sm`
 * breakpoint the rows are cards with their actions in sight, sorted with a picker.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  loading,
  error,
  onRetry,
  sort,
  onSort,
  empty,
  skeletonRows = 5,
}: DataTableProps<Row>) {
  const cards = useCardLayout();
  const { t } = useLingui();
  if (error)
    return (
      <RetryAlert title={error} onRetry={onRetry}>
        <Trans>The list could not be loaded. Check your connection and try again.</Trans>
      </RetryAlert>
    );

  const firstLoad = rows === null;
  if (!firstLoad && !loading && rows.length === 0)
    return (
      <Stack align="center" gap="xs" py="xl" className={classes.empty}>
        {empty}
      </Stack>
    );

  if (cards)
    return (
      <Stack gap="sm">
        {sort && onSort ? <SortPicker columns={columns} sort={sort} onSort={onSort} /> : null}
        <RowCards
          label={label}
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          busy={loading}
          skeletonCards={Math.min(skeletonRows, 4)}
        />
      </Stack>
    );

  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table
        striped
        highlightOnHover
        verticalSpacing="sm"
        aria-label={label}
        aria-busy={loading}
        className={loading && !firstLoad ? `${classes.table} ${classes.reloading}` : classes.table}
      >
        <VisuallyHidden component="caption">{label}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => {
              const direction = column.sortField ? directionOf(sort, column.sortField) : undefined;
              return (
                <Table.Th
                  key={column.key}
                  aria-sort={direction}
                  style={{ textAlign: column.align ?? 'left', whiteSpace: 'nowrap' }}
                >
                  {column.sortField && onSort ? (
                    <UnstyledButton
                      className={classes.sortButton}
                      onClick={() => onSort(nextSort(sort, column.sortField!))}
                    >
                      {column.header}
                      <span className={classes.sortIcon} data-direction={direction} aria-hidden>
                        <ChevronDownIcon size={14} />
                      </span>
                      <VisuallyHidden>
                        {direction === 'ascending'
                          ? t`, sorted ascending`
                          : direction === 'descending'
                            ? t`, sorted descending`
                            : t`, sort`}
                      </VisuallyHidden>
                    </UnstyledButton>
                  ) : (
                    column.header
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {firstLoad
            ? Array.from({ length: skeletonRows }, (_, index) => (
                <Table.Tr key={`skeleton-${index}`} aria-hidden>
                  {columns.map((column) => (
                    <Table.Td key={column.key}>
                      <Skeleton height={14} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            : rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <Table.Td key={column.key} style={{ textAlign: column.align ?? 'left' }}>
                      {column.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
