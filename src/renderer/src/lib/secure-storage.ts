import {
  ENCRYPTION_COOKIE_DEFAULT_MAX_AGE_DAYS,
  REFRESH_COOKIE_MAX_AGE_DAYS,
  SECURE_STORAGE_PREFIX,
} from '../../../shared/constants';
import { secureStorageKeys } from '../../../shared/storage-keys';
import { type CookieJar, documentCookieJar } from './cookies';
import { decryptText, deriveStorageKey, encryptText, newSessionId } from './crypto-box';

/*
 * Threat model. Tokens never sit in storage as plain text. The secret of the session-storage
 * entries lives in session storage (this tab; survives a reload, gone when the tab closes), so the
 * access token and user data last for the browser session only. The secret of encrypted
 * cookies lives in its own cookie that lasts as long as the longest cookie it protects, so the
 * 30-day refresh cookie still signs the user in after the browser restarts, as its lifetime
 * promises; a leaked refresh-cookie value alone is useless. This does NOT stop a script running in
 * the page (XSS): it can read the secrets as this code does. The point is no plain tokens at rest.
 */

/** Secret of the session-storage entries: one per tab. */
export const TAB_SECRET_KEY = `${SECURE_STORAGE_PREFIX}session_id`;
/** Secret of encrypted cookies, shared by every tab so each can read the refresh cookie. */
export const COOKIE_SECRET_KEY = `${SECURE_STORAGE_PREFIX}cookie_session`;

const DAY_SECONDS = 24 * 60 * 60;

export interface SecureStorageOptions {
  session?: Storage;
  local?: Storage;
  cookies?: CookieJar;
  /** Whether the page is served over HTTPS (cookies get `Secure` only then). */
  isHttps?: () => boolean;
}

export interface SecureStorage {
  getAccessToken(): Promise<string | null>;
  setAccessToken(token: string | null | undefined): Promise<void>;
  getRefreshToken(): Promise<string | null>;
  setRefreshToken(token: string | null | undefined): Promise<void>;
  clearRefreshToken(): void;
  getUserData<T = unknown>(): Promise<T | null>;
  setUserData(user: unknown): Promise<void>;
  setEncryptedCookie(name: string, value: string, maxAgeDays?: number): Promise<void>;
  getEncryptedCookie(name: string): Promise<string | null>;
  /** Cleanup: removes every stored item whose name starts with `secure_`. */
  clearAll(): void;
}

function refuseEmpty(token: string | null | undefined): asserts token is string {
  if (typeof token !== 'string' || token.length === 0)
    throw new TypeError('Refusing to store an empty token');
}

export function createSecureStorage(options: SecureStorageOptions = {}): SecureStorage {
  const session = options.session ?? globalThis.sessionStorage;
  const local = options.local ?? globalThis.localStorage;
  const cookies = options.cookies ?? documentCookieJar();
  const isHttps = options.isHttps ?? (() => globalThis.location?.protocol === 'https:');
  const keys = new Map<string, Promise<CryptoKey>>();

  const keyFor = (secret: string) => {
    let key = keys.get(secret);
    if (!key) {
      key = deriveStorageKey(secret);
      keys.set(secret, key);
    }
    return key;
  };

  // Reading never creates a secret: no secret means nothing this session wrote can be read.
  const tabKey = (create: boolean) => {
    let secret = session.getItem(TAB_SECRET_KEY);
    if (!secret && create) {
      secret = newSessionId();
      session.setItem(TAB_SECRET_KEY, secret);
    }
    return secret ? keyFor(secret) : null;
  };
  /** The cookie secret; writing an encrypted cookie keeps the secret at least as long as that cookie. */
  const cookieKey = (keepForSeconds?: number) => {
    let secret = cookies.get(COOKIE_SECRET_KEY);
    if (keepForSeconds !== undefined) {
      secret ??= newSessionId();
      cookies.set(COOKIE_SECRET_KEY, secret, {
        maxAgeSeconds: Math.max(keepForSeconds, REFRESH_COOKIE_MAX_AGE_DAYS * DAY_SECONDS),
        sameSite: 'Strict',
        secure: isHttps(),
      });
    }
    return secret ? keyFor(secret) : null;
  };

  const writeSession = async (name: string, value: string) => {
    const key = await tabKey(true);
    if (key) session.setItem(name, await encryptText(key, value));
  };
  const readSession = async (name: string) => {
    const sealed = session.getItem(name);
    const key = sealed ? tabKey(false) : null;
    return sealed && key ? decryptText(await key, sealed) : null;
  };

  const storage: SecureStorage = {
    async getAccessToken() {
      return readSession(secureStorageKeys.accessToken);
    },
    async setAccessToken(token) {
      refuseEmpty(token);
      await writeSession(secureStorageKeys.accessToken, token);
    },
    async getRefreshToken() {
      return storage.getEncryptedCookie(secureStorageKeys.refreshToken);
    },
    async setRefreshToken(token) {
      refuseEmpty(token);
      await storage.setEncryptedCookie(secureStorageKeys.refreshToken, token, REFRESH_COOKIE_MAX_AGE_DAYS);
    },
    clearRefreshToken() {
      cookies.remove(secureStorageKeys.refreshToken);
    },
    async getUserData<T>() {
      const json = await readSession(secureStorageKeys.userData);
      if (json === null) return null;
      try {
        return JSON.parse(json) as T;
      } catch {
        return null;
      }
    },
    async setUserData(user) {
      await writeSession(secureStorageKeys.userData, JSON.stringify(user));
    },
    async setEncryptedCookie(name, value, maxAgeDays = ENCRYPTION_COOKIE_DEFAULT_MAX_AGE_DAYS) {
      const key = await cookieKey(maxAgeDays * DAY_SECONDS);
      if (!key) return;
      cookies.set(name, await encryptText(key, value), {
        maxAgeSeconds: maxAgeDays * DAY_SECONDS,
        sameSite: 'Lax',
        secure: isHttps(),
      });
      // Other tabs read it next (the refresh token after a rotation): wait until they can.
      await Promise.all([cookies.settle(COOKIE_SECRET_KEY), cookies.settle(name)]);
    },
    async getEncryptedCookie(name) {
      const sealed = await cookies.read(name);
      const key = sealed ? cookieKey() : null;
      return sealed && key ? decryptText(await key, sealed) : null;
    },
    clearAll() {
      for (const store of [session, local]) {
        const names = Array.from({ length: store.length }, (_, index) => store.key(index) ?? '');
        for (const name of names) if (name.startsWith(SECURE_STORAGE_PREFIX)) store.removeItem(name);
      }
      for (const name of cookies.names()) if (name.startsWith(SECURE_STORAGE_PREFIX)) cookies.remove(name);
      keys.clear();
    },
  };
  return storage;
}
