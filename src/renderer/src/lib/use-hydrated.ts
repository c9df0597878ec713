import { useSyncExternalStore } from 'react';

const neverChanges = () => () => undefined;

/**
 * False while React renders a public page ahead of time (scripts/prerender-public-pages.ts) and
 * while the browser hydrates it; true from the render after, and from the start on every page the
 * client renders itself. What a page rendered ahead of time must not do before its code runs
 * (send a form) waits for it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
