import { useLingui } from '@lingui/react/macro';
import { Group, NativeSelect, Pagination, Text } from '@mantine/core';
import { numberFormat } from '../../lib/number-format';
import { PAGE_SIZES } from './list-query';

export interface ListPaginationProps {
  /** What the list holds, for the "Showing … of … users" line. */
  noun: string;
  total: number;
  page: number;
  perPage: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}

/** "Showing 11–20 of 1,000 users", the page buttons and the page size. */
/** "Showing 1–25 of 240 users", the numbers in the language shown. */
function Showing({ first, last, total, noun }: { first: number; last: number; total: number; noun: string }) {
  const { t } = useLingui();
  const number = numberFormat();
  const from = number.format(first);
  const to = number.format(last);
  const all = number.format(total);
  return t`Showing ${from}–${to} of ${all} ${noun}`;
}

export function ListPagination({ noun, total, page, perPage, onPage, onPerPage }: ListPaginationProps) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(total / perPage));
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  const sizes = PAGE_SIZES.includes(perPage as (typeof PAGE_SIZES)[number])
    ? PAGE_SIZES
    : [...PAGE_SIZES, perPage].sort((a, b) => a - b);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === 0 ? t`No ${noun}` : <Showing first={first} last={last} total={total} noun={noun} />}
      </Text>
      <Group gap="sm" wrap="wrap">
        <NativeSelect
          size="xs"
          label={t`Rows per page`}
          data={sizes.map(String)}
          value={String(perPage)}
          onChange={(event) => onPerPage(Number(event.currentTarget.value))}
          styles={{
            root: { display: 'flex', alignItems: 'center', gap: 8 },
            label: { whiteSpace: 'nowrap' },
          }}
        />
        {pages > 1 && (
          <Pagination
            size="sm"
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPage}
            siblings={1}
            boundaries={1}
            aria-label={t`Pages of ${noun}`}
            getControlProps={(control) =>
              control === 'previous'
                ? { 'aria-label': t`Previous page` }
                : control === 'next'
                  ? { 'aria-label': t`Next page` }
                  : {}
            }
            getItemProps={(item) => ({
              'aria-label': t`Page ${item}`,
              'aria-current': item === page ? 'page' : undefined,
            })}
          />
        )}
      </Group>
    </Group>
  );
}

export interface ListFooterProps {
  noun: string;
  /** The page that arrived (nothing is shown before the first one, or when the list is empty). */
  result: { total: number } | null;
  query: { page: number; perPage: number };
  list: { setPage: (page: number) => void; setPerPage: (perPage: number) => void };
}

/** The pagination of a list screen, wired to its URL state (`useListQuery`). */
export function ListFooter({ noun, result, query, list }: ListFooterProps) {
  if (!result || result.total === 0) return null;
  return (
    <ListPagination
      noun={noun}
      total={result.total}
      page={query.page}
      perPage={query.perPage}
      onPage={list.setPage}
      onPerPage={list.setPerPage}
    />
  );
}
