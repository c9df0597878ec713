import type { Paged } from '../../../../shared/api/paging';
import type { PagedResult } from '../../components/data-table/list-page';
import { isApiFailure } from '../../lib/api-errors';

/** What the screens read of a query hook's answer. */
export interface QueryAnswer<Data> {
  data?: Data;
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/** The message of a failed read: the endpoint's (the server's, else its fallback). */
export const errorText = (error: unknown): string =>
  isApiFailure(error)
    ? error.message
    : ((error as { message?: string } | undefined)?.message ?? 'Request failed');

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
