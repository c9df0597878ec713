import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/main/desktop-config.js';
import { REPO_ROOT } from '../e2e/support/build.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: string[];
  electronFuses?: Record<string, boolean>;
  publish?: { provider?: string };
  linux?: { target?: string[]; icon?: string };
  win?: { target?: string; icon?: string };
  mac?: { target?: string[]; icon?: string };
}

// electron-builder's own loader and schema check (the same `npm run dist` runs first).
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string, options: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

describe('electron-vite build of main, preload and renderer', () => {
  let outDir: string;
  let main: string;
  let preload: string;

  beforeAll(async () => {
    // Into a directory of its own: out/ is shared with the browser suites running beside this one.
    outDir = await mkdtemp(join(tmpdir(), 'desktop-build-'));
    await run(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules/electron-vite/bin/electron-vite.js'),
        'build',
        '--outDir',
        outDir,
        '--logLevel',
        'warn',
      ],
      { cwd: REPO_ROOT, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
    );
    main = await readFile(join(outDir, 'main/index.js'), 'utf8');
    preload = await readFile(join(outDir, 'preload/index.cjs'), 'utf8');
  }, 300_000);
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  it('writes the main, preload and renderer entry files', async () => {
    for (const file of ['main/index.js', 'preload/index.cjs', 'renderer/index.html'])
      expect(existsSync(join(outDir, file)), file).toBe(true);
    const packageJson = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      main: string;
    };
    expect(packageJson.main).toBe('out/main/index.js');
  });

  it('main loads the preload it was built with, and keeps only keytar and node-machine-id outside the bundle', () => {
    expect(main).toContain('../preload/index.cjs');
    const imports = [...main.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(imports.filter((name) => !name?.startsWith('node:')).sort()).toEqual([
      'electron',
      'node-machine-id',
    ]);
    expect(main).toContain('"keytar"');
    // CommonJS bundled in (electron-updater and its js-yaml, semver…) requires Node's own modules only.
    const required = [...main.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1] ?? '');
    expect(required.filter((name) => !isBuiltin(name) && name !== 'electron' && name !== 'keytar')).toEqual(
      [],
    );
  });

  it('the preload is one CommonJS file for the sandbox: requires only electron, exposes window.desktop', () => {
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1])).toEqual(['electron']);
    expect(preload).not.toMatch(/^import /m);
    expect(preload).toContain('exposeInMainWorld("desktop"');
    // zod stays in main: the preload only needs the channel names.
    expect(preload).not.toContain('ZodError');
  });

  it('the renderer uses absolute asset paths, so deep links under app:// find /assets', async () => {
    const html = await readFile(join(outDir, 'renderer/index.html'), 'utf8');
    expect(html).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
  });
});

describe('electron-builder.yml', () => {
  let config: BuilderConfig;
  beforeAll(async () => {
    config = await getConfig(REPO_ROOT, join(REPO_ROOT, 'electron-builder.yml'), null);
  });

  it('passes electron-builder’s own schema check', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the product as main does, and targets AppImage + deb, NSIS and DMG (+ the zip macOS updates from) with icons that exist', () => {
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(config.appId).toBe('com.desktopaiassistant.portal');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toBe('nsis');
    expect(config.mac?.target).toEqual(['dmg', 'zip']);
    for (const icon of [config.linux?.icon, config.win?.icon, config.mac?.icon])
      expect(existsSync(join(REPO_ROOT, icon ?? 'missing')), icon).toBe(true);
  });

  it('has a generic publish entry, so the build carries the app-update.yml electron-updater reads', () => {
    expect(config.publish).toMatchObject({ provider: 'generic' });
  });

  it('sets the fuses: no run-as-node, no NODE_OPTIONS, no inspect flags, asar integrity, app only from asar', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});
