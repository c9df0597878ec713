// The admin console as app/ sees it: its slice (injected when an admin route loads) and its state.
// The console's pages are loaded by the router directly.
export { adminSlice, initialAdminState, selectAdmin } from './admin-slice';
export type { AdminState } from './admin-types';
