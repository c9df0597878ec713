import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import type { License } from '../../src/shared/api/licenses.js';
import { localStorageKeys } from '../../src/shared/storage-keys.js';
import { blockingViolations, installAxe } from './support/axe.js';
import { controlContrastProblems } from './support/control-contrast.js';
import { photograph, type PhotographOptions } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { accessToken, callApiOk, planByCode, seedCustomer } from './support/seed.js';
import type { Credentials, PortalServer } from './support/server.js';

/**
 * Issue 16, points 4 and 5, through the real build in Chromium against the real server: the
 * dashboard keeps this machine apart from the customer's licenses, flags suspended, revoked and
 * expiring licenses with what to do, and activates this machine in one click, from a license card
 * or from the dashboard. Screenshots land in test-results/screenshots/dashboard-activation-*.png.
 */

const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DAY_MS = 86_400_000;

/** Checks what the picture claims (photograph: scheme, no sideways scroll, `shows` on screen), then saves it. */
async function shoot(page: Page, name: string, options: PhotographOptions) {
  await page.mouse.move(0, 0);
  await photograph(page, `dashboard-activation-${name}`, { fullPage: true, ...options });
}

const userIdOf = async (server: PortalServer, email: string) =>
  (await server.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
    .id;

/** A license the administrator issues to `userId` through the admin API. */
async function issueLicense(
  server: PortalServer,
  userId: string,
  planCode: string,
  extra: { expires_at?: string | null } = {},
): Promise<string> {
  const token = await accessToken(server, server.admin);
  const plan = await planByCode(server, planCode);
  const license = await callApiOk<{ license_id: string }>(server, {
    method: 'POST',
    path: '/admin/licenses',
    token,
    body: { user_id: userId, plan_id: plan.id, ...extra },
  });
  return license.license_id;
}

/** The license as its owner reads it from the API, with its machines. */
const ownLicense = async (server: PortalServer, who: Credentials, licenseId: string) =>
  callApiOk<License>(server, {
    path: `/licenses/${licenseId}`,
    token: await accessToken(server, who),
  });

/** This browser's id: what its activation is recorded under. */
const browserHardwareId = (page: Page) =>
  page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(localStorageKeys.hardwareId)})`);

const machineTile = (page: Page) => page.getByRole('region', { name: 'This machine' });
const licensesList = (page: Page) => page.getByRole('region', { name: 'Your licenses' });
const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

describePortal('issue 16: this machine apart from the licenses, and activation in one click', (portal) => {
  let flagged: Credentials;
  beforeAll(async () => {
    // A customer with one license of each kind the dashboard flags.
    flagged = await portal.server.createUser({ fullName: 'Flora Flags' });
    const userId = await userIdOf(portal.server, flagged.email);
    // Noon (UTC, the browser's zone here) three calendar days on: "in 3 days" whatever the hour
    // the test runs at, even a minute before midnight.
    const now = portal.server.clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    await issueLicense(portal.server, userId, 'pro-monthly', {
      expires_at: new Date(today + 3 * DAY_MS + 12 * 3_600_000).toISOString(),
    });
    const suspended = await issueLicense(portal.server, userId, 'pro-yearly');
    const revoked = await issueLicense(portal.server, userId, 'team-yearly');
    const admin = await accessToken(portal.server, portal.server.admin);
    await callApiOk(portal.server, {
      method: 'PUT',
      path: `/admin/licenses/${suspended}`,
      token: admin,
      body: { status: 'suspended' },
    });
    await callApiOk(portal.server, {
      method: 'POST',
      path: `/admin/licenses/${revoked}/revoke?reason=${encodeURIComponent('Refunded at your request')}`,
      token: admin,
    });
  });

  it('a machine not activated here beside an active license: no contradiction, and the one license activates directly (desktop)', async () => {
    const customer = await seedCustomer(portal.server, { fullName: 'Nia Newmachine' });
    const page = await portal.newPage({ ...DESKTOP, colorScheme: 'light', reducedMotion: 'reduce' });
    await signIn(page, customer.email, customer.password);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    const machine = machineTile(page);
    await machine.getByText('Not activated here').waitFor();
    const said = await text(machine);
    expect(said).toContain('No license is activated on this machine.');
    // The license's status is not in the machine's panel, and the SPEC's "No license configured" is not beside it.
    expect(said).not.toContain('No license configured');
    expect(said).not.toMatch(/\bActive\b/);
    const held = licensesList(page).getByRole('article', { name: 'Pro license' });
    expect(await text(held)).toContain('Active');
    expect(await held.getByText('On this machine').count()).toBe(0);
    await shoot(page, 'not-activated-desktop-light', {
      scheme: 'light',
      shows: [machine.getByRole('button', { name: 'Activate this machine' }), held],
    });

    // One license with free seats: the dashboard's button activates it, nothing to copy or paste.
    expect(await text(machine.getByTestId('machine-next-step'))).toBe(
      'Takes one seat of your Pro license (1 of 3 seats in use).',
    );
    await machine.getByRole('button', { name: 'Activate this machine' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'This machine is activated' }).waitFor();
    expect(await text(page.locator('.mantine-Notification-root'))).toContain('It now uses your Pro license.');
    await machine.getByText('Activated here', { exact: true }).waitFor();
    expect(await text(machine.getByTestId('machine-summary'))).toBe('This machine uses your Pro license.');
    await held.getByText('On this machine').waitFor();

    // The server has this browser's activation on the license.
    const hardwareId = await browserHardwareId(page);
    expect(hardwareId).toBeTruthy();
    const license = await ownLicense(portal.server, customer, customer.licenseId);
    expect(license.activations_used).toBe(2);
    const here = license.activations?.find((activation) => activation.hardware_id === hardwareId);
    expect(here?.deactivated_at).toBeNull();
    expect(here?.device_name).toMatch(/ on Linux$/);
  });

  it('a suspended, a revoked and an expiring license are each flagged in words with what to do (phone)', async () => {
    const page = await portal.newPage({ ...PHONE, colorScheme: 'light', reducedMotion: 'reduce' });
    await signIn(page, flagged.email, flagged.password);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const list = licensesList(page);
    await list.getByTestId('license-flag').first().waitFor();
    const flags = list.getByTestId('license-flag');
    expect(await flags.count()).toBe(3);

    const byKind = async (kind: string) => text(list.locator(`[data-flag="${kind}"]`));
    expect(await byKind('expiring')).toMatch(/^Expires in 3 days This license expires on .+\. Renew it/);
    expect(await byKind('suspended')).toContain('This license is suspended');
    expect(await byKind('revoked')).toContain('Reason given: Refunded at your request.');
    expect(
      await list.getByRole('link', { name: 'Renew: Pro license' }).getAttribute('href'),
      'the expiring license is renewed on the Purchase page',
    ).toBe('/purchase');
    expect(await list.getByRole('link', { name: 'Contact support: Team license' }).getAttribute('href')).toBe(
      '/support',
    );
    expect(
      await list.getByRole('link', { name: 'Contact support: Pro (yearly) license' }).getAttribute('href'),
    ).toBe('/support');
    // The licenses' own statuses, apart from this machine's.
    expect(await text(list.getByRole('article', { name: 'Pro license' }))).toContain('Active');
    expect(await text(list.getByRole('article', { name: 'Pro (yearly) license' }))).toContain('Suspended');
    expect(await text(list.getByRole('article', { name: 'Team license' }))).toContain('Revoked');

    // The words fit the phone's width: nothing runs off to the side.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);

    // Only the active one can take this machine: the dashboard activates it directly.
    const machine = machineTile(page);
    await machine.getByText('Not activated here').waitFor();
    expect(await text(machine.getByTestId('machine-next-step'))).toBe(
      'Takes one seat of your Pro license (0 of 3 seats in use).',
    );
    await shoot(page, 'flags-phone-light', {
      scheme: 'light',
      shows: [
        list.locator('[data-flag="expiring"]'),
        list.locator('[data-flag="suspended"]'),
        list.locator('[data-flag="revoked"]'),
        machine.getByTestId('machine-next-step'),
      ],
    });
  });

  it('“Activate on this machine” on a license card activates it: the card and this machine’s panel say so, and the API has it (phone)', async () => {
    const customer = await seedCustomer(portal.server, { fullName: 'Cato Card' });
    const page = await portal.newPage({ ...PHONE, colorScheme: 'dark', reducedMotion: 'reduce' });
    await signIn(page, customer.email, customer.password);
    await page.goto('/licenses');
    const card = page.getByRole('article', { name: 'Pro license' });
    const thisMachine = page.getByRole('region', { name: 'This machine' });
    await thisMachine.getByText('Not configured').waitFor();

    await card.getByRole('button', { name: 'Activate on this machine: Pro license' }).waitFor();
    await shoot(page, 'card-before-phone-dark', {
      scheme: 'dark',
      shows: [card.getByRole('button', { name: 'Activate on this machine: Pro license' })],
    });
    await card.getByRole('button', { name: 'Activate on this machine: Pro license' }).click();
    await card.getByText('Active on this machine').waitFor();
    expect(await card.getByRole('button', { name: /^Activate on this machine/ }).count()).toBe(0);
    await thisMachine.getByText('Activated here with your Pro license.').waitFor();

    const hardwareId = await browserHardwareId(page);
    const license = await ownLicense(portal.server, customer, customer.licenseId);
    expect(
      license.activations?.some(
        (activation) => activation.hardware_id === hardwareId && activation.deactivated_at === null,
      ),
    ).toBe(true);
    await shoot(page, 'card-activated-phone-dark', {
      scheme: 'dark',
      shows: [card.getByText('Active on this machine')],
    });

    // The dashboard agrees.
    await page.goto('/dashboard');
    await machineTile(page).getByText('Activated here', { exact: true }).waitFor();
    expect(await text(machineTile(page).getByTestId('machine-summary'))).toBe(
      'This machine uses your Pro license.',
    );
  });

  for (const [device, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    for (const scheme of ['light', 'dark'] as const)
      it(`the flagged dashboard on ${device}, ${scheme}: readable and named for axe (test-results/screenshots/dashboard-activation-dashboard-${device}-${scheme}.png)`, async () => {
        const context = await portal.newContext({ ...options, colorScheme: scheme, reducedMotion: 'reduce' });
        await installAxe(context);
        const page = await context.newPage();
        await signIn(page, flagged.email, flagged.password);
        await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
        await licensesList(page).getByTestId('license-flag').nth(2).waitFor();
        await machineTile(page).getByTestId('machine-verdict').waitFor();
        await page.waitForLoadState('networkidle');
        await shoot(page, `dashboard-${device}-${scheme}`, { scheme });
        // The flags' words and buttons stay readable (WCAG AA) and named in both schemes.
        expect(await blockingViolations(page, `dashboard (${device}, ${scheme})`)).toEqual([]);
        expect(await controlContrastProblems(page)).toEqual([]);
      });
});
