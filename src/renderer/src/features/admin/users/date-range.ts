/**
 * Checks a list's "from"/"to" date filters (`YYYY-MM-DD`) as a shared link or a hand-edited URL
 * may state them: a range that ends before it starts is not sent (the server would refuse it with
 * a 400); the list shows this instead, and the date fields mark the mistake.
 */
export function checkDateRange(from: string, to: string) {
  const problem =
    from && to && from > to ? 'The start date is after the end date. Change one of the dates.' : null;
  return { problem };
}
