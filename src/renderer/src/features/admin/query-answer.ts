import { t } from '@lingui/core/macro';
import type { Paged } from '../../../../shared/api/paging';
import type { PagedResult } from '../../components/data-table/list-page';
import { isApiFailure } from '../../lib/api-errors';
import { knownText } from '../../lib/i18n/portal-i18n';

/** What the screens read of a query hook's answer. */
export interface QueryAnswer<Data> {
  data?: Data;
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/**
 * The message of a failed read: the endpoint's (the server's, else its fallback), in the language
 * shown when it is one of SPEC's exact admin messages or a server message the portal knows.
 */
export const errorText = (error: unknown): string =>
  isApiFailure(error)
    ? knownText(error.message)
    : knownText((error as { message?: string } | undefined)?.message ?? t`Request failed`);

/** A failed read's message, not while it is being tried again. */
export const failureOf = (answer: QueryAnswer<unknown>): string | null =>
  answer.error && !answer.isFetching ? errorText(answer.error) : null;

/**
 * A list query's answer as a list screen shows it. `problem` is a mistake in the list's own
 * state (a date range that ends before it starts) that kept the query from being sent.
 */
export function pagedResult<Row>(answer: QueryAnswer<Paged<Row>>, problem?: string | null): PagedResult<Row> {
  const error = problem ?? failureOf(answer);
  return {
    // A failed read shows no page: the last one's rows and "Showing 1–10 of 42" would not be
    // what the failure is about (another page, filter or sort).
    page: error ? null : (answer.data ?? null),
    loading: !problem && answer.isFetching,
    error,
    reload: () => {
      if (!problem) void answer.refetch();
    },
  };
}

/** A lazy list query's trigger (`endpoints.listX.useLazyQuery()`): reads one page on demand. */
type PageTrigger<Args, Row> = (args: Args) => { unwrap(): Promise<Paged<Row>> };

/**
 * One page of a screen's list as its search and filters select it, read through the screen's own
 * endpoint: what the CSV export asks for, page after page.
 */
export const pagesOf =
  <Args extends object, Row>(trigger: PageTrigger<Args, Row>, params: Args) =>
  (page: number, perPage: number): Promise<Paged<Row>> =>
    trigger({ ...params, page, perPage }).unwrap();
