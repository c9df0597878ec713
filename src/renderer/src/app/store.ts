import { configureStore } from '@reduxjs/toolkit';
import { getServices, type Services } from '../lib/services';
import { activityListener } from './activity-listener';
import { rootReducer, type RootState } from './root-reducer';

export type { LazyLoadedSlices, RootState } from './root-reducer';

/**
 * The store; thunks reach the API through `services` (tests pass their own, against a real server).
 * It starts with `auth` and `user`; `license` and `admin` join when their modules are imported.
 */
export function makeStore({
  services = getServices(),
  preloadedState,
}: { services?: Services; preloadedState?: Partial<RootState> } = {}) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: services } }).prepend(activityListener(services.now).middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
