import { z } from 'zod';
import { readJsonFile, writeJsonFile } from './json-file.js';
import type { SecretStore } from './secret-store.js';

/** The part of Electron's `safeStorage` this store uses (injected: tests run without Electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which keyring backs the encryption; 'basic_text' means none (a fixed key). */
  getSelectedStorageBackend?(): string;
}

const fileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) });
type SecretsFile = z.infer<typeof fileSchema>;

/**
 * Secrets encrypted with `safeStorage` (DPAPI, the macOS Keychain key, or the Linux keyring's key)
 * in one JSON file, per account. A file that cannot be read or decrypted counts as empty.
 */
export function createEncryptedFileStore(safeStorage: SafeStorageLike, path: string): SecretStore {
  const load = async (): Promise<SecretsFile> => {
    const parsed = fileSchema.safeParse(await readJsonFile(path));
    return parsed.success ? parsed.data : { version: 1, secrets: {} };
  };
  return {
    kind: 'encrypted-file',
    async get(account) {
      const sealed = (await load()).secrets[account];
      if (!sealed) return null;
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        return null;
      }
    },
    async set(account, secret) {
      const file = await load();
      file.secrets[account] = safeStorage.encryptString(secret).toString('base64');
      await writeJsonFile(path, file);
    },
    async delete(account) {
      const file = await load();
      if (!(account in file.secrets)) return;
      delete file.secrets[account];
      await writeJsonFile(path, file);
    },
  };
}
