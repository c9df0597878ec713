import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishRelease } from '../../src/server/distribution/releases.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';

const DEVICES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  {
    name: 'phone',
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

async function noSidewaysScroll(page: Page, label: string) {
  const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
    '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
  );
  expect(scrollWidth, `${label} is wider than the ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
}

/**
 * The admin Releases screen over releases published as the CLI does, photographed on a desktop and
 * a phone, light and dark; a rollout raised and a release paused with the keyboard, as saved by the
 * real server.
 */
describePortal(
  'the admin Releases screen',
  (portal) => {
    let workDir: string;

    beforeAll(async () => {
      const { app, config } = portal.server;
      workDir = await mkdtemp(join(tmpdir(), 'portal-releases-screen-'));
      const releases = [
        { version: '1.4.0', channel: 'stable', rollout: 100, notes: 'Offline licence files.' },
        { version: '1.5.0', channel: 'stable', rollout: 20, notes: 'Faster start.\nFixed the tray icon.' },
        { version: '1.6.0-beta.1', channel: 'beta', rollout: 100, notes: 'The new editor.' },
      ] as const;
      for (const [index, release] of releases.entries()) {
        const file = join(workDir, `Assistant-${release.version}.AppImage`);
        await writeFile(file, randomBytes(2_000));
        await publishRelease(app.db, config.licensing.releasesDir, {
          platform: 'linux',
          version: release.version,
          file,
          channel: release.channel,
          rolloutPercent: release.rollout,
          releaseNotes: release.notes,
          now: new Date(Date.UTC(2026, 0, 1 + index)),
        });
      }
    });
    afterAll(async () => {
      await rm(workDir, { recursive: true, force: true });
    });

    for (const device of DEVICES)
      it(`list and release dialog on a ${device.name}, light and dark`, async () => {
        const page = await portal.newPage({
          ...device.options,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        await signIn(page, portal.server.admin.email, portal.server.admin.password);
        await page.goto('/admin/releases');
        await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Releases' }).count()).toBe(1);
        await page.getByText('1.6.0-beta.1').first().waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-releases-${device.name}-${scheme}`, {
            scheme,
            fullPage: true,
            accessible: true,
            shows: [page.getByRole('button', { name: 'Manage 1.5.0 (Linux, stable)' }).first()],
          });
        }
        await noSidewaysScroll(page, 'the releases list');

        const manage = page.getByRole('button', { name: 'Manage 1.5.0 (Linux, stable)' }).first();
        await manage.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Release 1.5.0' });
        await dialog.getByRole('textbox', { name: 'Rollout' }).waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-releases-dialog-${device.name}-${scheme}`, {
            scheme,
            accessible: 'decided',
            shows: [
              dialog.getByRole('textbox', { name: 'Rollout' }),
              dialog.getByRole('button', { name: 'Save' }),
            ],
          });
        }
        await noSidewaysScroll(page, 'the release dialog');
        if (device.name === 'desktop') {
          await dialog.getByRole('textbox', { name: 'Rollout' }).fill('60');
          await dialog.getByRole('switch', { name: /Paused/ }).press('Space');
          await dialog.getByRole('button', { name: 'Save' }).press('Enter');
          await page.getByText('Release changed').waitFor();
          const saved = await portal.server.app.db
            .selectFrom('releases')
            .select(['rollout_percent', 'paused_at'])
            .where('version', '=', '1.5.0')
            .executeTakeFirstOrThrow();
          expect(saved.rollout_percent).toBe(60);
          expect(saved.paused_at).not.toBeNull();
        } else {
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });
        }
      });
  },
  { timeout: 180_000 },
);
