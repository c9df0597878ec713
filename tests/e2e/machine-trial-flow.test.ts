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
import type { LicenseCheckResult, MachineTrialStartResult } from '../../src/shared/bridge.js';
import { RENDERER_BUILD_DIR } from './support/build.js';
import { desktopMainFor } from './support/desktop-main.js';
import { installDesktopBridge, routeApiThroughAppProtocol } from './support/desktop-bridge.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { accessToken, callApiOk, planByCode } from './support/seed.js';

/**
 * Issue 29's point 2 in Chromium, from the desktop app's window (the real window.desktop on main's
 * real handlers, the API through main's app:// forwarding, which tells main of sign-ins): the app
 * starts a machine trial before any account; an account that cannot take it over (it had its own
 * trial) leaves it running, and the This-machine card says so; a new account signing in on the
 * machine takes it over, with the same end, without another step.
 */

const TRIAL_DAYS = 14;
const MACHINE_ID = 'e2e-machine-trial-7d21c9a04b3e4f58';
const HARDWARE_ID = deriveHardwareId(MACHINE_ID);
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

describePortal('a machine trial in Chromium: started before any account, taken over on sign-in', (portal) => {
  const db = () => portal.server.app.db;
  let dir: string;
  let dispatch: BridgeDispatch;
  const secrets = createMemorySecretStore();
  const signIns = createSignIns((message) => console.info(`[e2e desktop] ${message}`));
  let planId: string;

  beforeAll(async () => {
    const { server } = portal;
    const admin = await accessToken(server, server.admin);
    const pro = await planByCode(server, 'pro-monthly');
    planId = pro.id;
    await callApiOk(server, {
      method: 'PUT',
      path: `/plans/${pro.id}`,
      token: admin,
      body: { trial_days: TRIAL_DAYS },
    });
    dir = await mkdtemp(join(tmpdir(), 'machine-trial-e2e-'));
    dispatch = await desktopMainFor(server, { dir, secrets, machineId: MACHINE_ID, signIns });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function desktopPage(): Promise<Page> {
    const context = await portal.newContext({ viewport: VIEWPORTS[0], reducedMotion: 'reduce' });
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

  const machineCheck = (page: Page) =>
    page.evaluate<LicenseCheckResult>('window.desktop.checkLicenseStatus()');

  it('the app tries Pro before any account; the card says the days left; a new account takes the trial over', async () => {
    const { server } = portal;
    server.clock.freeze();
    const page = await desktopPage();
    await page.goto('/');
    const tried = await page.evaluate<MachineTrialStartResult>(
      'window.desktop.startMachineTrial("pro-monthly")',
    );
    expect(tried).toMatchObject({ started: true, trial: { plan: { id: planId }, days_left: TRIAL_DAYS } });
    expect(await machineCheck(page)).toMatchObject({
      valid: true,
      machine_trial: true,
      trial: { days_left: TRIAL_DAYS },
    });

    // Ola had her own trial of Pro on the web: signing in here cannot take the machine's over.
    const ola = await server.createUser({ fullName: 'Ola Earlier' });
    await callApiOk(server, {
      method: 'POST',
      path: '/licenses/trials',
      token: await accessToken(server, ola),
      body: { plan_id: planId },
    });
    await signIn(page, ola.email, ola.password);
    await page.goto('/licenses');
    const machine = page.getByRole('region', { name: 'This machine' });
    const line = machine.getByTestId('machine-license');
    await line.filter({ hasText: 'Trial: 14 days left — create an account to keep it.' }).waitFor();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const scheme of ['light', 'dark'] as const) {
        await showScheme(page, scheme);
        await photograph(page, `machine-trial-card-${viewport.width}-${scheme}`, {
          scheme,
          target: machine,
          shows: [line],
          accessible: 'decided',
        });
      }
    }
    const [unclaimed] = await db()
      .selectFrom('machine_trials')
      .selectAll()
      .where('hardware_id', '=', HARDWARE_ID)
      .execute();
    expect(unclaimed?.claimed_license_id).toBeNull();

    // Ola leaves (main forgets her session); Nia is new: signing in on this machine makes the
    // machine's trial hers, with its end.
    await page.evaluate('window.desktop.forgetSession()');
    await page.context().close();
    const nia = await server.createUser({ fullName: 'Nia New' });
    const second = await desktopPage();
    await signIn(second, nia.email, nia.password);
    const [claimed] = await db()
      .selectFrom('machine_trials')
      .selectAll()
      .where('hardware_id', '=', HARDWARE_ID)
      .execute();
    expect(claimed?.claimed_license_id).not.toBeNull();
    const license = await db()
      .selectFrom('licenses')
      .selectAll()
      .where('id', '=', claimed?.claimed_license_id ?? '')
      .executeTakeFirstOrThrow();
    expect(license.trial_ends_at).toBe(tried.trial?.ends_at);
    expect(await machineCheck(second)).toMatchObject({
      valid: true,
      license_id: license.id,
      trial: { ends_at: tried.trial?.ends_at, days_left: TRIAL_DAYS },
    });
    await second.goto('/licenses');
    await second
      .getByRole('region', { name: 'This machine' })
      .getByTestId('license-status-message')
      .filter({ hasText: 'Free trial: 14 days left' })
      .waitFor();
    server.clock.resume();
  });
});
