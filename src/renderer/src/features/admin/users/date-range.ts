import { type SkipToken, skipToken } from '@reduxjs/toolkit/query/react';
import type { I18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { ListParams } from '../../../components/data-table/list-query';

/** The labels of a "created" date range filter. */
const CREATED_RANGE = { from: msg`Created from`, to: msg`Created to` };

/** The labels of a "created" date range filter in the language shown now. */
export const createdRange = (i18n: I18n) => ({
  from: i18n._(CREATED_RANGE.from),
  to: i18n._(CREATED_RANGE.to),
});

/**
 * Checks a list's "from"/"to" date filters (`YYYY-MM-DD`) as a shared link or a hand-edited URL
 * may state them: a range that ends before it starts is not sent (the server would refuse it with
 * a 400); the list shows this instead, and the date fields mark the mistake.
 */
export function checkDateRange(from: string, to: string) {
  const problem =
    from && to && from > to ? t`The start date is after the end date. Change one of the dates.` : null;
  return { problem };
}

/**
 * What a list with a date range sends: its parameters, or `skipToken` while the range ends before
 * it starts (`problem` says so, and the list shows it in place of an answer).
 */
export function rangeCheckedParams(list: {
  query: { filters: { from: string; to: string } };
  params: ListParams;
}): { params: ListParams | SkipToken; problem: string | null } {
  const { problem } = checkDateRange(list.query.filters.from, list.query.filters.to);
  return { params: problem ? skipToken : list.params, problem };
}
