import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bridgeEvents } from '../../src/shared/bridge.js';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createHandlers } from '../../src/main/handlers.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import { FakeAppUpdater, updateInfo, updateServiceForTests } from '../main/support/fake-app-updater.js';
import { RENDERER_BUILD_DIR } from './support/build.js';
import {
  installDesktopBridge,
  routeApiThroughAppProtocol,
  sendToDesktopPages,
} from './support/desktop-bridge.js';
import { photograph } from './support/photograph.js';
import { describePortal, pathOf, signIn } from './support/portal.js';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const NOTES = 'Faster start.\nFixes the tray icon.';

/** Serious or critical axe-core findings in the App updates section, as readable lines. */
async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate<
    { id: string; impact: string | null; nodes: { target: unknown[] }[] }[]
  >(
    `axe.run(document.getElementById('app-updates'), { resultTypes: ['violations'] }).then((result) => result.violations)`,
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
}

describePortal(
  'desktop app updates in the real portal (Chromium), main’s update service on a fake AppUpdater (Electron cannot run here)',
  (portal) => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'desktop-updates-e2e-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('on a phone in dark mode: the header’s sign leads to the notes, and Restart to update is pressed by keyboard', async () => {
      const secrets = createMemorySecretStore();
      const updater = new FakeAppUpdater();
      const serverUrl = portal.server.baseUrl;
      const { service } = updateServiceForTests({
        serverUrl,
        licenseStatePath: join(dir, 'license-state.json'),
        settingsPath: join(dir, 'update-settings.json'),
        updater,
      });
      const dispatch = createBridgeDispatcher(
        createHandlers({
          secrets,
          serverUrl,
          apiKey: DESKTOP_API_KEY,
          requestTimeoutMs: 5000,
          licenseStatePath: join(dir, 'license-state.json'),
          leasePublicKeys: undefined,
          app: { version: '1.0.0', platform: 'linux' },
          updates: service,
        }),
      );
      // bypassCSP: axe is injected as a script tag, which the portal's CSP would (rightly) refuse.
      const context = await portal.newContext({
        viewport: { width: 390, height: 844 },
        colorScheme: 'dark',
        bypassCSP: true,
      });
      await installDesktopBridge(context, () => dispatch);
      await routeApiThroughAppProtocol(
        context,
        createAppProtocolHandler({
          rendererDir: RENDERER_BUILD_DIR,
          serverUrl,
          apiKey: DESKTOP_API_KEY,
          secrets,
        }),
      );
      // What index.ts does with every change of the state: send it to the app's window.
      service.onChange((state) => void sendToDesktopPages(context, bridgeEvents.updateStateChanged, state));
      const page = await context.newPage();
      const user = await portal.server.createUser();
      await signIn(page, user.email, user.password);
      await page.getByRole('button', { name: /Account menu for/ }).waitFor();

      // electron-updater finds 1.1.0 and downloads it in the background.
      updater.emit('update-available', updateInfo('1.1.0', NOTES));
      updater.progress(35);
      const sign = page.getByRole('link', { name: 'Downloading version 1.1.0: 35 %' });
      await sign.waitFor();
      updater.emit('update-downloaded', {
        ...updateInfo('1.1.0', NOTES),
        downloadedFile: '/tmp/update.AppImage',
      });
      const ready = page.getByRole('link', {
        name: 'Version 1.1.0 is ready: see what is new and restart to update',
      });
      await ready.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => pathOf(page)).toBe('/profile');

      const section = page.getByRole('region', { name: 'App updates' });
      await section.waitFor();
      expect(await section.getByTestId('release-notes').innerText()).toBe(NOTES);
      expect(
        await page.evaluate<string | null>(
          `document.documentElement.getAttribute('data-mantine-color-scheme')`,
        ),
      ).toBe('dark');
      // Nothing wider than the phone's screen.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(await seriousAxeViolations(page)).toEqual([]);
      // As arrived from the header's sign: the section's title clear of the fixed header.
      const header = await page.locator('header').first().boundingBox();
      const title = await section.getByRole('heading').first().boundingBox();
      expect(header && title, 'the header and the section title are laid out').toBeTruthy();
      expect(title!.y, 'the section title lies below the fixed header').toBeGreaterThanOrEqual(
        header!.y + header!.height - 0.5,
      );
      await photograph(page, 'desktop-updates-phone-dark', {
        scheme: 'dark',
        shows: [
          section.getByRole('heading').first(),
          section.getByRole('button', { name: 'Restart to update' }),
        ],
      });

      expect(updater.installs).toEqual([]);
      await section.getByRole('button', { name: 'Restart to update' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => updater.installs).toEqual([{ isSilent: false, isForceRunAfter: true }]);
    });
  },
);
