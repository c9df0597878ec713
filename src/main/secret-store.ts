import type { TokenStorageKind } from '../shared/bridge.js';

/** Where the desktop keeps a secret (the refresh token) per account (the server URL). */
export interface SecretStore {
  readonly kind: TokenStorageKind;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<void>;
}

/** The last resort: secrets live as long as the process, so sign-in does not survive a restart. */
export function createMemorySecretStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    kind: 'memory',
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => {
      secrets.set(account, secret);
    },
    delete: async (account) => {
      secrets.delete(account);
    },
  };
}
