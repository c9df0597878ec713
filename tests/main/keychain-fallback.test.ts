import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SafeStorageLike } from '../../src/main/encrypted-file-store.js';
import { loadKeytar, openSecretStore } from '../../src/main/keychain.js';
import { keyringMissingReason, type KeyringSession, startKeyringSession } from './support/keyring-session.js';

const SERVICE = 'Desktop AI Assistant';
const ACCOUNT = 'https://portal.example.com';

/**
 * A fake of Electron's safeStorage (Electron cannot run here): reversible "encryption" with a
 * marker, and the Linux backend it reports.
 */
function fakeSafeStorage(backend: string, available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (text) => Buffer.from(`sealed:${Buffer.from(text).toString('hex')}`),
    decryptString: (sealed) => {
      const text = sealed.toString();
      if (!text.startsWith('sealed:')) throw new Error('not sealed by this fake');
      return Buffer.from(text.slice('sealed:'.length), 'hex').toString();
    },
  };
}

const describeWithBus = keyringMissingReason ? describe.skip : describe;

// This file runs in its own process: keytar meets a session bus on which no Secret Service runs,
// which is a Linux desktop without a keyring (reads answer null, writes fail).
describeWithBus(
  `refresh-token storage without a usable keychain (real keytar, D-Bus without a Secret Service, fake safeStorage)${keyringMissingReason ? ` [skipped: ${keyringMissingReason}]` : ''}`,
  () => {
    let bus: KeyringSession;
    let dir: string;
    const logs: string[] = [];
    const log = (message: string) => logs.push(message);

    beforeAll(async () => {
      bus = await startKeyringSession({ withKeyring: false });
      dir = await mkdtemp(join(tmpdir(), 'keychain-fallback-'));
    });
    afterAll(async () => {
      await bus?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('keytar itself loads, but cannot keep a secret here', async () => {
      const keytar = await loadKeytar();
      expect(await keytar.getPassword(SERVICE, ACCOUNT)).toBeNull();
      await expect(keytar.setPassword(SERVICE, ACCOUNT, 'secret')).rejects.toThrow();
    });

    it('falls back to a safeStorage-encrypted file when safeStorage has a real keyring backend', async () => {
      logs.length = 0;
      const file = join(dir, 'refresh-token.json');
      const store = await openSecretStore({
        service: SERVICE,
        safeStorage: fakeSafeStorage('kwallet5'),
        platform: 'linux',
        fallbackFile: file,
        log,
      });
      expect(store.kind).toBe('encrypted-file');
      expect(logs.join('\n')).toMatch(/OS keychain is not usable .*safeStorage/);

      await store.set(ACCOUNT, 'refresh-token-value');
      expect(await store.get(ACCOUNT)).toBe('refresh-token-value');
      const onDisk = await readFile(file, 'utf8');
      expect(onDisk).not.toContain('refresh-token-value');
      expect(JSON.parse(onDisk)).toMatchObject({ version: 1, secrets: { [ACCOUNT]: expect.any(String) } });
      expect(await store.get('https://another-server.example.com')).toBeNull();

      await store.delete(ACCOUNT);
      expect(await store.get(ACCOUNT)).toBeNull();
      expect(await readFile(file, 'utf8')).not.toContain(ACCOUNT);
    });

    it.each([
      {
        reason: 'the basic_text backend (Linux without a keyring)',
        safeStorage: fakeSafeStorage('basic_text'),
      },
      { reason: 'an undetermined backend', safeStorage: fakeSafeStorage('unknown') },
      { reason: 'encryption that is not available', safeStorage: fakeSafeStorage('gnome_libsecret', false) },
      { reason: 'no safeStorage at all', safeStorage: undefined },
    ])(
      'keeps the token in memory only with $reason, and logs that sign-in will not persist',
      async ({ safeStorage }) => {
        logs.length = 0;
        const file = join(dir, `never-written-${Math.random()}.json`);
        const store = await openSecretStore({
          service: SERVICE,
          safeStorage,
          platform: 'linux',
          fallbackFile: file,
          log,
        });
        expect(store.kind).toBe('memory');
        expect(logs.join('\n')).toContain('memory only, sign-in will not persist');
        await store.set(ACCOUNT, 'in-memory-token');
        expect(await store.get(ACCOUNT)).toBe('in-memory-token');
        await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
        await store.delete(ACCOUNT);
        expect(await store.get(ACCOUNT)).toBeNull();
      },
    );

    it('when keytar cannot even load (the optional dependency was not built) the same fallback applies', async () => {
      logs.length = 0;
      const store = await openSecretStore({
        service: SERVICE,
        loadKeytar: () => Promise.reject(new Error("Cannot find module 'keytar'")),
        safeStorage: fakeSafeStorage('gnome_libsecret'),
        platform: 'linux',
        fallbackFile: join(dir, 'after-missing-keytar.json'),
        log,
      });
      expect(store.kind).toBe('encrypted-file');
      expect(logs.join('\n')).toContain("Cannot find module 'keytar'");
    });

    it('on Windows and macOS safeStorage has no basic_text backend: the encrypted file is used', async () => {
      const store = await openSecretStore({
        service: SERVICE,
        loadKeytar: () => Promise.reject(new Error('keytar not built')),
        safeStorage: { ...fakeSafeStorage('basic_text'), getSelectedStorageBackend: undefined },
        platform: 'win32',
        fallbackFile: join(dir, 'windows.json'),
      });
      expect(store.kind).toBe('encrypted-file');
    });
  },
);
