import { slicesInjected } from '../../../src/renderer/src/app/root-reducer';
import { type AppStore, makeStore, type RootState } from '../../../src/renderer/src/app/store';
import '../../../src/renderer/src/features/admin/admin-slice';
import '../../../src/renderer/src/features/license/license-slice';

/** The state once the user and admin routes have loaded their slices: every SPEC §3 slice present. */
export type FullState = RootState & Required<Pick<RootState, 'license' | 'admin'>>;

/**
 * A store with the lazily injected `license` and `admin` slices already in (as on a signed-in
 * user's or admin's routes), for tests of those slices.
 */
export function makeFullStore(
  options?: Parameters<typeof makeStore>[0],
): Omit<AppStore, 'getState'> & { getState(): FullState } {
  const store = makeStore(options);
  store.dispatch(slicesInjected());
  return store as Omit<AppStore, 'getState'> & { getState(): FullState };
}
