import { createSlice, isAnyOf, type UnknownAction } from '@reduxjs/toolkit';
import type { Preferences, UserProfile } from '../../../../shared/api/users';
import { endpointAction } from '../../lib/api-actions';
import type { ApiFailure } from '../../lib/api-errors';
import type { AsyncStatus } from '../../lib/create-app-thunk';
import { identityArrived, initializeSession, sessionEnded } from '../auth';

/** The signed-in user's profile and preferences. */
export interface UserState {
  profile: UserProfile | null;
  preferences: Partial<Preferences>;
  status: AsyncStatus;
  error: string | null;
}

const initialState: UserState = { profile: null, preferences: {}, status: 'idle', error: null };

/*
 * The user endpoints' actions, matched by name: this slice is in the first download, the
 * endpoints (and RTK Query) are not (see lib/api-actions.ts).
 */
const ENDPOINTS = ['fetchMyProfile', 'updateMyProfile', 'updateMyPreferences'] as const;
const started = isAnyOf(...ENDPOINTS.map((name) => endpointAction(name, 'pending')));
const refused = isAnyOf(...ENDPOINTS.map((name) => endpointAction<ApiFailure | undefined>(name, 'rejected')));
const profileArrived = isAnyOf(
  endpointAction<UserProfile>('fetchMyProfile', 'fulfilled'),
  endpointAction<UserProfile>('updateMyProfile', 'fulfilled'),
);
const preferencesSaved = endpointAction<Preferences>('updateMyPreferences', 'fulfilled');

export const userSlice = createSlice({
  name: 'user',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(initializeSession.fulfilled, (state, action) => {
        if (action.payload.outcome !== 'restored') return initialState;
        state.profile = action.payload.identity.user;
        state.preferences = action.payload.identity.user.preferences;
      })
      .addMatcher(sessionEnded, () => initialState)
      .addMatcher(preferencesSaved, (state, action) => {
        state.status = 'succeeded';
        state.preferences = action.payload;
        if (state.profile) state.profile.preferences = action.payload;
      })
      .addMatcher(profileArrived, (state, action) => {
        state.status = 'succeeded';
        state.profile = action.payload;
        state.preferences = action.payload.preferences;
      })
      .addMatcher(identityArrived, (state, action) => {
        state.profile = action.payload.user;
        state.preferences = action.payload.user.preferences;
      })
      .addMatcher(started, (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addMatcher(refused, (state, action: UnknownAction & { payload: ApiFailure | undefined }) => {
        state.status = 'failed';
        state.error =
          action.payload?.message ?? (action as { error?: { message?: string } }).error?.message ?? null;
      });
  },
});

export const userReducer = userSlice.reducer;

type WithUser = { user: UserState };
export const selectUserProfile = (state: WithUser) => state.user.profile;
export const selectPreferences = (state: WithUser) => state.user.preferences;
export const selectUserStatus = (state: WithUser) => state.user.status;
export const selectUserError = (state: WithUser) => state.user.error;
