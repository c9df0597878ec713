import { createRequire } from 'node:module';
import { createEncryptedFileStore, type SafeStorageLike } from './encrypted-file-store.js';
import { createMemorySecretStore, type SecretStore } from './secret-store.js';

/** The part of keytar used here (injected: keytar is optional and may not load). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** keytar is an optionalDependency: on a machine that could not build it, this throws. */
export const loadKeytar = async (): Promise<KeytarLike> =>
  createRequire(import.meta.url)('keytar') as KeytarLike;

export interface OpenSecretStoreOptions {
  /** Keychain service name: the product name. */
  service: string;
  loadKeytar?: () => Promise<KeytarLike>;
  /** Electron's safeStorage, once the app is ready; absent, the fallback is memory. */
  safeStorage?: SafeStorageLike | undefined;
  /** Node's `process.platform`: the 'basic_text' backend only exists on Linux. */
  platform?: NodeJS.Platform;
  /** Where the safeStorage fallback keeps its encrypted file. */
  fallbackFile: string;
  log?: (message: string) => void;
}

// Reading an entry that is not there succeeds even without a Secret Service on Linux (it answers
// null), so only a write and a read back show that the keychain really keeps secrets.
const PROBE_ACCOUNT = 'keychain-probe';

async function probeKeychain(keytar: KeytarLike, service: string): Promise<void> {
  const marker = `probe-${process.pid}-${Date.now()}`;
  await keytar.setPassword(service, PROBE_ACCOUNT, marker);
  const readBack = await keytar.getPassword(service, PROBE_ACCOUNT);
  await keytar.deletePassword(service, PROBE_ACCOUNT);
  if (readBack !== marker) throw new Error('the keychain did not return what was just stored');
}

function keytarStore(keytar: KeytarLike, service: string): SecretStore {
  return {
    kind: 'os-keychain',
    get: (account) => keytar.getPassword(service, account),
    set: (account, secret) => keytar.setPassword(service, account, secret),
    async delete(account) {
      await keytar.deletePassword(service, account);
    },
  };
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Why safeStorage cannot protect a secret here, or undefined when it can. */
function safeStorageProblem(safeStorage: SafeStorageLike | undefined, platform: NodeJS.Platform) {
  if (!safeStorage) return 'Electron safeStorage is not available';
  if (!safeStorage.isEncryptionAvailable()) return 'safeStorage encryption is not available';
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    // basic_text encrypts with a key written in Chromium's source: no protection at all.
    if (backend === 'basic_text' || backend === 'unknown')
      return `safeStorage has no keyring to use (backend ${backend})`;
  }
  return undefined;
}

/**
 * The refresh-token store, kept in main so no page script can read the token: the OS keychain
 * through keytar; where keytar cannot load or the keychain does not work, a safeStorage-encrypted
 * file; where safeStorage has no real key (Linux `basic_text`), memory only, so sign-in does not
 * persist and the renderer says so.
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<SecretStore> {
  const log = options.log ?? (() => undefined);
  const platform = options.platform ?? process.platform;
  let keychainProblem: string;
  try {
    const keytar = await (options.loadKeytar ?? loadKeytar)();
    await probeKeychain(keytar, options.service);
    log(`Refresh token storage: the OS keychain (service "${options.service}")`);
    return keytarStore(keytar, options.service);
  } catch (error) {
    keychainProblem = reasonOf(error);
  }
  const problem = safeStorageProblem(options.safeStorage, platform);
  if (!problem && options.safeStorage) {
    log(
      `Refresh token storage: the OS keychain is not usable (${keychainProblem}); using a file encrypted with safeStorage at ${options.fallbackFile}`,
    );
    return createEncryptedFileStore(options.safeStorage, options.fallbackFile);
  }
  log(
    `Refresh token storage: memory only, sign-in will not persist. The OS keychain is not usable (${keychainProblem}) and ${problem}`,
  );
  return createMemorySecretStore();
}
