import type {
  Preferences,
  UpdatePreferencesRequest,
  UpdateProfileRequest,
  UserProfile,
} from '../../../shared/api/users.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { conflict, notFound } from '../../platform/http-error.js';
import { readPreferences, toUserProfile } from './profile.js';
import { findUserById, replacePreferences, updateUser } from './repository.js';

/** Attempts at merging preferences before a request that keeps losing races is told to retry. */
const PREFERENCE_MERGE_ATTEMPTS = 5;

function mergePreferences(stored: string, changes: UpdatePreferencesRequest): Preferences {
  const current = readPreferences(stored);
  return {
    theme: changes.theme ?? current.theme,
    language: changes.language ?? current.language,
    notifications: { ...current.notifications, ...changes.notifications },
  };
}

/** The signed-in user's own profile and preferences. */
export function createUsersService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    profile: (user: UserRow): UserProfile => toUserProfile(user),

    async updateProfile(user: UserRow, changes: UpdateProfileRequest): Promise<UserProfile> {
      const updated = await updateUser(db, user.id, { ...changes, updated_at: isoNow(clock) });
      if (!updated) throw notFound('user_not_found', 'User not found');
      return toUserProfile(updated);
    },

    /**
     * Merges the changes into the stored preferences. Two devices saving different settings at
     * once must both win, so the write only lands if the stored value is still the one merged
     * into (compare and set), and is merged again otherwise.
     */
    async updatePreferences(user: UserRow, changes: UpdatePreferencesRequest): Promise<Preferences> {
      let stored = user.preferences;
      for (let attempt = 0; attempt < PREFERENCE_MERGE_ATTEMPTS; attempt += 1) {
        const next = mergePreferences(stored, changes);
        const updated = await replacePreferences(db, user.id, stored, JSON.stringify(next), isoNow(clock));
        if (updated) return readPreferences(updated.preferences);
        const fresh = await findUserById(db, user.id);
        if (!fresh) throw notFound('user_not_found', 'User not found');
        stored = fresh.preferences;
      }
      throw conflict('preferences_busy', 'Your preferences were being changed elsewhere. Try again.');
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
