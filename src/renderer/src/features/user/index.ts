// The user feature as app/ and other features see it: the signed-in user's profile and preferences.
export {
  selectPreferences,
  selectUserError,
  selectUserProfile,
  selectUserStatus,
  userReducer,
  type UserState,
} from './user-slice';
