import classes from './focus-main-heading.module.css';

/** A field the page focused itself (the sign-in form's e-mail) keeps the focus. */
const FIELD = 'input, select, textarea';

/**
 * Moves focus to the page's main heading (the first `h1` of `<main>`), so a screen reader reads
 * the new screen's name and the next Tab starts in its content; waits for the heading when the
 * page draws it later. `preventScroll` leaves the scrolling to a page that goes to a section of
 * its own (a `#fragment`). Returns what stops waiting.
 */
export function focusMainHeading(
  { preventScroll = false }: { preventScroll?: boolean } = {},
  root: Document = document,
): () => void {
  const focus = (): boolean => {
    const heading = root.querySelector<HTMLElement>('main h1');
    if (!heading) return false;
    const active = root.activeElement;
    if (active?.matches(FIELD) && active.closest('main')) return true;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    if (classes.heading) heading.classList.add(classes.heading);
    heading.focus({ preventScroll });
    return true;
  };
  if (focus()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (focus()) observer.disconnect();
  });
  observer.observe(root.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}
