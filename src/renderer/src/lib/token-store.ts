import { localStorageKeys } from '../../../shared/storage-keys';
import type { Platform } from './platform';
import type { SessionTokens } from './refresh-response';
import type { SecureStorage } from './secure-storage';

/** The session's tokens and user data wherever the platform keeps them. */
export interface TokenStore {
  getAccessToken(): Promise<string | null>;
  /** What the refresh and logout calls carry: on the desktop a placeholder (see Platform). */
  getRefreshToken(): Promise<string | null>;
  getUser<T = unknown>(): Promise<T | null>;
  setUser(user: unknown): Promise<void>;
  /** Stores a login or refresh answer; a missing refresh token keeps the stored one. */
  save(tokens: SessionTokens): Promise<void>;
  /** Refresh failure and logout: stored tokens, user data and storage keys are cleared. */
  clear(): Promise<void>;
}

export function createTokenStore({
  secure,
  platform,
  local = globalThis.localStorage,
}: {
  secure: SecureStorage;
  platform: Platform;
  local?: Storage;
}): TokenStore {
  return {
    getAccessToken: () => secure.getAccessToken(),
    getRefreshToken: () => platform.getRefreshToken(),
    getUser: <T>() => secure.getUserData<T>(),
    setUser: (user) => secure.setUserData(user),
    async save({ accessToken, refreshToken, user }) {
      await secure.setAccessToken(accessToken);
      if (refreshToken) await platform.setRefreshToken(refreshToken);
      if (user) await secure.setUserData(user);
    },
    async clear() {
      await platform.clearRefreshToken();
      secure.clearAll();
      for (const key of [
        localStorageKeys.accessToken,
        localStorageKeys.refreshToken,
        localStorageKeys.userData,
      ])
        local.removeItem(key);
    },
  };
}
