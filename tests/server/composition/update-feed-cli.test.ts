import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../src/server/platform/db/database.js';
import { runCli } from '../../support/run-cli.js';

describe('CLI: publish-release for updates (channel, rollout, notes)', { timeout: 60_000 }, () => {
  let dataDir = '';
  let env: Record<string, string> = {};
  let installer = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-cli-updates-'));
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    installer = join(dataDir, 'Assistant-2.0.0-beta.1.AppImage');
    await writeFile(installer, randomBytes(30_000));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const publish = (...options: string[]) =>
    runCli(['publish-release', '--platform', 'linux', ...options, installer], env);

  it('records the channel, the rollout, the notes from a file and the SHA-512 electron-updater checks', async () => {
    const notes = join(dataDir, 'CHANGES.md');
    await writeFile(notes, '# 2.0.0-beta.1\n\n- The new editor.\n');
    const result = await publish(
      '--version',
      '2.0.0-beta.1',
      '--channel',
      'beta',
      '--rollout',
      '25',
      '--notes-file',
      notes,
    );
    expect(result.code, result.stderr).toBe(0);
    const sha512 = createHash('sha512')
      .update(await readFile(installer))
      .digest('base64');
    expect(result.stdout).toContain(`SHA-512 ${sha512}`);
    expect(result.stdout).toContain('(beta, rollout 25 %)');
    const { db } = createDatabase({ databaseUrl: undefined, dataDir });
    try {
      const row = await db.selectFrom('releases').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        version: '2.0.0-beta.1',
        channel: 'beta',
        rollout_percent: 25,
        release_notes: '# 2.0.0-beta.1\n\n- The new editor.',
        sha512,
        paused_at: null,
        yanked_at: null,
      });
    } finally {
      await db.destroy();
    }
  });

  it.each([
    [['--version', '1.2'], '--version must look like 1.2.3'],
    [['--version', '3.0.0', '--channel', 'nightly'], '--channel must be one of stable, beta'],
    [['--version', '3.0.0', '--rollout', '101'], '--rollout must be a whole percentage from 0 to 100'],
    [['--version', '3.0.0', '--rollout', 'ten'], '--rollout must be a whole percentage from 0 to 100'],
    // Taken for an option by Node's argument parser, which refuses it as ambiguous.
    [['--version', '3.0.0', '--rollout', '-5'], "Option '--rollout' argument is ambiguous"],
    [['--version', '3.0.0', '--notes', 'a', '--notes-file', 'b'], 'give --notes or --notes-file, not both'],
    [['--version', '3.0.0', '--notes-file', '/nope/notes.md'], 'No such file: /nope/notes.md'],
    [['--version', '3.0.0', '--notes', 'x'.repeat(10_001)], 'Release notes must be at most 10000 characters'],
  ])('refuses %j with the usage text, publishing nothing', async (options, says) => {
    const result = await publish(...options);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(says);
    const { db } = createDatabase({ databaseUrl: undefined, dataDir });
    try {
      expect(await db.selectFrom('releases').select('version').execute()).toEqual([
        { version: '2.0.0-beta.1' },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
