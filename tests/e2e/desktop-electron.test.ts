import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyringMissingReason,
  type KeyringSession,
  startKeyringSession,
} from '../main/support/keyring-session.js';
import { type LicensingServer, startLicensingServer } from '../main/support/licensing-server.js';
import { REPO_ROOT } from './support/build.js';

const run = promisify(execFile);

/** The Electron binary: the `electron` package exports its path, and throws when it was never downloaded. */
function electronBinary(): { path: string } | { missing: string } {
  const dist = join(REPO_ROOT, 'node_modules/electron/dist');
  try {
    const path = createRequire(import.meta.url)('electron') as unknown as string;
    if (!existsSync(path)) return { missing: `the Electron binary ${path} is missing` };
    return { path };
  } catch (error) {
    return {
      missing: `the Electron binary is not installed (${dist} is absent: ${(error as Error).message}); install it with node node_modules/electron/install.js`,
    };
  }
}

const electron = electronBinary();
const needsDisplay = !process.env['DISPLAY'];
const skipReason =
  'missing' in electron
    ? electron.missing
    : keyringMissingReason
      ? keyringMissingReason
      : needsDisplay && !existsSync('/usr/bin/Xvfb')
        ? 'no DISPLAY and no /usr/bin/Xvfb to provide one'
        : undefined;

/** A virtual X display for a headless machine; stopped after the suite. */
async function startXvfb(): Promise<{ display: string; stop(): Promise<void> }> {
  const display = `:${90 + (process.pid % 100)}`;
  const xvfb: ChildProcess = spawn(
    '/usr/bin/Xvfb',
    [display, '-screen', '0', '1280x900x24', '-nolisten', 'tcp'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  while (!existsSync(`/tmp/.X11-unix/X${display.slice(1)}`)) {
    if (xvfb.exitCode !== null) throw new Error(`Xvfb ${display} exited (${xvfb.exitCode})`);
    if (Date.now() > deadline) throw new Error(`Xvfb ${display} did not start`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    display,
    stop: async () => {
      const exited = new Promise((done) => xvfb.once('exit', done));
      xvfb.kill('SIGTERM');
      await exited;
    },
  };
}

if (skipReason)
  describe.skip(`the real Electron app [skipped: ${skipReason}]`, () => {
    it('launches the app and checks its window, bridge and navigation guard', () => undefined);
  });
else
  describe('the real Electron app, launched with Playwright’s Electron support', { timeout: 120_000 }, () => {
    let server: LicensingServer;
    let keyring: KeyringSession;
    let xvfb: Awaited<ReturnType<typeof startXvfb>> | undefined;
    let dir: string;
    let app: ElectronApplication;
    let page: Page;
    /** What main printed (its decisions are logged with a [desktop] prefix). */
    const mainLog: string[] = [];

    beforeAll(async () => {
      // Built inside the repository (so main finds keytar and node-machine-id in node_modules), apart from out/.
      const outDir = join(REPO_ROOT, 'node_modules/.cache/desktop-electron-test/out');
      await run(
        process.execPath,
        [join(REPO_ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', outDir],
        {
          cwd: REPO_ROOT,
          timeout: 240_000,
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      keyring = await startKeyringSession();
      server = await startLicensingServer();
      xvfb = needsDisplay ? await startXvfb() : undefined;
      dir = await mkdtemp(join(tmpdir(), 'desktop-electron-'));
      app = await _electron.launch({
        executablePath: (electron as { path: string }).path,
        args: [
          join(outDir, 'main/index.js'),
          `--user-data-dir=${dir}`,
          // Chromium refuses to start as root with its OS sandbox (CI containers run as root).
          ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        ],
        env: {
          ...process.env,
          DESKTOP_SERVER_URL: server.baseUrl,
          DBUS_SESSION_BUS_ADDRESS: keyring.address,
          ...(xvfb ? { DISPLAY: xvfb.display } : {}),
        } as Record<string, string>,
      });
      app.process().stdout?.on('data', (chunk: Buffer) => mainLog.push(chunk.toString()));
      page = await app.firstWindow();
      await page.waitForLoadState('domcontentloaded');
    }, 300_000);

    afterAll(async () => {
      await app?.close();
      await xvfb?.stop();
      await server?.close();
      await keyring?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('loads the portal from app://portal with the product name', async () => {
      expect(new URL(page.url()).protocol).toBe('app:');
      expect(new URL(page.url()).host).toBe('portal');
      expect(await app.evaluate(({ app: electronApp }) => electronApp.isReady())).toBe(true);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    });

    it('the page has window.desktop and nothing of Node or Electron', async () => {
      const globals = await page.evaluate(`({
        desktop: Object.keys(window.desktop ?? {}).sort(),
        require: typeof window.require,
        process: typeof window.process,
        ipcRenderer: typeof window.ipcRenderer,
      })`);
      expect(globals).toEqual({
        desktop: [
          'checkLicenseStatus',
          'forgetSession',
          'getAppInfo',
          'getHardwareId',
          'getLicenseKey',
          'hasSession',
          'setLicenseKey',
        ],
        require: 'undefined',
        process: 'undefined',
        ipcRenderer: 'undefined',
      });
    });

    it('the bridge answers from main: hardware id, app info, not-configured status', async () => {
      const answers = await page.evaluate<{ id: string; info: unknown; status: unknown }>(`(async () => ({
        id: await window.desktop.getHardwareId(),
        info: await window.desktop.getAppInfo(),
        status: await window.desktop.checkLicenseStatus(),
      }))()`);
      expect(answers.id).toMatch(/^[0-9a-f]{64}$/);
      expect(answers.info).toMatchObject({ serverUrl: server.baseUrl, tokenStorage: 'os-keychain' });
      expect(answers.status).toMatchObject({ status: 'not_configured' });
    });

    it('API calls go through app:// to the configured server', async () => {
      const status = await page.evaluate<number>(
        `fetch('/api/v1/licensing/public-key').then((response) => response.status)`,
      );
      expect(status).toBe(200);
    });

    it('navigation to another site is refused: the window stays on the app', async () => {
      await page.evaluate(`window.location.href = 'https://example.com/'`);
      // Main logs the refusal once its will-navigate guard has run; then the URL is known to stay.
      await expect.poll(() => mainLog.join('')).toContain('[desktop] Blocked a link to https://example.com/');
      expect(new URL(page.url()).host).toBe('portal');
    });
  });
