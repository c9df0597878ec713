/** The part of the Web Locks API the client needs, so tests and old browsers can supply their own. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** A lock that serialises callers within this page only: the fallback where Web Locks are missing. */
export function createInProcessLocks(): LockManagerLike {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request(name, callback) {
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(callback, callback);
      const tail = run.catch(() => undefined);
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return run;
    },
  };
}

/** Web Locks (shared by every tab of the origin) when the browser has them, else an in-page lock. */
export function browserLocks(): LockManagerLike {
  const locks = globalThis.navigator?.locks;
  if (!locks) return createInProcessLocks();
  return {
    request: <T>(name: string, callback: () => Promise<T>) =>
      locks.request(name, { mode: 'exclusive' }, callback) as Promise<T>,
  };
}
