import { describe, expect, it } from 'vitest';
import { secureStorageKeys, localStorageKeys } from '../../src/shared/storage-keys';
import { documentCookieJar } from '../../src/renderer/src/lib/cookies';
import {
  createSecureStorage,
  COOKIE_SECRET_KEY,
  TAB_SECRET_KEY,
} from '../../src/renderer/src/lib/secure-storage';
import {
  migrateEncryption,
  migrateSecurity,
  migrationKeys,
  runStorageMigrations,
} from '../../src/renderer/src/lib/storage-migrations';
import { MemoryCookieJar, MemoryStorage } from './support/memory-storage';
import { tabServices } from './support/services';

function tab(cookies = new MemoryCookieJar(), isHttps = false) {
  const session = new MemoryStorage();
  const local = new MemoryStorage();
  return {
    session,
    local,
    cookies,
    secure: createSecureStorage({ session, local, cookies, isHttps: () => isHttps }),
  };
}

describe('Secure storage', () => {
  it('the access token is stored encrypted in session storage as secure_access_token and reads back', async () => {
    const { secure, session } = tab();
    await secure.setAccessToken('header.payload.signature');
    const stored = session.getItem(secureStorageKeys.accessToken);
    expect(stored).toBeTruthy();
    expect(stored).not.toContain('payload');
    expect(await secure.getAccessToken()).toBe('header.payload.signature');
  });

  it('user data is stored encrypted in session storage as secure_user_data', async () => {
    const { secure, session } = tab();
    await secure.setUserData({ id: 'u1', email: 'ada@example.com' });
    expect(session.getItem(secureStorageKeys.userData)).not.toContain('ada@example.com');
    expect(await secure.getUserData()).toEqual({ id: 'u1', email: 'ada@example.com' });
  });

  it('the refresh token is stored encrypted in the secure_refresh_token cookie', async () => {
    const { secure, cookies } = tab();
    await secure.setRefreshToken('opaque-refresh-token-value');
    expect(cookies.get(secureStorageKeys.refreshToken)).not.toContain('opaque');
    expect(await secure.getRefreshToken()).toBe('opaque-refresh-token-value');
  });

  it('storing a null or missing token is refused', async () => {
    const { secure, session, cookies } = tab();
    await expect(secure.setAccessToken(null)).rejects.toThrow(/empty token/);
    await expect(secure.setAccessToken(undefined)).rejects.toThrow(/empty token/);
    await expect(secure.setRefreshToken('')).rejects.toThrow(/empty token/);
    expect(session.getItem(secureStorageKeys.accessToken)).toBeNull();
    expect(cookies.get(secureStorageKeys.refreshToken)).toBeNull();
  });

  it('the refresh cookie lives 30 days, SameSite=Lax, path /, not Secure over http', async () => {
    const writes: string[] = [];
    const doc = {
      get cookie() {
        return '';
      },
      set cookie(value: string) {
        writes.push(value);
      },
    };
    const secure = createSecureStorage({
      session: new MemoryStorage(),
      local: new MemoryStorage(),
      cookies: documentCookieJar(doc),
      isHttps: () => false,
    });
    await secure.setEncryptedCookie('secure_probe', 'v', 30);
    const written = writes.find((line) => line.startsWith('secure_probe='));
    expect(written).toMatch(/; Path=\/; SameSite=Lax; Max-Age=2592000$/);
    expect(written).not.toContain('Secure');
  });

  it('over https the refresh cookie is Secure', async () => {
    const { secure, cookies } = tab(new MemoryCookieJar(), true);
    await secure.setRefreshToken('opaque-refresh-token-value');
    expect(cookies.cookies.get(secureStorageKeys.refreshToken)?.options).toEqual({
      maxAgeSeconds: 30 * 24 * 60 * 60,
      sameSite: 'Lax',
      secure: true,
    });
  });

  it("the encryption helper's default cookie lifetime is 7 days", async () => {
    const { secure, cookies } = tab();
    await secure.setEncryptedCookie('secure_other', 'value');
    expect(cookies.cookies.get('secure_other')?.options.maxAgeSeconds).toBe(7 * 24 * 60 * 60);
  });

  it('a reload of the same tab still decrypts; after a browser restart only the 30-day refresh cookie remains readable', async () => {
    const first = tab();
    await first.secure.setAccessToken('tab-token');
    await first.secure.setRefreshToken('shared-refresh-token');
    // Reload: same session storage and cookies, a fresh instance.
    const reloaded = createSecureStorage({
      session: first.session,
      local: first.local,
      cookies: first.cookies,
    });
    expect(await reloaded.getAccessToken()).toBe('tab-token');
    expect(await reloaded.getRefreshToken()).toBe('shared-refresh-token');
    // Browser restart: session storage and session cookies are gone, cookies with a lifetime stay.
    const restartedCookies = new MemoryCookieJar();
    for (const name of [secureStorageKeys.refreshToken, COOKIE_SECRET_KEY]) {
      const cookie = first.cookies.cookies.get(name);
      expect(cookie?.options.maxAgeSeconds, name).toBeGreaterThanOrEqual(30 * 24 * 60 * 60);
      restartedCookies.set(name, cookie?.value ?? '', cookie?.options);
    }
    const restarted = createSecureStorage({
      session: new MemoryStorage(),
      local: first.local,
      cookies: restartedCookies,
    });
    expect(await restarted.getRefreshToken()).toBe('shared-refresh-token');
    expect(await restarted.getAccessToken()).toBeNull();
    // The refresh cookie alone, without its secret, reads as nothing.
    const leaked = new MemoryCookieJar();
    leaked.set(secureStorageKeys.refreshToken, first.cookies.get(secureStorageKeys.refreshToken) ?? '');
    expect(
      await createSecureStorage({
        session: new MemoryStorage(),
        local: first.local,
        cookies: leaked,
      }).getRefreshToken(),
    ).toBeNull();
    expect(first.session.getItem(TAB_SECRET_KEY)).toMatch(/^[0-9a-f]{32}$/);
    expect(first.cookies.get(COOKIE_SECRET_KEY)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a second tab of the same browser session reads the refresh cookie but not the first tab’s access token', async () => {
    const first = tab();
    await first.secure.setAccessToken('tab-token');
    await first.secure.setRefreshToken('shared-refresh-token');
    const second = createSecureStorage({
      session: new MemoryStorage(),
      local: new MemoryStorage(),
      cookies: first.cookies,
    });
    expect(await second.getRefreshToken()).toBe('shared-refresh-token');
    expect(await second.getAccessToken()).toBeNull();
  });

  it('cleanup: every stored item whose name starts with secure_ is removed, others stay', async () => {
    const { secure, session, local, cookies } = tab();
    await secure.setAccessToken('a.b.c');
    await secure.setRefreshToken('refresh');
    local.setItem('secure_leftover', 'x');
    local.setItem(localStorageKeys.hardwareId, 'machine');
    secure.clearAll();
    expect(session.length).toBe(0);
    expect(local.getItem('secure_leftover')).toBeNull();
    expect(local.getItem(localStorageKeys.hardwareId)).toBe('machine');
    expect(cookies.names()).toEqual([]);
  });
});

describe('One-time migrations', () => {
  const stores = () => {
    const made = tabServices('http://127.0.0.1:9/api/v1');
    return { ...made.services, cookies: made.tab.cookies };
  };

  it('encryption migration: an old key in session storage clears stored data and marks v2 done', async () => {
    const s = stores();
    await s.secure.setAccessToken('a.b.c');
    await s.secure.setRefreshToken('refresh');
    s.session.setItem('secure_encryption_key', 'old-raw-key');
    expect(migrateEncryption(s)).toBe(true);
    expect(await s.secure.getAccessToken()).toBeNull();
    expect(await s.secure.getRefreshToken()).toBeNull();
    expect(s.session.getItem('secure_encryption_key')).toBeNull();
    expect(s.local.getItem(migrationKeys.encryptionV2)).toBe('true');
    expect(migrateEncryption(s)).toBe(false);
  });

  it('encryption migration: a v1 flag without v2 triggers it and the v1 flag is removed', async () => {
    const s = stores();
    await s.secure.setAccessToken('a.b.c');
    s.local.setItem(migrationKeys.encryptionV1, 'true');
    expect(migrateEncryption(s)).toBe(true);
    expect(s.local.getItem(migrationKeys.encryptionV1)).toBeNull();
    expect(s.local.getItem(migrationKeys.encryptionV2)).toBe('true');
    expect(await s.secure.getAccessToken()).toBeNull();
  });

  it('encryption migration: current data is left alone', async () => {
    const s = stores();
    await s.secure.setAccessToken('a.b.c');
    expect(migrateEncryption(s)).toBe(false);
    expect(await s.secure.getAccessToken()).toBe('a.b.c');
  });

  it('security migration: legacy plain tokens are wiped once, login is required, completion is marked', async () => {
    const s = stores();
    s.local.setItem(localStorageKeys.accessToken, 'plain.access.token');
    s.local.setItem(localStorageKeys.userData, '{"id":"u1"}');
    s.local.setItem(localStorageKeys.refreshToken, 'plain-refresh');
    await s.secure.setRefreshToken('encrypted-refresh');
    expect(await runStorageMigrations(s)).toEqual({ requiresLogin: true });
    expect(s.local.getItem(localStorageKeys.accessToken)).toBeNull();
    expect(s.local.getItem(localStorageKeys.userData)).toBeNull();
    expect(s.local.getItem(localStorageKeys.refreshToken)).toBeNull();
    expect(await s.secure.getRefreshToken()).toBeNull();
    expect(s.local.getItem(migrationKeys.securityCompleted)).not.toBeNull();
    // One-time: a second run finds it done.
    s.local.setItem(localStorageKeys.accessToken, 'again');
    expect(await migrateSecurity(s)).toBe(false);
  });

  it('security migration: a clean install needs no login and is marked complete', async () => {
    const s = stores();
    expect(await runStorageMigrations(s)).toEqual({ requiresLogin: false });
    expect(s.local.getItem(migrationKeys.securityCompleted)).not.toBeNull();
  });
});
