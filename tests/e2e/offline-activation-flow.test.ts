import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createLicenseStateFile } from '../../src/main/license-state.js';
import { createLicenseChecker } from '../../src/main/licensing.js';
import { createLicensingApi } from '../../src/main/licensing-api.js';
import { createOfflineActivation, withLicenseFile } from '../../src/main/offline-activation.js';
import { leaseSigningKeysSchema } from '../../src/shared/api/licenses.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { accessToken, callApiOk, planByCode } from './support/seed.js';

/**
 * Issue 19, "Must show", offline activation: the request file written by the app's real
 * main-process code (in Node, as tests/main runs it), uploaded by its owner through the real portal
 * in Chromium, the license file downloaded there and imported by the real main-process code, the
 * app's status answered from it with no network; then the signed-out proof uploaded the same way
 * and the seat freed.
 */
describePortal('offline activation by file, end to end', (portal) => {
  /** Chooses a file in the section's file input as a person does: the button opens the chooser. */
  async function chooseFile(page: Page, section: string, button: string, path: string) {
    const region = page.getByRole('region', { name: section });
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      region.getByRole('button', { name: new RegExp(button) }).click(),
    ]);
    await chooser.setFiles(path);
    return region;
  }

  it('activates an air-gapped machine from its request file, answers its status offline, and frees the seat from its proof', async () => {
    const server = portal.server;
    const owner = await server.createUser({ fullName: 'Lab Owner' });
    const { id: ownerId } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', owner.email)
      .executeTakeFirstOrThrow();
    const license = await callApiOk<{ license_id: string; license_key: string }>(server, {
      method: 'POST',
      path: '/admin/licenses',
      token: await accessToken(server, server.admin),
      body: { user_id: ownerId, plan_id: (await planByCode(server, 'pro-yearly')).id },
    });
    const activeSeats = () =>
      server.app.db
        .selectFrom('activations')
        .select(['hardware_id', 'device_name'])
        .where('license_id', '=', license.license_id)
        .where('deactivated_at', 'is', null)
        .execute();

    // The air-gapped machine: the app's main-process code with the server's keys pinned as a build
    // pins them, and a license server it cannot reach.
    const dir = await mkdtemp(join(tmpdir(), 'offline-e2e-'));
    const hardwareId = `hw-airgap-${randomBytes(6).toString('hex')}`;
    /** The machine's own clock, moved on without moving the portal's sessions. */
    let machineOffsetMs = 0;
    const machineNow = () => new Date(server.clock.now().getTime() + machineOffsetMs);
    const keys = leaseSigningKeysSchema.parse(await callApiOk(server, { path: '/licensing/public-key' }));
    const offline = createOfflineActivation({
      path: join(dir, 'offline-activation.json'),
      hardwareId: () => hardwareId,
      trustedKeys: keys,
      now: machineNow,
      app: { version: '1.4.2', platform: 'linux' },
      deviceName: () => 'Lab bench 3',
    });
    const state = createLicenseStateFile(join(dir, 'license-state.json'), 'http://127.0.0.1:9');
    const app = withLicenseFile(
      createLicenseChecker({
        api: createLicensingApi({
          serverUrl: 'http://127.0.0.1:9',
          apiKey: DESKTOP_API_KEY,
          timeoutMs: 2000,
        }),
        state,
        hardwareId: () => hardwareId,
        trustedKeys: keys,
        now: machineNow,
      }),
      offline,
    );
    const before = await app.check();
    expect(before).toMatchObject({ valid: false, status: 'not_configured' });

    const request = await offline.writeRequest(license.license_key);
    expect(request.fileName).toBe('Lab-bench-3.activation-request.json');
    const requestPath = join(dir, request.fileName);
    await writeFile(requestPath, request.contents);

    // The owner, on another device, uploads it in the portal and downloads the license file.
    const page = await portal.newPage({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    await signIn(page, owner.email, owner.password);
    await page.getByRole('link', { name: 'Offline activation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Offline activation' }).waitFor();
    const activateSection = await chooseFile(
      page,
      'Activate a machine',
      'Activation request file',
      requestPath,
    );
    const done = activateSection.getByRole('status');
    await done.waitFor();
    expect(await done.textContent()).toContain('Lab bench 3 can work offline until');
    expect(await activeSeats()).toEqual([{ hardware_id: hardwareId, device_name: 'Lab bench 3' }]);
    await photograph(page, 'offline-activation-license-file', {
      fullPage: true,
      shows: [done, done.getByRole('button', { name: 'Download license file' })],
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      done.getByRole('button', { name: 'Download license file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Lab-bench-3.license.json');
    const licenseFile = await readFile((await download.path()) as string, 'utf8');

    // Back on the machine: the license file is imported and the status is answered from it offline.
    const imported = await offline.importLicenseFile(licenseFile);
    expect(imported).toMatchObject({ ok: true });
    const status = await app.check();
    expect(status).toMatchObject({
      valid: true,
      status: 'active',
      license_id: license.license_id,
      requires_activation: false,
    });
    expect(status.offline?.grace_remaining_seconds).toBeGreaterThan(300 * 86_400);
    // A month on, still without network, the file still answers.
    machineOffsetMs = 30 * 86_400_000;
    expect(await app.check()).toMatchObject({ valid: true, status: 'active' });

    // Signing out by file: the machine forgets the license and writes the proof.
    const proof = await offline.signOut();
    expect(proof?.fileName).toBe('Lab-bench-3.signed-out.json');
    const proofPath = join(dir, proof?.fileName ?? 'proof.json');
    await writeFile(proofPath, proof?.contents ?? '');
    expect(await app.check()).toMatchObject({ valid: false, status: 'not_configured' });
    expect(await offline.importLicenseFile(licenseFile)).toMatchObject({ ok: false, problem: 'signed_out' });

    const signOutSection = await chooseFile(
      page,
      'Give a machine’s seat back',
      'Signed-out proof',
      proofPath,
    );
    const freed = signOutSection.getByRole('status');
    await freed.waitFor();
    expect(await freed.textContent()).toContain('Lab bench 3 no longer holds a seat');
    expect(await activeSeats()).toEqual([]);
    await photograph(page, 'offline-activation-signed-out', { fullPage: true, shows: [freed] });

    // The same proof again (uploaded afresh) is refused, and the seat stays free.
    await page.reload();
    const again = await chooseFile(page, 'Give a machine’s seat back', 'Signed-out proof', proofPath);
    const refused = again.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('already signed out');
    expect(await activeSeats()).toEqual([]);
  });

  it('the upload page and the app’s own screen fit a phone and a desktop, light and dark, and take a file by keyboard', async () => {
    const server = portal.server;
    const owner = await server.createUser({ fullName: 'Phone Owner' });
    const page = await portal.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, owner.email, owner.password);
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(viewport);
        await page.goto('/offline-activation');
        await page.getByRole('region', { name: 'Give a machine’s seat back' }).waitFor();
        await showScheme(page, colorScheme);
        // Fits: the scheme applied and readable, no sideways scroll, both file buttons on screen.
        await photograph(page, `offline-activation-${viewport.width}-${colorScheme}`, {
          scheme: colorScheme,
          fullPage: true,
          accessible: true,
          shows: [
            page.getByRole('button', { name: /Activation request file/ }),
            page.getByRole('button', { name: /Signed-out proof/ }),
          ],
        });
      }
    }
    // By keyboard: the file button takes the focus and opens the chooser with Space.
    const button = page
      .getByRole('region', { name: 'Activate a machine' })
      .getByRole('button', { name: /Activation request file/ });
    await button.focus();
    expect(await page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe(
      await button.getAttribute('id'),
    );
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.press('Space')]);
    expect(chooser.isMultiple()).toBe(false);

    const signedOut = await portal.newPage({ viewport: { width: 390, height: 844 } });
    await signedOut.goto('/offline-activation/this-machine');
    await signedOut.getByRole('heading', { level: 1, name: 'Activate this machine by file' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await showScheme(signedOut, scheme);
      await photograph(signedOut, `offline-activation-this-machine-390-${scheme}`, {
        scheme,
        fullPage: true,
        accessible: true,
        shows: [signedOut.getByRole('heading', { level: 1, name: 'Activate this machine by file' })],
      });
    }
  });
});
