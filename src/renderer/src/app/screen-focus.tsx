import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { documentTitle } from './screen-titles';

/** The path whose screen was shown last; null until the first screen is shown. */
const ShownPath = createContext<{ current: string | null } | null>(null);

/** Around the routes: remembers which screen was shown, so only a move to another one moves focus. */
export function ScreenFocusScope({ children }: { children: ReactNode }) {
  const shown = useRef<string | null>(null);
  return <ShownPath.Provider value={shown}>{children}</ShownPath.Provider>;
}

/**
 * Each screen's title ("Licenses · Desktop AI Assistant"), set as soon as its route is entered,
 * even while its code loads; in the language shown, and again when it changes.
 */
export function ScreenTitle({ title }: { title: MessageDescriptor }) {
  const { i18n } = useLingui();
  const text = i18n._(title);
  useEffect(() => {
    document.title = documentTitle(text);
  }, [text]);
  return null;
}

/**
 * Rendered after a screen's page, so it runs once the page is there: after a navigation to
 * another path it moves focus to the page's heading (see `focusMainHeading`). The first screen of a visit keeps the
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
    // Only needed from the second screen on, so not part of the first download.
    let stop: (() => void) | undefined;
    let left = false;
    void import('./focus-main-heading').then(
      ({ focusMainHeading }) => {
        if (!left) stop = focusMainHeading({ preventScroll: toSection });
      },
      // Not downloaded (no server): the screen says so itself; focus stays where it was.
      () => undefined,
    );
    return () => {
      left = true;
      stop?.();
    };
  }, [shown, pathname, toSection]);
  return null;
}
