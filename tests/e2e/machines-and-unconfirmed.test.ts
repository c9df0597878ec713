import { randomBytes } from 'node:crypto';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { readOutbox } from '../support/outbox.js';
import { appliedColorScheme } from './support/pages.js';
import { photograph, type PhotographOptions } from './support/photograph.js';
import { describePortal, type Portal, signIn } from './support/portal.js';
import { accessToken, callApi, callApiOk, seedCustomer } from './support/seed.js';

/**
 * Issue 16, points 6 and 11, through the real build in Chromium against the real server: the owner
 * names one of two machines that both call themselves "Chrome on Linux", and the name outlives the
 * machine activating again; an administrator sees an account whose e-mail is not confirmed, finds
 * it with the filter, sends it a new link, confirms it, and the overview's counts move. Screenshots
 * land in test-results/screenshots/issue16-machines-*.png and issue16-unconfirmed-*.png.
 */

const DEVICES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;
const SCHEMES = ['light', 'dark'] as const;

const contextOf = (device: (typeof DEVICES)[number]): BrowserContextOptions => ({
  viewport: device.viewport,
  colorScheme: 'light',
  reducedMotion: 'reduce',
  ...('isMobile' in device ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
});

/** Shows the page in `scheme` (the account follows the device's choice) and waits until it applies. */
async function showIn(page: Page, scheme: (typeof SCHEMES)[number]) {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => appliedColorScheme(page)).toBe(scheme);
}

/** Checks what the picture claims (photograph: scheme, no sideways scroll, `shows` on screen), then saves it. */
async function shoot(page: Page, name: string, options: PhotographOptions) {
  await page.mouse.move(0, 0).catch(() => undefined);
  await photograph(page, `issue16-${name}`, options);
}

/** What the desktop app sends when it activates this machine (again). */
const activateMachine = (
  portal: Portal,
  token: string,
  licenseKey: string,
  hardwareId: string,
  name: string,
) =>
  callApiOk(portal.server, {
    method: 'POST',
    path: '/licenses/activate',
    token,
    body: { license_key: licenseKey, hardware_id: hardwareId, device_name: name, platform: 'linux' },
  });

const labelOf = async (portal: Portal, hardwareId: string) =>
  (
    await portal.server.app.db
      .selectFrom('activations')
      .select(['label', 'device_name'])
      .where('hardware_id', '=', hardwareId)
      .executeTakeFirstOrThrow()
  ).label;

