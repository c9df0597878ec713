import {
  defaultPreferences,
  type Preferences,
  preferencesSchema,
  type UserProfile,
} from '../../../shared/api/users.js';
import type { UserRow } from '../../platform/db/tables.js';

/** Stored preferences over the defaults, so keys added later get their default for existing users. */
export function readPreferences(stored: string): Preferences {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    parsed = {};
  }
  const merged = preferencesSchema.safeParse({
    ...defaultPreferences,
    ...(parsed as object),
    notifications: {
      ...defaultPreferences.notifications,
      ...(parsed as { notifications?: object }).notifications,
    },
  });
  return merged.success ? merged.data : defaultPreferences;
}

/** The columns every view of an account shows (the user's own profile, the administrators' list). */
export type AccountColumns = Pick<
  UserRow,
  | 'id'
  | 'email'
  | 'full_name'
  | 'company'
  | 'role'
  | 'status'
  | 'email_verified_at'
  | 'created_at'
  | 'updated_at'
>;

export const accountFields = (row: AccountColumns) => ({
  id: row.id,
  email: row.email,
  full_name: row.full_name,
  company: row.company,
  role: row.role,
  status: row.status,
  email_verified: row.email_verified_at !== null,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toUserProfile = (row: UserRow): UserProfile => ({
  ...accountFields(row),
  preferences: readPreferences(row.preferences),
  ...(row.deletion_due_at ? { deletion_due_at: row.deletion_due_at } : {}),
});
