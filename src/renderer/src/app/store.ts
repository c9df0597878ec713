import { configureStore, createDynamicMiddleware, type Middleware } from '@reduxjs/toolkit';
import { sessionEnded } from '../features/auth';
import { type LoadedApi, whenApiLoads } from '../lib/api-actions';
import type { Services } from '../lib/services';
import { activityListener } from './activity-listener';
import { rootReducer, type RootState, slicesInjected } from './root-reducer';

export type { LazyLoadedSlices, RootState } from './root-reducer';

/** Signing out, or losing the session, forgets every cached answer: the next user starts afresh. */
const forgetAnswersWhenSessionEnds =
  (api: LoadedApi): Middleware =>
  (store) =>
  (next) =>
  (action) => {
    const result = next(action);
    if (sessionEnded(action)) store.dispatch(api.util.resetApiState());
    return result;
  };

/**
 * The store; endpoints and thunks reach the API through `services` (tests pass their own, against
 * a real server). It starts with `auth` and `user`; `license` and `admin` join when their modules
 * are imported, and the API cache when the first screen or call that needs it loads it.
 */
export function makeStore({
  services,
  preloadedState,
}: {
  services: Services;
  preloadedState?: Partial<RootState>;
}) {
  const apiMiddleware = createDynamicMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: services } })
        .prepend(activityListener(services.now).middleware)
        .concat(apiMiddleware.middleware),
  });
  whenApiLoads((api) => {
    rootReducer.inject(api);
    apiMiddleware.addMiddleware(api.middleware, forgetAnswersWhenSessionEnds(api));
    // The cache's state exists from now on, before the first endpoint reads it.
    store.dispatch(slicesInjected());
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
