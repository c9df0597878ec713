import { createListenerMiddleware } from '@reduxjs/toolkit';
import { tokensRefreshed, updateActivity } from '../features/auth/auth-slice';

const ACTIVE_AREAS = ['user/', 'auth/', 'license/', 'admin/'];
// A refresh the client or the session timer does on its own is not the user acting: counting it
// would keep an idle session alive forever, since tokens refresh well within 30 minutes.
const NOT_ACTIVITY: readonly string[] = [updateActivity.type, tokensRefreshed.type];

/**
 * SPEC §4 session: any user, auth, licence or admin action refreshes the activity time, except
 * the activity update itself (which would otherwise loop).
 */
export function activityListener(now: () => number) {
  const listener = createListenerMiddleware();
  listener.startListening({
    predicate: (action) =>
      !NOT_ACTIVITY.includes(action.type) && ACTIVE_AREAS.some((area) => action.type.startsWith(area)),
    effect: (_action, api) => {
      api.dispatch(updateActivity(now()));
    },
  });
  return listener;
}
