/**
 * Checks a list's "from"/"to" date filters (`YYYY-MM-DD`): a range that ends before it starts is
 * marked on both fields and not sent (the server would refuse it with a 400).
 */
export function checkDateRange(from: string, to: string) {
  const problem =
    from && to && from > to ? 'The start date is after the end date. Change one of the dates.' : null;
  return {
    problem,
    fromError: problem ? 'After the end date' : undefined,
    toError: problem ? 'Before the start date' : undefined,
  };
}
