import { createHash, randomBytes } from 'node:crypto';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../src/server/platform/db/database.js';
import { LEASE_KEYS_FILE } from '../../../src/server/licensing/leases/lease-signer.js';
import { runCli } from '../../support/run-cli.js';

// One test starts the CLI as a process of its own: seconds on a busy machine.
describe('CLI: publish-release and rotate-keys', { timeout: 90_000 }, () => {
  let dataDir = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-cli-licensing-'));
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publish-release copies the installer into RELEASES_DIR and records its size and SHA-256', async () => {
    const installer = join(dataDir, 'assistant-1.4.0.AppImage');
    const bytes = randomBytes(50_000);
    await writeFile(installer, bytes);
    // In a process of its own once, as an operator runs it; the others in this process.
    const result = await runCli(
      ['publish-release', '--platform', 'linux', '--version', '1.4.0', installer],
      env,
      { via: 'process' },
    );
    expect(result.code, result.stderr).toBe(0);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(result.stdout).toContain(sha256);

    const stored = await readFile(join(dataDir, 'releases', 'linux', '1.4.0', 'assistant-1.4.0.AppImage'));
    expect(stored.equals(bytes)).toBe(true);
    const { db } = createDatabase({ databaseUrl: undefined, dataDir });
    try {
      const rows = await db.selectFrom('releases').selectAll().execute();
      expect(rows).toEqual([
        expect.objectContaining({ platform: 'linux', version: '1.4.0', size_bytes: 50_000, sha256 }),
      ]);
    } finally {
      await db.destroy();
    }
  });

  it('publishing the same platform and version again is refused and leaves the published file untouched', async () => {
    const other = join(dataDir, 'assistant-1.4.0.AppImage');
    const before = await readFile(join(dataDir, 'releases', 'linux', '1.4.0', 'assistant-1.4.0.AppImage'));
    await writeFile(other, randomBytes(10));
    const result = await runCli(['publish-release', '--platform', 'linux', '--version', '1.4.0', other], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('linux 1.4.0 is already published');
    const after = await readFile(join(dataDir, 'releases', 'linux', '1.4.0', 'assistant-1.4.0.AppImage'));
    expect(after.equals(before)).toBe(true);
  });

  it('publish-release refuses an unknown platform, a missing file and a bad version with the usage text', async () => {
    const badPlatform = await runCli(
      ['publish-release', '--platform', 'beos', '--version', '1.0.0', 'x'],
      env,
    );
    expect(badPlatform.code).toBe(1);
    expect(badPlatform.stderr).toContain('--platform must be one of windows, macos, linux');
    const missing = await runCli(
      ['publish-release', '--platform', 'linux', '--version', '1.0.1', '/nope/file'],
      env,
    );
    expect(missing.stderr).toContain('No such file: /nope/file');
    const badVersion = await runCli(
      ['publish-release', '--platform', 'linux', '--version', '../../etc', 'x'],
      env,
    );
    expect(badVersion.stderr).toContain('--version must look like 1.2.3');
  });

  it('rotate-keys makes a new key active and keeps the previous one for verification', async () => {
    const first = await runCli(['rotate-keys'], env);
    expect(first.code, first.stderr).toBe(0);
    const file = JSON.parse(await readFile(join(dataDir, 'keys', LEASE_KEYS_FILE), 'utf8')) as {
      active: string;
      keys: { kid: string }[];
    };
    expect(file.keys).toHaveLength(2);
    expect(file.keys.map((key) => key.kid)).toContain(file.active);
    expect(first.stdout).toContain(file.active);

    const refused = await runCli(['rotate-keys'], { ...env, LEASE_SIGNING_KEY: '{"kty":"OKP"}' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('LEASE_SIGNING_KEY is set');
  });
});
