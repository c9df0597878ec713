import { createSlice, isAnyOf, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { UserProfile } from '../../../../shared/api/users';
import { portalPaths } from '../../../../shared/routes';
import { endpointAction } from '../../lib/api-actions';
import type { ApiFailure } from '../../lib/api-errors';
import type { AsyncStatus } from '../../lib/create-app-thunk';
import { initializeSession, refreshSession, type SessionIdentity } from './session-thunks';

/** Who is signed in, with which role, and when they last acted. */
export interface AuthState {
  isAuthenticated: boolean;
  user: UserProfile | null;
  status: AsyncStatus;
  error: string | null;
  /** Epoch milliseconds of the last user, auth, license or admin action: 30 minutes without one signs out. */
  lastActivity: number;
  userRole: string | null;
}

/*
 * The endpoints' actions, matched by name: this slice is in the first download, the endpoints
 * (and RTK Query) are not (see lib/api-actions.ts).
 */
const endpoint = <Answer>(name: string) => ({
  pending: endpointAction(name, 'pending'),
  fulfilled: endpointAction<Answer>(name, 'fulfilled'),
  rejected: endpointAction<ApiFailure | undefined>(name, 'rejected'),
});
/** A sign-in answers who signed in, or (`secondFactor`) that a second step is needed first. */
const login = endpoint<SessionIdentity | { secondFactor: unknown }>('login');
/** A password sign-in that signed in (not one that waits for its second factor). */
const loginSignedIn = (action: UnknownAction): action is PayloadAction<SessionIdentity> =>
  login.fulfilled(action) && !('secondFactor' in action.payload);
const register = endpoint<string>('register');
const logout = endpoint<null>('logout');
/** The user endpoints whose answer is the new profile (the auth user follows it). */
const profileUpdated = endpointAction<UserProfile>('updateMyProfile', 'fulfilled');

/** A rejected endpoint's message: its {@link ApiFailure}, else what was thrown. */
const failureOf = (action: UnknownAction & { payload: ApiFailure | undefined }) =>
  action.payload?.message ?? (action as { error?: { message?: string } }).error?.message ?? null;

const signedOut = (state: AuthState) => {
  state.isAuthenticated = false;
  state.user = null;
  state.userRole = null;
};

const signedIn = (state: AuthState, { user, role }: SessionIdentity) => {
  state.isAuthenticated = true;
  state.user = user;
  state.userRole = role;
  state.status = 'succeeded';
};

export const authSlice = createSlice({
  name: 'auth',
  initialState: (): AuthState => ({
    isAuthenticated: false,
    user: null,
    status: 'idle',
    error: null,
    lastActivity: Date.now(),
    userRole: null,
  }),
  reducers: {
    updateActivity: {
      reducer(state, action: PayloadAction<number>) {
        state.lastActivity = action.payload;
      },
      prepare: (at: number = Date.now()) => ({ payload: at }),
    },
    /** The API client refreshed the tokens on its own (a 401, or an expired token before a call). */
    tokensRefreshed(state, action: PayloadAction<SessionIdentity>) {
      signedIn(state, action.payload);
    },
    /** The session is gone (refresh failed, or the server refused the token): no user, no role. */
    sessionCleared(state) {
      signedOut(state);
    },
  },
  extraReducers: (builder) => {
    const started = (state: AuthState) => {
      state.status = 'loading';
      state.error = null;
    };
    builder
      .addCase(refreshSession.pending, started)
      .addCase(refreshSession.fulfilled, (state, action) => signedIn(state, action.payload))
      .addCase(refreshSession.rejected, (state, action) => {
        state.status = 'failed';
        state.error = action.payload ?? action.error.message ?? null;
        signedOut(state);
      })
      .addCase(initializeSession.pending, started)
      .addCase(initializeSession.fulfilled, (state, { payload }) => {
        if (payload.outcome === 'restored') return signedIn(state, payload.identity);
        signedOut(state);
        state.status = payload.outcome === 'invalid' ? 'failed' : 'idle';
        state.error = payload.outcome === 'invalid' ? payload.message : null;
      })
      .addMatcher(isAnyOf(login.pending, register.pending, logout.pending), started)
      .addMatcher(loginSignedIn, (state, action) => signedIn(state, action.payload))
      // Waiting for the second factor: nobody is signed in yet, and nothing failed.
      .addMatcher(login.fulfilled, (state, action) => {
        if ('secondFactor' in action.payload) state.status = 'idle';
      })
      .addMatcher(login.rejected, (state, action) => {
        state.status = 'failed';
        state.error = failureOf(action);
        signedOut(state);
      })
      .addMatcher(register.fulfilled, (state) => {
        state.status = 'succeeded';
      })
      .addMatcher(register.rejected, (state, action) => {
        state.status = 'failed';
        state.error = failureOf(action);
      })
      .addMatcher(profileUpdated, (state, action) => {
        state.user = action.payload;
      })
      // Logout ends the session whether or not the server answered.
      .addMatcher(isAnyOf(logout.fulfilled, logout.rejected), (state) => {
        signedOut(state);
        state.status = 'idle';
        state.error = null;
      });
  },
});

export const { updateActivity, tokensRefreshed, sessionCleared } = authSlice.actions;
export const authReducer = authSlice.reducer;

/** The session ended: signed out here (answered or not), or lost. Every slice of the user's data resets. */
export const sessionEnded = isAnyOf(logout.fulfilled, logout.rejected, sessionCleared);
/** Someone signed in, or the session was refreshed: the identity is in the action's payload. */
export const identityArrived = isAnyOf(loginSignedIn, refreshSession.fulfilled, tokensRefreshed);

/** Where a signed-in user belongs: /admin for admins, else /dashboard. */
export const homeFor = (role: string | null) =>
  role === 'admin' ? portalPaths.admin : portalPaths.dashboard;

type WithAuth = { auth: AuthState };
export const selectIsAuthenticated = (state: WithAuth) => state.auth.isAuthenticated;
export const selectUserRole = (state: WithAuth) => state.auth.userRole;
export const selectIsAdmin = (state: WithAuth) => state.auth.userRole === 'admin';
export const selectAuthStatus = (state: WithAuth) => state.auth.status;
export const selectAuthError = (state: WithAuth) => state.auth.error;
export const selectCurrentUser = (state: WithAuth) => state.auth.user;
export const selectLastActivity = (state: WithAuth) => state.auth.lastActivity;
