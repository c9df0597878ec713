import { useSyncExternalStore } from 'react';

const neverChanges = () => () => undefined;
const thisYear = () => new Date().getFullYear();

/** The year as the page was sent: the build's, in a page rendered ahead of time; read back while hydrating it. */
function yearAsSent(): number {
  if (typeof document === 'undefined') return thisYear();
  return Number(document.querySelector('[data-copyright-year]')?.textContent) || thisYear();
}

/**
 * The footer's year. A page rendered ahead of time carries the year of its build; hydrating with
 * that year keeps the page as sent (a different year would make React throw the page away and
 * render it afresh), and the year of the visit follows in the render after.
 */
export function CopyrightYear() {
  const year = useSyncExternalStore(neverChanges, thisYear, yearAsSent);
  return <span data-copyright-year="">{year}</span>;
}
