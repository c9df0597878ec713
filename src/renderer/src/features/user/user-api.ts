import type { AxiosInstance } from 'axios';
import type {
  Preferences,
  UpdatePreferencesRequest,
  UpdateProfileRequest,
  UserProfile,
} from '../../../../shared/api/users';
import { apiPaths } from '../../../../shared/routes';

export async function fetchProfile(http: AxiosInstance): Promise<UserProfile> {
  return (await http.get<UserProfile>(apiPaths.users.me)).data;
}

export async function updateProfile(http: AxiosInstance, body: UpdateProfileRequest): Promise<UserProfile> {
  return (await http.put<UserProfile>(apiPaths.users.me, body)).data;
}

export async function updatePreferences(
  http: AxiosInstance,
  body: UpdatePreferencesRequest,
): Promise<Preferences> {
  return (await http.put<Preferences>(apiPaths.users.preferences, body)).data;
}
