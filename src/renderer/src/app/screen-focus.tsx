import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { documentTitle, type ScreenName } from './screen-titles';
import classes from './screen-focus.module.css';

/** The path whose screen was shown last; null until the first screen is shown. */
const ShownPath = createContext<{ current: string | null } | null>(null);

/** Around the routes: remembers which screen was shown, so only a move to another one moves focus. */
export function ScreenFocusScope({ children }: { children: ReactNode }) {
  const shown = useRef<string | null>(null);
  return <ShownPath.Provider value={shown}>{children}</ShownPath.Provider>;
}

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

/**
 * Each screen's title ("Licenses · Desktop AI Assistant"), set as soon as its route is entered,
 * even while its code loads.
 */
export function ScreenTitle({ screen }: { screen: ScreenName }) {
  useEffect(() => {
    document.title = documentTitle(screen);
  }, [screen]);
  return null;
}

/**
 * Rendered after a screen's page, so it runs once the page is there: after a navigation to
 * another path it moves focus to the page's heading. The first screen of a visit keeps the
 * browser's own start (the skip link is the first Tab), and a change of the query string (a
 * list's page or filter) is not a new screen.
 */
export function ScreenHeadingFocus() {
  const shown = useContext(ShownPath);
  const { pathname, hash } = useLocation();
  const toSection = hash !== '';
  useEffect(() => {
    if (!shown) return undefined;
    const previous = shown.current;
    shown.current = pathname;
    if (previous === null || previous === pathname) return undefined;
    return focusMainHeading({ preventScroll: toSection });
  }, [shown, pathname, toSection]);
  return null;
}
