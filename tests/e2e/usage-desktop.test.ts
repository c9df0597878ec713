import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { deriveHardwareId } from '../../src/main/hardware-id.js';
import type { BridgeDispatch } from '../../src/main/ipc.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import { createSignIns } from '../../src/main/sign-ins.js';
import type { UsageLeft, UsageReportResult } from '../../src/shared/bridge.js';
import { createPlan, giveLicense } from '../server/helpers/license-helpers.js';
import type { TestServer } from '../support/test-server.js';
import { refusedUrl } from '../main/support/licensing-server.js';
import { RENDERER_BUILD_DIR } from './support/build.js';
import { desktopMainFor } from './support/desktop-main.js';
import { installDesktopBridge, routeApiThroughAppProtocol } from './support/desktop-bridge.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { accessToken, callApiOk } from './support/seed.js';
import { DEVICES } from './support/signed-in-pages.js';

/*
 * Issue 30, point 6's last part in Chromium: the desktop app's window (the real window.desktop on
 * main's real handlers, the API through main's app:// forwarding) shows on the Usage page what this
 * machine may still use. Online the server's numbers; main loses the server and the app uses part
 * of its lease's offline allowance, which the page shows with what waits to upload; back online the
 * next read uploads it and the server counts it once. The dashboard's machine tile says it in a line.
 */

const MACHINE_ID = 'e2e-usage-desktop-3b9f04c1a2d84e67';
const HARDWARE_ID = deriveHardwareId(MACHINE_ID);

describePortal(
  'issue 30: what this machine may still use, inside the desktop app',
  (portal) => {
    let dir: string;
    let dispatch: BridgeDispatch;
    /** Whether main reaches the server; the page's own API calls go through app:// all the same. */
    let reachable = true;
    const secrets = createMemorySecretStore();
    const signIns = createSignIns((message) => console.info(`[e2e desktop] ${message}`));

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'usage-desktop-e2e-'));
      const unreachable = await refusedUrl();
      dispatch = await desktopMainFor(portal.server, {
        dir,
        secrets,
        machineId: MACHINE_ID,
        signIns,
        fetch: (input, init) =>
          fetch(reachable ? input : input.replace(portal.server.baseUrl, unreachable), init),
      });
    });
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    async function desktopPage(options: (typeof DEVICES)[number]['options']): Promise<Page> {
      const context = await portal.newContext({ ...options, reducedMotion: 'reduce', locale: 'en-US' });
      await installDesktopBridge(context, () => dispatch);
      await routeApiThroughAppProtocol(
        context,
        createAppProtocolHandler({
          rendererDir: RENDERER_BUILD_DIR,
          serverUrl: portal.server.baseUrl,
          apiKey: DESKTOP_API_KEY,
          secrets,
          signIns,
        }),
      );
      return context.newPage();
    }

    const counted = async (licenseId: string) =>
      Number(
        (
          await portal.server.app.db
            .selectFrom('usage_counters')
            .select('total')
            .where('license_id', '=', licenseId)
            .executeTakeFirst()
        )?.total ?? 0,
      );

    it('online the server’s numbers; offline the lease’s allowance and what waits to upload; back online it is counted once', async () => {
      const { server } = portal;
      const credentials = await server.createUser({ fullName: 'Dev Desktop' });
      const user = await server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', credentials.email)
        .executeTakeFirstOrThrow();
      // The license helpers read only the app and the clock of a server.
      const s = { app: server.app, clock: server.clock } as unknown as TestServer;
      const plan = await createPlan(s, { interval: 'month', price: 49_900, features: { ai_chat: 100 } });
      const license = await giveLicense(s, user, plan);
      await callApiOk(server, {
        method: 'POST',
        path: '/licenses/activate',
        token: await accessToken(server, credentials),
        body: { license_key: license.license_key, hardware_id: HARDWARE_ID, device_name: 'Dev’s laptop' },
      });

      const page = await desktopPage(DEVICES[0].options);
      await signIn(page, credentials.email, credentials.password);
      await page.evaluate(`window.desktop.setLicenseKey(${JSON.stringify(license.license_key)})`);
      // The app's check at start: its lease, with the offline allowance.
      expect(await page.evaluate('window.desktop.checkLicenseStatus()')).toMatchObject({ valid: true });
      // The app uses 30 messages online: the server counts them at once.
      const used = await page.evaluate<UsageReportResult>('window.desktop.usage.report("ai_chat", 30)');
      expect(used).toMatchObject({ allowed: true, source: 'server' });
      expect(await counted(license.id)).toBe(30);

      await page.goto('/usage');
      const section = page.getByRole('region', { name: 'On this machine' });
      const feature = section.getByRole('article', { name: 'AI chat on this machine' });
      await section.getByText('Online: counted by the license server').waitFor();
      expect(await feature.getByTestId('machine-usage-left').innerText()).toBe('70 messages left');
      expect(await feature.getByTestId('machine-usage-queued').innerText()).toBe('Nothing waiting to upload');

      // Main loses the server: its lease reserved 10 % of the allowance for use offline; 4 are used.
      reachable = false;
      const away = await page.evaluate<UsageReportResult>('window.desktop.usage.report("ai_chat", 4)');
      expect(away, away.message).toMatchObject({ allowed: true, source: 'reservation', left: 6 });
      expect(await page.evaluate<UsageLeft>('window.desktop.usage.left()')).toMatchObject({
        source: 'reservation',
        features: [{ key: 'ai_chat', left: 6, queued: 4 }],
      });
      // "Check again", from the keyboard, shows it.
      await section.getByRole('button', { name: 'Check again' }).focus();
      await page.keyboard.press('Enter');
      await section.getByText('Offline: this machine’s allowance').waitFor();
      expect(await feature.getByTestId('machine-usage-left').innerText()).toBe('6 messages left');
      expect(await feature.getByTestId('machine-usage-queued').innerText()).toBe(
        '4 messages waiting to upload',
      );
      expect(await counted(license.id)).toBe(30);

      for (const device of DEVICES) {
        await page.setViewportSize(device.options.viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await page.mouse.move(0, 0);
          await photograph(page, `usage-desktop-offline-${device.name}-${scheme}`, {
            scheme,
            target: section,
            shows: [feature.getByTestId('machine-usage-queued')],
            accessible: true,
          });
        }
      }

      // Back online: reading what is left checks the license, which uploads the 4 first.
      reachable = true;
      await section.getByRole('button', { name: 'Check again' }).click();
      await section.getByText('Online: counted by the license server').waitFor();
      expect(await feature.getByTestId('machine-usage-left').innerText()).toBe('66 messages left');
      expect(await feature.getByTestId('machine-usage-queued').innerText()).toBe('Nothing waiting to upload');
      expect(await counted(license.id)).toBe(34);
      // Read again: nothing is sent twice.
      await section.getByRole('button', { name: 'Check again' }).click();
      await expect.poll(() => feature.getByTestId('machine-usage-left').innerText()).toBe('66 messages left');
      expect(await counted(license.id)).toBe(34);

      // The dashboard's machine tile says it in one line.
      await page.setViewportSize(DEVICES[0].options.viewport);
      await page.goto('/dashboard');
      const tile = page.getByRole('region', { name: 'This machine' });
      await tile
        .getByTestId('machine-usage-line')
        .filter({ hasText: 'AI chat: 66 messages left.' })
        .waitFor();
      await page.context().close();
    });
  },
  { timeout: 180_000 },
);
