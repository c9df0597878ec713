import { combineSlices, createAction } from '@reduxjs/toolkit';
import type { AdminState } from '../features/admin';
import { authReducer } from '../features/auth';
import type { LicenseState } from '../features/licenses';
import { userReducer } from '../features/users';

/**
 * The slices only signed-in screens use. Each is injected by its own module when that module is
 * first imported (the user and admin routes load them, see `SliceLoader`), so their reducers and
 * thunks stay out of the first download of /landing and /login. Once injected, the slice's state is
 * in the store from the next action on.
 */
export interface LazyLoadedSlices {
  license: LicenseState;
  admin: AdminState;
}

/** `auth` and `user` from the start; `license` and `admin` once their modules are loaded. */
export const rootReducer = combineSlices({
  auth: authReducer,
  user: userReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

/**
 * Dispatched once lazily loaded slices are injected, so their state appears at once rather than on
 * the next action. Not a user, auth, license or admin action: it does not count as activity.
 */
export const slicesInjected = createAction('app/slicesInjected');
