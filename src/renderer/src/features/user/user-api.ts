import type {
  Preferences,
  UpdatePreferencesRequest,
  UpdateProfileRequest,
  UserProfile,
} from '../../../../shared/api/users';
import { apiPaths } from '../../../../shared/routes';
import type { HttpClient } from '../../lib/api-client';

export async function fetchProfile(http: HttpClient): Promise<UserProfile> {
  return (await http.get<UserProfile>(apiPaths.users.me)).data;
}

export async function updateProfile(http: HttpClient, body: UpdateProfileRequest): Promise<UserProfile> {
  return (await http.put<UserProfile>(apiPaths.users.me, body)).data;
}

export async function updatePreferences(
  http: HttpClient,
  body: UpdatePreferencesRequest,
): Promise<Preferences> {
  return (await http.put<Preferences>(apiPaths.users.preferences, body)).data;
}
