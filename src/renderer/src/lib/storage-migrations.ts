import { SECURE_STORAGE_PREFIX, STORAGE_PREFIX } from '../../../shared/constants';
import { localStorageKeys } from '../../../shared/storage-keys';
import type { SecureStorage } from './secure-storage';
import type { TokenStore } from './token-store';

/** Flags and legacy names of the one-time storage migrations (kept in local storage). */
export const migrationKeys = {
  encryptionV1: `${STORAGE_PREFIX}_encryption_migration_v1`,
  encryptionV2: `${STORAGE_PREFIX}_encryption_migration_v2`,
  securityCompleted: `${STORAGE_PREFIX}_security_migration_completed`,
  /** Where the old scheme kept the encryption key itself, in session storage. */
  legacyEncryptionKeys: [
    `${SECURE_STORAGE_PREFIX}encryption_key`,
    `${STORAGE_PREFIX}_encryption_key`,
    'encryption_key',
  ],
  /** Plain tokens and user data of older versions. */
  legacySessionEntries: ['access_token', 'refresh_token', 'token', 'user_data'],
} as const;

interface MigrationStores {
  session: Storage;
  local: Storage;
  secure: SecureStorage;
  tokens: TokenStore;
}

/**
 * Encryption: data written under the old scheme (a key kept in session storage, or the
 * v1 flag without v2) cannot be trusted or read, so all of it goes and v2 is marked done.
 */
export function migrateEncryption({ session, local, secure }: MigrationStores): boolean {
  const oldKey = migrationKeys.legacyEncryptionKeys.some((key) => session.getItem(key) !== null);
  const v1Only =
    local.getItem(migrationKeys.encryptionV1) !== null && local.getItem(migrationKeys.encryptionV2) === null;
  if (!oldKey && !v1Only) return false;
  secure.clearAll();
  for (const key of migrationKeys.legacyEncryptionKeys) {
    session.removeItem(key);
    local.removeItem(key);
  }
  local.setItem(migrationKeys.encryptionV2, 'true');
  local.removeItem(migrationKeys.encryptionV1);
  return true;
}

/**
 * Security: plain tokens or user data left by older versions are wiped once, and the
 * user must sign in again.
 */
export async function migrateSecurity({ session, local, tokens }: MigrationStores): Promise<boolean> {
  if (local.getItem(migrationKeys.securityCompleted) !== null) return false;
  const legacyLocal = [
    localStorageKeys.accessToken,
    localStorageKeys.userData,
    ...migrationKeys.legacySessionEntries,
  ];
  const found =
    legacyLocal.some((key) => local.getItem(key) !== null) ||
    migrationKeys.legacySessionEntries.some((key) => session.getItem(key) !== null);
  if (found) {
    await tokens.clear();
    for (const key of legacyLocal) local.removeItem(key);
    for (const key of migrationKeys.legacySessionEntries) session.removeItem(key);
  }
  local.setItem(migrationKeys.securityCompleted, new Date().toISOString());
  return found;
}

/** Both migrations, in order; `requiresLogin` when stored sessions were wiped. */
export async function runStorageMigrations(stores: MigrationStores): Promise<{ requiresLogin: boolean }> {
  const encryption = migrateEncryption(stores);
  const security = await migrateSecurity(stores);
  return { requiresLogin: encryption || security };
}
