import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../../shared/constants';

/** Query of a server-paged list: paging, search, sort and filters. */
export interface ListParams {
  page?: number;
  perPage?: number;
  search?: string;
  sort?: string;
  [filter: string]: string | number | boolean | undefined;
}

/** The page sizes a list offers (the server accepts 1…MAX_PAGE_SIZE). */
export const PAGE_SIZES = [10, 25, 50, MAX_PAGE_SIZE] as const;

/** What a list screen accepts in its query string; anything else in the URL is dropped. */
export interface ListQuerySpec<Filter extends string> {
  /** Server sort values this list offers (`field` ascending, `-field` descending). */
  sortFields: readonly string[];
  /** The sort used when the URL names none (not written to the URL). */
  defaultSort?: string;
  /** Filter names, each a plain string query parameter sent to the server as is. */
  filters: readonly Filter[];
}

/** How long a written URL is trusted over the rendered one (see `useListQuery`). */
const PENDING_WRITE_MS = 2000;

/** The state of one list, read from the URL: shareable, survives a reload, follows Back. */
export interface ListQuery<Filter extends string> {
  page: number;
  perPage: number;
  search: string;
  /** `field` or `-field`; empty when the server's default order applies. */
  sort: string;
  filters: Record<Filter, string>;
}

const positiveInteger = (value: string | null): number | undefined => {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return number >= 1 ? number : undefined;
};

/**
 * Reads a list's state from the query string. A hand-edited or stale URL never reaches the
 * server as a 400: a bad page is page 1, an unknown page size or sort falls back to the default.
 */
export function readListQuery<Filter extends string>(
  params: URLSearchParams,
  spec: ListQuerySpec<Filter>,
): ListQuery<Filter> {
  const page = Math.min(positiveInteger(params.get('page')) ?? DEFAULT_PAGE, 1_000_000);
  const perPage = positiveInteger(params.get('perPage'));
  const sort = params.get('sort') ?? '';
  const sortable = (value: string) =>
    spec.sortFields.some((field) => value === field || value === `-${field}`);
  return {
    page,
    perPage: perPage && perPage <= MAX_PAGE_SIZE ? perPage : DEFAULT_PAGE_SIZE,
    search: (params.get('search') ?? '').slice(0, 200),
    sort: sortable(sort) ? sort : (spec.defaultSort ?? ''),
    filters: Object.fromEntries(spec.filters.map((name) => [name, params.get(name) ?? ''])) as Record<
      Filter,
      string
    >,
  };
}

/** The query string of a list state; defaults are left out so a plain list has a plain URL. */
export function writeListQuery<Filter extends string>(
  query: ListQuery<Filter>,
  spec: ListQuerySpec<Filter>,
): URLSearchParams {
  const params = new URLSearchParams();
  if (query.page !== DEFAULT_PAGE) params.set('page', String(query.page));
  if (query.perPage !== DEFAULT_PAGE_SIZE) params.set('perPage', String(query.perPage));
  if (query.search.trim()) params.set('search', query.search.trim());
  if (query.sort && query.sort !== spec.defaultSort) params.set('sort', query.sort);
  for (const name of spec.filters) if (query.filters[name]) params.set(name, query.filters[name]);
  return params;
}

/** The parameters the server's list endpoint takes (empty values left out). */
export function toListParams<Filter extends string>(query: ListQuery<Filter>): ListParams {
  const params: ListParams = { page: query.page, perPage: query.perPage };
  if (query.search.trim()) params.search = query.search.trim();
  if (query.sort) params.sort = query.sort;
  for (const [name, value] of Object.entries<string>(query.filters)) if (value) params[name] = value;
  return params;
}

/**
 * A list screen's state kept in the URL's query string. Changing the search, a filter, the sort
 * or the page size goes back to page 1 (the old page may not exist any more); each change is a
 * history entry, so Back undoes it.
 */
export function useListQuery<Filter extends string>(spec: ListQuerySpec<Filter>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = useMemo(() => readListQuery(searchParams, spec), [searchParams, spec]);

  // The router shows a navigation in a transition: until React renders it, handlers still hold
  // the URL of the last render. A second change in that moment (a quick click after another)
  // builds on the URL just written, or it would undo the first one.
  const written = useRef<{ search: string; at: number } | null>(null);
  useEffect(() => {
    if (written.current?.search === searchParams.toString()) written.current = null;
  }, [searchParams]);
  const pendingOr = useCallback(
    (current: URLSearchParams) =>
      written.current && Date.now() - written.current.at < PENDING_WRITE_MS
        ? new URLSearchParams(written.current.search)
        : current,
    [],
  );
  const remember = useCallback((next: URLSearchParams) => {
    written.current = { search: next.toString(), at: Date.now() };
    return next;
  }, []);

  const update = useCallback(
    (
      changes: Partial<Omit<ListQuery<Filter>, 'filters'>> & { filters?: Partial<Record<Filter, string>> },
      options: { replace?: boolean } = {},
    ) => {
      setSearchParams((current) => {
        const before = readListQuery(pendingOr(current), spec);
        const next: ListQuery<Filter> = {
          ...before,
          ...changes,
          filters: { ...before.filters, ...changes.filters },
          page: changes.page ?? DEFAULT_PAGE,
        };
        return remember(writeListQuery(next, spec));
      }, options);
    },
    [setSearchParams, spec, pendingOr, remember],
  );

  return {
    query,
    params: useMemo(() => toListParams(query), [query]),
    /** A search or a filter narrows the list. */
    filtered: query.search !== '' || Object.values<string>(query.filters).some((value) => value !== ''),
    setPage: useCallback((page: number) => update({ page }), [update]),
    /**
     * Moves a page past the end (an old link, the last row deleted) to `page` in place of the
     * history entry, so Back does not return to the empty page and bounce forward again.
     */
    clampPage: useCallback((page: number) => update({ page }, { replace: true }), [update]),
    setPerPage: useCallback((perPage: number) => update({ perPage }), [update]),
    setSearch: useCallback((search: string) => update({ search }), [update]),
    setSort: useCallback((sort: string) => update({ sort }), [update]),
    setFilter: useCallback(
      (name: Filter, value: string) =>
        update({ filters: { [name]: value } as Partial<Record<Filter, string>> }),
      [update],
    ),
    /** Several filters in one history entry (two `setFilter` calls in one event: only the last one sticks). */
    setFilters: useCallback(
      (changes: Partial<Record<Filter, string>>) => update({ filters: changes }),
      [update],
    ),
    /** Back to the plain list: no search, filters or sort, page 1. */
    reset: useCallback(() => setSearchParams(remember(new URLSearchParams())), [setSearchParams, remember]),
  };
}
