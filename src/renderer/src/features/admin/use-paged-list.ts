import type { AsyncThunkAction } from '@reduxjs/toolkit';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Paged } from '../../../../shared/api/paging';
import { useAppDispatch } from '../../app/hooks';
import type { AppThunkConfig } from '../../lib/create-app-thunk';
import type { ListParams } from './admin-types';

export interface PagedList<Item> {
  /** The last page that arrived; kept while the next one loads so the table does not jump. */
  page: Paged<Item> | null;
  loading: boolean;
  /** The message to show when the last load failed (the server's message, else the list's fallback). */
  error: string | null;
  reload: () => void;
}

/**
 * Loads one page of a server-paged list whenever its parameters change. Answers that arrive
 * after a newer request was made are dropped, so fast paging or typing never shows a stale page.
 * `load` rejects with the message to show (an admin thunk's `unwrap()` does).
 */
export function usePagedList<Item>(
  load: (params: ListParams) => Promise<Paged<Item>>,
  params: ListParams,
): PagedList<Item> {
  const [page, setPage] = useState<Paged<Item> | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  const key = JSON.stringify(params);

  useEffect(() => {
    const request = ++latest.current;
    setLoading(true);
    setError(null);
    load(JSON.parse(key) as ListParams).then(
      (result) => {
        if (request !== latest.current) return;
        setPage(result);
        setLoading(false);
      },
      (reason: unknown) => {
        if (request !== latest.current) return;
        setError(
          typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : String(reason),
        );
        setLoading(false);
      },
    );
  }, [load, key, attempt]);

  return { page, loading, error, reload: useCallback(() => setAttempt((value) => value + 1), []) };
}

/** A list thunk of the admin slice as a `load` function: the slice keeps the page, the screen reads it back. */
export function useListThunk<Item>(
  thunk: (params: ListParams) => AsyncThunkAction<Paged<Item>, ListParams | void, AppThunkConfig>,
): (params: ListParams) => Promise<Paged<Item>> {
  const dispatch = useAppDispatch();
  return useCallback((params: ListParams) => dispatch(thunk(params)).unwrap(), [dispatch, thunk]);
}
