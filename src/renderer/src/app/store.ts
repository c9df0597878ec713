import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { adminReducer } from '../features/admin/admin-slice';
import { authReducer } from '../features/auth/auth-slice';
import { licenseReducer } from '../features/license/license-slice';
import { userReducer } from '../features/user/user-slice';
import { getServices, type Services } from '../lib/services';
import { activityListener } from './activity-listener';

const rootReducer = combineReducers({
  auth: authReducer,
  user: userReducer,
  license: licenseReducer,
  admin: adminReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** The store; thunks reach the API through `services` (tests pass their own, against a real server). */
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
