import { QUERY_CACHE_SECONDS } from '../../../shared/constants';

/** Reads kept for 60 s; concurrent reads of one key share a single request. */
export interface QueryCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets the keys that start with `prefix` (all keys without one): after a write, or a change of user. */
  invalidate(prefix?: string): void;
}

export function createQueryCache({
  ttlMs = QUERY_CACHE_SECONDS * 1000,
  now = Date.now,
}: { ttlMs?: number; now?: () => number } = {}): QueryCache {
  const entries = new Map<string, { at: number; value: Promise<unknown> }>();
  return {
    get<T>(key: string, load: () => Promise<T>) {
      const entry = entries.get(key);
      if (entry && now() - entry.at < ttlMs) return entry.value as Promise<T>;
      const value = load();
      entries.set(key, { at: now(), value });
      // A failed read is not an answer worth keeping.
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    invalidate(prefix = '') {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}
