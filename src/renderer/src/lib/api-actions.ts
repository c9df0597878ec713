import type { Middleware, Reducer, UnknownAction } from '@reduxjs/toolkit';

/**
 * What the first download needs to know of the API cache without downloading it. RTK Query (about
 * 19 KB gzip) is loaded with the first screen that reads server data, or by the first call of a
 * public page (sign-in, sign-up), as axios is; `/landing` and `/login` load neither.
 */

/** The API cache as the store sees it: a reducer under `reducerPath`, its middleware, and its reset. */
export interface LoadedApi {
  reducerPath: 'api';
  reducer: Reducer;
  middleware: Middleware;
  util: { resetApiState(): UnknownAction };
}

export const API_REDUCER_PATH = 'api';

const waiting = new Set<(api: LoadedApi) => void>();
let loaded: LoadedApi | null = null;

/** Runs `connect` once the API module has loaded (now, if it has). */
export function whenApiLoads(connect: (api: LoadedApi) => void): void {
  if (loaded) connect(loaded);
  else waiting.add(connect);
}

/** Called by the API module as it loads: every store takes in its reducer and middleware. */
export function announceApi(api: LoadedApi): void {
  loaded = api;
  for (const connect of waiting) connect(api);
  waiting.clear();
}

type Phase = 'pending' | 'fulfilled' | 'rejected';

export interface EndpointAction<Payload> extends UnknownAction {
  payload: Payload;
  meta: { arg: { endpointName: string; originalArgs: unknown } };
}

const endpointNameOf = (action: UnknownAction): string | undefined => {
  const name = (action.meta as { arg?: { endpointName?: unknown } } | undefined)?.arg?.endpointName;
  return typeof name === 'string' ? name : undefined;
};

const isEndpointAction = (action: UnknownAction, phase: Phase) =>
  action.type === `${API_REDUCER_PATH}/executeQuery/${phase}` ||
  action.type === `${API_REDUCER_PATH}/executeMutation/${phase}`;

/**
 * Matches an endpoint's action by name, for the slices in the first download (`auth`, `user`),
 * which must not import the endpoints themselves. Other slices use `endpoint.matchFulfilled`.
 */
export function endpointAction<Payload = unknown>(endpointName: string, phase: Phase) {
  return (action: UnknownAction): action is EndpointAction<Payload> =>
    isEndpointAction(action, phase) && endpointNameOf(action) === endpointName;
}

/** The area (auth, user, license, admin...) each endpoint belongs to, named when it is injected. */
const endpointAreas = new Map<string, string>();

export function recordEndpointArea(area: string, endpointNames: readonly string[]): void {
  for (const name of endpointNames) endpointAreas.set(name, area);
}

/** The area of an endpoint's action (`api/executeQuery/pending` and the like), if it is one. */
export function endpointAreaOf(action: UnknownAction): string | undefined {
  if (!action.type.startsWith(`${API_REDUCER_PATH}/`)) return undefined;
  const name = endpointNameOf(action);
  return name === undefined ? undefined : endpointAreas.get(name);
}
