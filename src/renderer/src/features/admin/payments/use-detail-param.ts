import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The item a list screen shows in its drawer, kept in the query string (`?payment=…`) beside
 * the list's own state: a details view can be shared, survives a reload and Back closes it.
 * Changing the list (search, filters, page) drops it, which is right: the drawer is closed then.
 */
export function useDetailParam(name: string) {
  const [searchParams, setSearchParams] = useSearchParams();
  const id = searchParams.get(name);
  const open = useCallback(
    (value: string) =>
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        next.set(name, value);
        return next;
      }),
    [name, setSearchParams],
  );
  const close = useCallback(
    () =>
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        next.delete(name);
        return next;
      }),
    [name, setSearchParams],
  );
  return { id, open, close };
}