describePortal(
  'issue 16: machines have names, unconfirmed accounts are told apart',
  (portal) => {
    it('6. the owner renames a machine by keyboard; activating the same hardware again keeps the name', async () => {
      const owner = await seedCustomer(portal.server, { fullName: 'Mina Machines' });
      const token = await accessToken(portal.server, owner);
      // Two machines that tell themselves apart only by their hardware ids.
      const first = `hw-chrome-a-${randomBytes(5).toString('hex')}`;
      const second = `hw-chrome-b-${randomBytes(5).toString('hex')}`;
      await activateMachine(portal, token, owner.licenseKey, first, 'Chrome on Linux');
      await activateMachine(portal, token, owner.licenseKey, second, 'Chrome on Linux');

      const page = await portal.newPage({ ...contextOf(DEVICES[0]) });
      await signIn(page, owner.email, owner.password);
      await page.goto(`/licenses/${owner.licenseId}`);
      const machines = page.getByRole('table', { name: 'Machines' });
      await machines.waitFor();
      expect(await machines.getByRole('button', { name: 'Rename Chrome on Linux' }).count()).toBe(2);

      // The keyboard alone: focus Rename, Enter opens the dialog on its field, Enter saves.
      const rename = machines.getByRole('button', { name: 'Rename Chrome on Linux' }).first();
      await rename.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Rename Chrome on Linux' });
      const field = dialog.getByRole('textbox', { name: 'Machine name' });
      await expect
        .poll(() =>
          page.evaluate(
            "`${document.activeElement?.tagName}:${document.activeElement?.labels?.[0]?.textContent ?? ''}`",
          ),
        )
        .toBe('INPUT:Machine name');

      // A name with a control character is refused in the dialog, nothing is sent.
      await field.fill('Office\u0007laptop');
      await page.keyboard.press('Enter');
      await dialog.getByText('A machine name must not contain control characters').waitFor();
      await shoot(page, 'machines-rename-refused-desktop-light', {
        scheme: 'light',
        shows: [dialog.getByText('A machine name must not contain control characters'), field],
      });

      await field.fill('  Office laptop  ');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('Machine renamed').first().waitFor();
      await machines.getByText('Office laptop', { exact: true }).waitFor();
      const renamed = (await labelOf(portal, first)) === 'Office laptop' ? first : second;
      const other = renamed === first ? second : first;
      expect(await labelOf(portal, renamed)).toBe('Office laptop');
      expect(await labelOf(portal, other)).toBeNull();
      // The named machine shows its name first and the device's own name under it.
      const namedRow = machines.getByRole('row').filter({ hasText: 'Office laptop' });
      expect(await namedRow.getByTestId('machine-reported-name').innerText()).toBe('Chrome on Linux');

      // The desktop app activates the same hardware again, reporting another name: the owner's stays.
      await activateMachine(portal, token, owner.licenseKey, renamed, 'Chromium on Linux');
      expect(await labelOf(portal, renamed)).toBe('Office laptop');
      await page.reload();
      await machines.waitFor();
      await machines.getByText('Office laptop', { exact: true }).waitFor();
      expect(await namedRow.getByTestId('machine-reported-name').innerText()).toBe('Chromium on Linux');
      expect(await machines.getByRole('button', { name: 'Rename Chrome on Linux' }).count()).toBe(1);

      // A failure is told in the dialog: the machine freed by an administrator meanwhile is gone.
      const detail = await callApiOk<{ activations: { activation_id: string; hardware_id: string }[] }>(
        portal.server,
        { path: `/licenses/${owner.licenseId}`, token },
      );
      const otherId = detail.activations.find((item) => item.hardware_id === other)?.activation_id;
      await portal.server.app.db.deleteFrom('activations').where('hardware_id', '=', other).execute();
      expect(otherId).toBeTruthy();
      await machines.getByRole('button', { name: 'Rename Chrome on Linux' }).click();
      const stale = page.getByRole('dialog', { name: 'Rename Chrome on Linux' });
      await stale.getByRole('textbox', { name: 'Machine name' }).fill('Spare laptop');
      await stale.getByRole('button', { name: 'Save name' }).click();
      await stale.getByText('This machine is not activated on this license').waitFor();
      await stale.getByRole('button', { name: 'Cancel' }).click();
      await stale.waitFor({ state: 'hidden' });

      // One sign-in per device; each scheme is the device's choice, switched in place.
      for (const device of DEVICES) {
        const shot = await portal.newPage(contextOf(device));
        await signIn(shot, owner.email, owner.password);
        await shot.goto(`/licenses/${owner.licenseId}`);
        const heading = shot.getByRole('heading', { name: 'Machines' }).first();
        await shot.getByText('Office laptop', { exact: true }).first().waitFor();
        // The machines in sight, whichever element scrolls.
        await shot.evaluate("document.getElementById('machines-title')?.scrollIntoView({ block: 'center' })");
        await expect
          .poll(async () => {
            const y = (await heading.boundingBox())?.y ?? -1;
            return y >= 0 && y < device.viewport.height / 2 + 50;
          })
          .toBe(true);
        for (const scheme of SCHEMES) {
          await showIn(shot, scheme);
          await shoot(shot, `machines-${device.name}-${scheme}`, {
            scheme,
            shows: [heading, shot.getByRole('button', { name: 'Rename Office laptop' }).first()],
          });
          await shot.getByRole('button', { name: 'Rename Office laptop' }).first().click();
          const dialog = shot.getByRole('dialog', { name: 'Rename Office laptop' });
          await dialog.waitFor();
          await shoot(shot, `machines-dialog-${device.name}-${scheme}`, {
            scheme,
            shows: [dialog.getByRole('textbox', { name: 'Machine name' })],
          });
          await shot.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });
        }
        await shot.context().close();
      }
    });

    it('11. the admin sees the Unconfirmed badge, filters by it, confirms the account and the overview moves', async () => {
      // Someone signed up and never opened the link.
      const email = uniqueEmail('unconfirmed');
      const registered = await callApi(portal.server, {
        method: 'POST',
        path: '/auth/register',
        body: { email, password: STRONG_PASSWORD, full_name: 'Una Unconfirmed' },
      });
      expect(registered.statusCode, registered.body).toBe(202);
      const confirmed = await portal.server.createUser({ fullName: 'Cora Confirmed' });
      const adminToken = await accessToken(portal.server, portal.server.admin);
      const stats = () =>
        callApiOk<{ users: { active: number; unconfirmed: number } }>(portal.server, {
          path: '/admin/dashboard',
          token: adminToken,
        });
      const before = (await stats()).users;
      expect(before.unconfirmed).toBeGreaterThanOrEqual(1);

      const page = await portal.newPage(contextOf(DEVICES[0]));
      await signIn(page, portal.server.admin.email, portal.server.admin.password);
      await page.goto('/admin');
      const usersCard = page.getByText(/ active · \d+ unconfirmed · /).first();
      await usersCard.waitFor();
      expect(await usersCard.innerText()).toContain(
        `${before.active} active · ${before.unconfirmed} unconfirmed ·`,
      );

      await page.goto('/admin/users');
      const table = page.getByRole('table').first();
      const row = table.getByRole('row').filter({ hasText: email });
      await row.getByText('Unconfirmed', { exact: true }).waitFor();
      const confirmedRow = table.getByRole('row').filter({ hasText: confirmed.email });
      await confirmedRow.waitFor();
      expect(await confirmedRow.getByText('Unconfirmed', { exact: true }).count()).toBe(0);

      // The filter goes through the list's query (and the URL).
      await page.getByRole('combobox', { name: 'E-mail' }).selectOption('unconfirmed');
      await expect.poll(() => new URL(page.url()).searchParams.get('verification')).toBe('unconfirmed');
      await confirmedRow.waitFor({ state: 'detached' });
      await row.waitFor();
      const rows = table.locator('tbody tr');
      const count = await rows.count();
      expect(count).toBeGreaterThanOrEqual(1);
      for (let index = 0; index < count; index += 1)
        expect(await rows.nth(index).getByText('Unconfirmed', { exact: true }).count()).toBe(1);
      await shoot(page, 'unconfirmed-list-filtered-desktop-light', { scheme: 'light', shows: [row] });

      // The drawer: a new link through the outbox, then the address marked as confirmed.
      await row.getByRole('button', { name: 'Una Unconfirmed' }).click();
      const drawer = page.getByRole('dialog', { name: 'User details: Una Unconfirmed' });
      await drawer.getByRole('heading', { name: 'E-mail not confirmed' }).waitFor();
      const mailsBefore = (await readOutbox(portal.server.outboxDir)).filter((mail) =>
        mail.to.includes(email),
      );
      await drawer.getByRole('button', { name: 'Resend confirmation' }).click();
      await page.getByText('Confirmation link sent').first().waitFor();
      await portal.server.app.mailOutbox.drain();
      await expect
        .poll(
          async () =>
            (await readOutbox(portal.server.outboxDir)).filter((mail) => mail.to.includes(email)).length,
        )
        .toBe(mailsBefore.length + 1);
      await shoot(page, 'unconfirmed-drawer-desktop-light', {
        scheme: 'light',
        shows: [drawer.getByRole('button', { name: 'Mark as confirmed' })],
      });

      await drawer.getByRole('button', { name: 'Mark as confirmed' }).click();
      await page.getByText(`${email} can sign in now.`).first().waitFor();
      await drawer.getByRole('heading', { name: 'E-mail not confirmed' }).waitFor({ state: 'detached' });
      expect(await drawer.getByText('Unconfirmed', { exact: true }).count()).toBe(0);
      const events = await portal.server.app.db
        .selectFrom('security_events')
        .select('type')
        .where('type', 'in', ['confirmation_mail_resent', 'user_updated'])
        .where('details', 'like', `%${email}%`)
        .execute();
      expect(events.map((event) => event.type).sort()).toEqual(['confirmation_mail_resent', 'user_updated']);
      await page.keyboard.press('Escape');
      // The filtered list no longer holds the account.
      await row.waitFor({ state: 'detached' });

      // The overview counts it as active now.
      const after = (await stats()).users;
      expect(after).toMatchObject({ active: before.active + 1, unconfirmed: before.unconfirmed - 1 });
      await page.goto('/admin');
      await expect
        .poll(() =>
          page
            .getByText(/ active · \d+ unconfirmed · /)
            .first()
            .innerText(),
        )
        .toContain(`${after.active} active · ${after.unconfirmed} unconfirmed ·`);

      // Another unconfirmed account for the screenshots on each device, light and dark.
      const other = uniqueEmail('unconfirmed-shot');
      await callApiOk(portal.server, {
        method: 'POST',
        path: '/auth/register',
        body: { email: other, password: STRONG_PASSWORD, full_name: 'Otto Outstanding' },
      });
      for (const device of DEVICES) {
        const shot = await portal.newPage(contextOf(device));
        await signIn(shot, portal.server.admin.email, portal.server.admin.password);
        for (const scheme of SCHEMES) {
          await showIn(shot, scheme);
          await shot.goto('/admin');
          await shot
            .getByText(/ active · \d+ unconfirmed · /)
            .first()
            .waitFor();
          await shoot(shot, `unconfirmed-overview-${device.name}-${scheme}`, {
            scheme,
            shows: [shot.getByText(/ active · \d+ unconfirmed · /).first()],
          });
          await shot.goto('/admin/users?verification=unconfirmed');
          await shot.getByText(other).first().waitFor();
          await shoot(shot, `unconfirmed-list-${device.name}-${scheme}`, {
            scheme,
            shows: [shot.getByText(other).first()],
          });
          await shot.getByRole('button', { name: 'Otto Outstanding' }).first().click();
          await shot.getByRole('heading', { name: 'E-mail not confirmed' }).waitFor();
          await shoot(shot, `unconfirmed-drawer-${device.name}-${scheme}`, {
            scheme,
            shows: [shot.getByRole('button', { name: 'Mark as confirmed' })],
          });
        }
        await shot.context().close();
      }
    });
  },
  { timeout: 240_000 },
);
