import { createSlice, isAnyOf } from '@reduxjs/toolkit';
import type { Preferences, UserProfile } from '../../../../shared/api/users';
import type { AsyncStatus } from '../../lib/create-app-thunk';
import {
  loginUser,
  logoutUser,
  refreshSession,
  sessionCleared,
  initializeSession,
  tokensRefreshed,
} from '../auth/auth-slice';
import { fetchUserProfile, updateUserPreferences, updateUserProfile } from './user-thunks';

export { fetchUserProfile, updateUserPreferences, updateUserProfile } from './user-thunks';

/** The signed-in user's profile and preferences. */
export interface UserState {
  profile: UserProfile | null;
  preferences: Partial<Preferences>;
  status: AsyncStatus;
  error: string | null;
}

const initialState: UserState = { profile: null, preferences: {}, status: 'idle', error: null };

const userSlice = createSlice({
  name: 'user',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(updateUserPreferences.fulfilled, (state, action) => {
        state.status = 'succeeded';
        state.preferences = action.payload;
        if (state.profile) state.profile.preferences = action.payload;
      })
      .addCase(initializeSession.fulfilled, (state, action) => {
        if (action.payload.outcome !== 'restored') return initialState;
        state.profile = action.payload.identity.user;
        state.preferences = action.payload.identity.user.preferences;
      })
      .addCase(logoutUser.fulfilled, () => initialState)
      .addCase(logoutUser.rejected, () => initialState)
      .addCase(sessionCleared, () => initialState)
      .addMatcher(isAnyOf(fetchUserProfile.fulfilled, updateUserProfile.fulfilled), (state, action) => {
        state.status = 'succeeded';
        state.profile = action.payload;
        state.preferences = action.payload.preferences;
      })
      .addMatcher(
        isAnyOf(loginUser.fulfilled, refreshSession.fulfilled, tokensRefreshed),
        (state, action) => {
          state.profile = action.payload.user;
          state.preferences = action.payload.user.preferences;
        },
      )
      .addMatcher(
        isAnyOf(fetchUserProfile.pending, updateUserProfile.pending, updateUserPreferences.pending),
        (state) => {
          state.status = 'loading';
          state.error = null;
        },
      )
      .addMatcher(
        isAnyOf(fetchUserProfile.rejected, updateUserProfile.rejected, updateUserPreferences.rejected),
        (state, action) => {
          state.status = 'failed';
          state.error = action.payload ?? action.error.message ?? null;
        },
      );
  },
});

export const userReducer = userSlice.reducer;

type WithUser = { user: UserState };
export const selectUserProfile = (state: WithUser) => state.user.profile;
export const selectPreferences = (state: WithUser) => state.user.preferences;
export const selectUserStatus = (state: WithUser) => state.user.status;
export const selectUserError = (state: WithUser) => state.user.error;
