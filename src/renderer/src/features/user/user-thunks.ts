import type { UpdatePreferencesRequest, UpdateProfileRequest } from '../../../../shared/api/users';
import { userMessages } from '../../../../shared/messages';
import { serverMessage } from '../../lib/api-errors';
import { createAppThunk } from '../../lib/create-app-thunk';
import { fetchProfile, updatePreferences, updateProfile } from './user-api';

export const fetchUserProfile = createAppThunk(
  'user/fetchProfile',
  async (_: void, { extra, rejectWithValue }) => {
    try {
      return await fetchProfile(extra.client.http);
    } catch (error) {
      return rejectWithValue(serverMessage(error, userMessages.fetchProfileFailed));
    }
  },
);

/** A profile update also updates the auth user and the stored user data. */
export const updateUserProfile = createAppThunk(
  'user/updateProfile',
  async (body: UpdateProfileRequest, { extra, rejectWithValue }) => {
    try {
      const profile = await updateProfile(extra.client.http, body);
      await extra.tokens.setUser(profile);
      return profile;
    } catch (error) {
      return rejectWithValue(serverMessage(error, userMessages.updateProfileFailed));
    }
  },
);

export const updateUserPreferences = createAppThunk(
  'user/updatePreferences',
  async (body: UpdatePreferencesRequest, { extra, rejectWithValue }) => {
    try {
      return await updatePreferences(extra.client.http, body);
    } catch (error) {
      return rejectWithValue(serverMessage(error, userMessages.updatePreferencesFailed));
    }
  },
);
