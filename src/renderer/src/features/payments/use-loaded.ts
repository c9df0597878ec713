import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../lib/api-errors';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  /** `refreshing` while a reload runs: the last answer stays on screen instead of a skeleton. */
  | { state: 'loaded'; value: T; refreshing: boolean };

/**
 * Runs `load` now and whenever it changes (wrap it in useCallback), and on `reload()`. Only the
 * newest call's answer is kept, so a slow answer for page 1 never replaces page 2's.
 */
export function useLoaded<T>(load: () => Promise<T>, fallback: string) {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const latest = useRef(0);

  const run = useCallback(
    async (keepShown: boolean) => {
      const call = ++latest.current;
      setResult((previous) =>
        keepShown && previous.state === 'loaded' ? { ...previous, refreshing: true } : { state: 'loading' },
      );
      try {
        const value = await load();
        if (call === latest.current) setResult({ state: 'loaded', value, refreshing: false });
      } catch (error) {
        if (call !== latest.current) return;
        const message =
          error instanceof ApiRequestError || (error instanceof Error && error.message)
            ? error.message
            : fallback;
        setResult({ state: 'failed', message });
      }
    },
    [load, fallback],
  );

  useEffect(() => {
    void run(false);
    return () => {
      // An answer arriving after unmount or a change of `load` is dropped.
      latest.current++;
    };
  }, [run]);

  /** Loads again; the answer on screen stays until the new one arrives. */
  const reload = useCallback(() => run(true), [run]);
  return { result, reload };
}
