import { useLingui } from '@lingui/react/macro';
import { Button, Text } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import type { Paged } from '../../../../shared/api/paging';
import { PlusIcon } from '../brand/icons';
import { PageFrame } from '../layout/page-frame';
import { type Column, DataTable } from './data-table';
import { ExportCsvButton, type ListCsv } from './export-csv-button';
import { ListFooter } from './list-pagination';
import type { ListQuery } from './list-query';
import { ListToolbar } from './list-toolbar';
import { NoMatches } from './no-matches';

/** One page of a server-paged list as a screen shows it. */
export interface PagedResult<Row> {
  /** The last page that arrived; kept while the next one loads so the table does not jump. */
  page: Paged<Row> | null;
  loading: boolean;
  /** The message to show when the last load failed. */
  error: string | null;
  reload: () => void;
}

/** What the frame uses of a list's URL state (`useListQuery`). */
export interface ListState {
  query: ListQuery<string>;
  /** A search or a filter narrows the list. */
  filtered: boolean;
  setPage: (page: number) => void;
  clampPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
  setSearch: (search: string) => void;
  setSort: (sort: string) => void;
  reset: () => void;
}

/**
 * A page past the end (the last row of the last page was deleted, or a stale shared link) shows
 * the last page that exists instead of an empty table that claims nothing matches.
 */
export function useClampedPage(result: PagedResult<unknown>, list: ListState) {
  const { page } = result;
  const current = list.query.page;
  const { clampPage } = list;
  useEffect(() => {
    if (!page || page.data.length > 0 || page.total === 0 || current <= 1) return;
    const last = Math.max(1, Math.ceil(page.total / page.perPage));
    if (current > last) clampPage(last);
  }, [page, current, clampPage]);
}

export interface ListPageProps<Row> {
  /** The heading, which also names the table. */
  title: string;
  description: string;
  /** How to add a row ("New user"): a button beside the title, and again in the empty list. */
  create?: { label: string; onClick: () => void };
  list: ListState;
  result: PagedResult<Row>;
  /**
   * What the list holds, plural ("users"): the search field's name ("Search users"), the
   * footer's count and the no-matches state.
   */
  noun: string;
  /** What the search looks in ("E-mail, name or company"). */
  searchPlaceholder: string;
  /** The toolbar's filter controls. */
  filters?: ReactNode;
  /**
   * Anything narrows the list: "Clear filters" shows, and an empty answer says nothing matches.
   * By default a search or a filter (`list.filtered`).
   */
  filtered?: boolean;
  /** What to try when nothing matches. */
  noMatchesHint: string;
  /** The empty list when nothing is filtered: a heading line and what will appear here. */
  empty: { title: string; text: ReactNode };
  table: {
    columns: readonly Column<Row>[];
    rowKey: (row: Row) => string;
    skeletonRows?: number;
  };
  /** Export the rows the search and filters select as a CSV file (every page of them). */
  csv?: ListCsv<Row>;
  /** Above the toolbar (the list's numbers). */
  header?: ReactNode;
  /** Between the toolbar and the table (how the filters read). */
  note?: ReactNode;
  /** The screen's dialogs and drawers. */
  children?: ReactNode;
}

/**
 * A list screen: its heading, the search and filters, the server-paged table with its loading,
 * error, empty and no-matches states, and the pagination, all following the URL's list state.
 */
export function ListPage<Row>({
  title,
  description,
  create,
  list,
  result,
  noun,
  searchPlaceholder,
  filters,
  filtered = list.filtered,
  noMatchesHint,
  empty,
  table,
  header,
  note,
  csv,
  children,
}: ListPageProps<Row>) {
  const { query } = list;
  const { t } = useLingui();
  // Past the last page (after deletions, or an old link): go to the last page there is.
  useClampedPage(result, list);
  return (
    <PageFrame
      title={title}
      description={description}
      actions={
        (create || csv) && (
          <>
            {csv && <ExportCsvButton csv={csv} noun={noun} />}
            {create && (
              <Button leftSection={<PlusIcon size={16} />} onClick={create.onClick}>
                {create.label}
              </Button>
            )}
          </>
        )
      }
    >
      {header}
      <ListToolbar
        searchLabel={t`Search ${noun}`}
        searchPlaceholder={searchPlaceholder}
        search={query.search}
        onSearch={list.setSearch}
        filtered={filtered}
        onReset={list.reset}
      >
        {filters}
      </ListToolbar>
      {note}
      <DataTable
        label={title}
        columns={table.columns}
        rows={result.page?.data ?? null}
        rowKey={table.rowKey}
        loading={result.loading}
        error={result.error}
        onRetry={result.reload}
        sort={query.sort}
        onSort={list.setSort}
        skeletonRows={table.skeletonRows}
        empty={
          filtered ? (
            <NoMatches noun={noun} hint={noMatchesHint} onClear={list.reset} />
          ) : (
            <EmptyList title={empty.title} create={create}>
              {empty.text}
            </EmptyList>
          )
        }
      />
      {/* Under a failure the pages and their count would be the last answer's, not this query's. */}
      {result.error ? null : <ListFooter noun={noun} result={result.page} query={query} list={list} />}
      {children}
    </PageFrame>
  );
}

/** The empty state of a list nothing was added to yet: a heading line, what will appear, the way to add one. */
function EmptyList({
  title,
  children,
  create,
}: {
  title: string;
  children: ReactNode;
  create: ListPageProps<unknown>['create'];
}) {
  return (
    <>
      <Text fw={600}>{title}</Text>
      <Text size="sm" c="dimmed">
        {children}
      </Text>
      {create && (
        <Button variant="light" leftSection={<PlusIcon size={16} />} onClick={create.onClick}>
          {create.label}
        </Button>
      )}
    </>
  );
}
