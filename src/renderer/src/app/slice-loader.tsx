import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { Outlet } from 'react-router-dom';
import { PageLoading } from './loading-screens';
import { type LazyLoadedSlices, rootReducer, type RootState, slicesInjected } from './root-reducer';

export type LazySliceName = keyof LazyLoadedSlices;

// The features that hold the slices.
const features = {
  license: () => import('../features/licenses'),
  admin: () => import('../features/admin'),
};

// Each loader downloads a slice's feature and injects the slice into the root reducer.
const loaders: Record<LazySliceName, () => Promise<unknown>> = {
  license: () => features.license().then(({ licenseSlice }) => rootReducer.inject(licenseSlice)),
  admin: () => features.admin().then(({ adminSlice }) => rootReducer.inject(adminSlice)),
};

/**
 * Starts downloading the slices' features without injecting them: the SliceLoader that needs them
 * injects them when it mounts (and shows a failed download then).
 */
export function prefetchSlices(names: readonly LazySliceName[]): void {
  for (const name of names) features[name]().catch(() => undefined);
}

const loading = new Map<LazySliceName, Promise<unknown>>();
const injected = new Set<LazySliceName>();

/** Loads the slices' modules (once; a failed download is tried again next time). */
export function loadSlices(names: readonly LazySliceName[]): Promise<void> {
  return Promise.all(
    names.map((name) => {
      let pending = loading.get(name);
      if (!pending) {
        pending = loaders[name]().then(
          () => injected.add(name),
          (error: unknown) => {
            loading.delete(name);
            throw error;
          },
        );
        loading.set(name, pending);
      }
      return pending;
    }),
  ).then(() => undefined);
}

/**
 * Layout route of the screens that use the `license` or `admin` slices: loads and injects them,
 * showing 'Loading...' meanwhile, then renders the screens. A failed download shows the
 * 'Something went wrong' fallback of the surrounding error boundary.
 */
export function SliceLoader({ slices }: { slices: readonly LazySliceName[] }) {
  const store = useStore<RootState>();
  const [ready, setReady] = useState(() => slices.every((name) => injected.has(name)));
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);

  useEffect(() => {
    if (ready) return;
    let current = true;
    loadSlices(slices).then(
      () => {
        // Give the new slices their initial state now rather than on the next action.
        if (slices.some((name) => store.getState()[name] === undefined)) store.dispatch(slicesInjected());
        if (current) setReady(true);
      },
      (error: unknown) => {
        if (current) setFailure({ error });
      },
    );
    return () => {
      current = false;
    };
  }, [ready, slices, store]);

  if (failure) throw failure.error;
  return ready ? <Outlet /> : <PageLoading />;
}
