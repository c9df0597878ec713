import { isAction, type Middleware, type UnknownAction } from '@reduxjs/toolkit';
import { tokensRefreshed, updateActivity } from '../features/auth';
import { endpointAreaOf } from '../lib/api-actions';

/** The areas whose actions are the user at work: their endpoints' actions and their slices' own. */
const ACTIVE_AREAS: readonly string[] = ['user', 'auth', 'license', 'admin'];
// A refresh the client or the session timer does on its own is not the user acting: counting it
// would keep an idle session alive forever, since tokens refresh well within 30 minutes.
const NOT_ACTIVITY: readonly string[] = [updateActivity.type, tokensRefreshed.type];

const isActivity = (action: UnknownAction) => {
  if (NOT_ACTIVITY.includes(action.type)) return false;
  const area = endpointAreaOf(action);
  if (area !== undefined) return ACTIVE_AREAS.includes(area);
  return ACTIVE_AREAS.some((prefix) => action.type.startsWith(`${prefix}/`));
};

/**
 * Inactivity sign-out after 30 minutes: any user, auth, license or admin action (an endpoint's
 * call of those areas, or one of their slices' actions) refreshes the activity time, except the
 * activity update itself (which would otherwise loop). A plain middleware: the activity time is
 * recorded right after the action has reached the reducers.
 */
export function activityListener(now: () => number): { middleware: Middleware } {
  const middleware: Middleware = (api) => (next) => (action) => {
    const result = next(action);
    if (isAction(action) && isActivity(action)) api.dispatch(updateActivity(now()));
    return result;
  };
  return { middleware };
}
