import { createHash, randomBytes } from 'node:crypto';
import type { BrowserContextOptions } from 'playwright-core';
import { expect, it } from 'vitest';
import { appliedColorScheme } from './support/pages.js';
import { photograph } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { accessToken, callApiOk, seedCustomer } from './support/seed.js';

/**
 * Issue 31: the administrators' machines drawer shows a machine's fingerprint components and the
 * changes it kept its seat through, in the real build in Chromium against the real server; the
 * change comes from a license check (written when the check sees it). Screenshots land in
 * test-results/screenshots/issue31-fingerprint-*.png.
 */

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const DEVICES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

const contextOf = (device: (typeof DEVICES)[number]): BrowserContextOptions => ({
  viewport: device.viewport,
  colorScheme: 'light',
  reducedMotion: 'reduce',
  ...('isMobile' in device ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
});

describePortal('issue 31: a machine’s fingerprint in the administrators’ drawer', (portal) => {
  it('the change a license check saw is in the drawer, opened by keyboard, on a desktop and a phone, light and dark', async () => {
    const owner = await seedCustomer(portal.server, { fullName: 'Finn Fingerprint' });
    const token = await accessToken(portal.server, owner);
    const hw = `hw-fp-${randomBytes(5).toString('hex')}`;
    const components = {
      machine_id: hash('fp machine'),
      cpu: hash('fp cpu'),
      disk: hash('fp disk'),
      board: hash('fp board'),
      os_install: hash('fp os'),
    };
    await callApiOk(portal.server, {
      method: 'POST',
      path: '/licenses/activate',
      token,
      body: { license_key: owner.licenseKey, hardware_id: hw, device_name: 'Finn’s workstation', components },
    });
    // The app checks in with a replaced disk: the check writes the change.
    const changed = { ...components, disk: hash('fp new disk') };
    await callApiOk(portal.server, {
      path: `/licensing/status?${new URLSearchParams({
        license_key: owner.licenseKey,
        hardware_id: hw,
        components: Object.entries(changed)
          .map(([name, value]) => `${name}:${value}`)
          .join(','),
      })}`,
    });

    for (const device of DEVICES) {
      const page = await portal.newPage(contextOf(device));
      await signIn(page, portal.server.admin.email, portal.server.admin.password);
      await page.goto(`/admin/licenses?userId=${owner.id}`);
      await page
        .getByRole('button', { name: /^Machines of / })
        .first()
        .click();
      const drawer = page.getByRole('dialog', { name: 'Machines' });
      const toggle = drawer.getByRole('button', { name: 'Show the fingerprint of Finn’s workstation' });
      await toggle.waitFor();
      await toggle.focus();
      await page.keyboard.press('Enter');
      const history = drawer.getByRole('list', { name: 'Component changes of Finn’s workstation' });
      await history.waitFor();
      expect(await history.innerText()).toMatch(/Disk changed · 4 of 5 matched/);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect.poll(() => appliedColorScheme(page)).toBe(scheme);
        await history.scrollIntoViewIfNeeded();
        await photograph(page, `issue31-fingerprint-${device.name}-${scheme}`, {
          scheme,
          shows: [history],
        });
      }
      await page.context().close();
    }
  });
});
