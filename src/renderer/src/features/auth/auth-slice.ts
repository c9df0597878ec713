import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { UserProfile } from '../../../../shared/api/users';
import type { AsyncStatus } from '../../lib/create-app-thunk';
import { updateUserProfile } from '../user/user-thunks';
import {
  initializeSession,
  loginUser,
  logoutUser,
  refreshSession,
  registerUser,
  type SessionIdentity,
} from './auth-thunks';

export { initializeSession, loginUser, logoutUser, refreshSession, registerUser } from './auth-thunks';
export type { SessionIdentity, SessionOutcome } from './auth-thunks';

/** Who is signed in, with which role, and when they last acted. */
export interface AuthState {
  isAuthenticated: boolean;
  user: UserProfile | null;
  status: AsyncStatus;
  error: string | null;
  /** Epoch milliseconds of the last user, auth, licence or admin action: 30 minutes without one signs out. */
  lastActivity: number;
  userRole: string | null;
}

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

const authSlice = createSlice({
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
      .addCase(loginUser.pending, started)
      .addCase(loginUser.fulfilled, (state, action) => signedIn(state, action.payload))
      .addCase(loginUser.rejected, (state, action) => {
        state.status = 'failed';
        state.error = action.payload ?? action.error.message ?? null;
        signedOut(state);
      })
      .addCase(registerUser.pending, started)
      .addCase(registerUser.fulfilled, (state) => {
        state.status = 'succeeded';
      })
      .addCase(registerUser.rejected, (state, action) => {
        state.status = 'failed';
        state.error = action.payload ?? action.error.message ?? null;
      })
      .addCase(logoutUser.pending, started)
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
      .addCase(updateUserProfile.fulfilled, (state, action) => {
        state.user = action.payload;
      })
      // Logout ends the session whether or not the server answered.
      .addMatcher(isAnyOf(logoutUser.fulfilled, logoutUser.rejected), (state) => {
        signedOut(state);
        state.status = 'idle';
        state.error = null;
      });
  },
});

export const { updateActivity, tokensRefreshed, sessionCleared } = authSlice.actions;
export const authReducer = authSlice.reducer;

type WithAuth = { auth: AuthState };
export const selectIsAuthenticated = (state: WithAuth) => state.auth.isAuthenticated;
export const selectUserRole = (state: WithAuth) => state.auth.userRole;
export const selectIsAdmin = (state: WithAuth) => state.auth.userRole === 'admin';
export const selectAuthStatus = (state: WithAuth) => state.auth.status;
export const selectAuthError = (state: WithAuth) => state.auth.error;
export const selectCurrentUser = (state: WithAuth) => state.auth.user;
export const selectLastActivity = (state: WithAuth) => state.auth.lastActivity;
