import { isAction, type Middleware } from '@reduxjs/toolkit';
import { tokensRefreshed, updateActivity } from '../features/auth/auth-slice';

const ACTIVE_AREAS = ['user/', 'auth/', 'license/', 'admin/'];
// A refresh the client or the session timer does on its own is not the user acting: counting it
// would keep an idle session alive forever, since tokens refresh well within 30 minutes.
const NOT_ACTIVITY: readonly string[] = [updateActivity.type, tokensRefreshed.type];

const isActivity = (type: string) =>
  !NOT_ACTIVITY.includes(type) && ACTIVE_AREAS.some((area) => type.startsWith(area));

/**
 * Inactivity sign-out after 30 minutes: any user, auth, licence or admin action refreshes the
 * activity time, except the activity update itself (which would otherwise loop). A plain
 * middleware: the activity time is recorded right after the action has reached the reducers.
 */
export function activityListener(now: () => number): { middleware: Middleware } {
  const middleware: Middleware = (api) => (next) => (action) => {
    const result = next(action);
    if (isAction(action) && isActivity(action.type)) api.dispatch(updateActivity(now()));
    return result;
  };
  return { middleware };
}
