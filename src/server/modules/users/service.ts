import type {
  Preferences,
  UpdatePreferencesRequest,
  UpdateProfileRequest,
  UserProfile,
} from '../../../shared/api/users.js';
import { type Clock, isoNow } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/tables.js';
import { notFound } from '../../http-error.js';
import { readPreferences, toUserProfile } from './profile.js';
import { updateUser } from './repository.js';

/** The signed-in user's own profile and preferences. */
export function createUsersService({ db, clock }: { db: Db; clock: Clock }) {
  async function update(user: UserRow, changes: Partial<UserRow>): Promise<UserRow> {
    const updated = await updateUser(db, user.id, { ...changes, updated_at: isoNow(clock) });
    if (!updated) throw notFound('user_not_found', 'User not found');
    return updated;
  }

  return {
    profile: (user: UserRow): UserProfile => toUserProfile(user),

    async updateProfile(user: UserRow, changes: UpdateProfileRequest): Promise<UserProfile> {
      return toUserProfile(await update(user, changes));
    },

    async updatePreferences(user: UserRow, changes: UpdatePreferencesRequest): Promise<Preferences> {
      const current = readPreferences(user.preferences);
      const next: Preferences = {
        theme: changes.theme ?? current.theme,
        language: changes.language ?? current.language,
        notifications: { ...current.notifications, ...changes.notifications },
      };
      const updated = await update(user, { preferences: JSON.stringify(next) });
      return readPreferences(updated.preferences);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
