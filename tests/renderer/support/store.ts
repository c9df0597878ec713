import { rootReducer, slicesInjected } from '../../../src/renderer/src/app/root-reducer';
import { type AppStore, makeStore, type RootState } from '../../../src/renderer/src/app/store';
import { adminSlice } from '../../../src/renderer/src/features/admin';
import { licenseSlice } from '../../../src/renderer/src/features/licenses';

// As the user routes' slice loader does: the license slice joins the store.
rootReducer.inject(licenseSlice);
// As the admin routes' slice loader does.
rootReducer.inject(adminSlice);

/** The state once the user and admin routes have loaded their slices: every slice present. */
export type FullState = RootState & Required<Pick<RootState, 'license' | 'admin'>>;

/**
 * A store with the lazily injected `license` and `admin` slices already in (as on a signed-in
 * user's or admin's routes), for tests of those slices.
 */
export function makeFullStore(
  options: Parameters<typeof makeStore>[0],
): Omit<AppStore, 'getState'> & { getState(): FullState } {
  const store = makeStore(options);
  store.dispatch(slicesInjected());
  return store as Omit<AppStore, 'getState'> & { getState(): FullState };
}
