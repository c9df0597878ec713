import { gunzipSync } from 'node:zlib';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { readOutbox } from '../support/outbox.js';
import { WEB_API_KEY } from '../support/test-server.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, pathOf, signIn } from './support/portal.js';

/**
 * Issue 34, "their data", in Chromium: a customer asks for their data on Profile, watches it
 * prepared, and downloads the archive from the link mailed to them; then deletes their account,
 * signs in during the grace period and cancels it, deletes it again, and once the grace period is
 * over cannot sign in, while the administrator still finds their payment and its invoice with the
 * buyer's details. The Profile's new parts are photographed on a desktop and a phone, light and dark.
 */

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' };
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  reducedMotion: 'reduce',
};
const DAY = 24 * 60 * 60 * 1000;

/** The names of the files in a tar archive (ustar headers: the name in the first 100 bytes of each). */
function tarNames(tar: Buffer): string[] {
  const names: string[] = [];
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    names.push(prefix ? `${prefix}/${name}` : name);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describePortal(
  'a customer’s data: export and deletion',
  (portal) => {
    async function call(method: string, path: string, token: string | undefined, body?: unknown) {
      const response = await portal.server.app.inject({
        method: method as 'GET',
        url: `${API_BASE_PATH}${path}`,
        headers: { 'x-api-key': WEB_API_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
      return response.json<Record<string, unknown>>();
    }

    /** The Profile's "Delete account" card, its dialog confirmed. */
    async function deleteAccount(page: Page) {
      await page.goto('/profile');
      const card = page.getByRole('region', { name: 'Delete account' });
      await card.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await dialog.getByText(/subscriptions are cancelled/).waitFor();
      await dialog.getByText(/stops working on your machines at their next check/).waitFor();
      await dialog.getByRole('checkbox', { name: /I understand/ }).check();
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await page.getByRole('region', { name: 'Account deletion' }).waitFor();
    }

    it('exports, deletes, cancels, deletes again and is erased after the grace period; the invoice stays', async () => {
      const user = await portal.server.createUser({ fullName: 'Hana Leaving' });
      const token = (await call('POST', '/auth/login/json', undefined, user)).access_token as string;
      await call('PUT', '/billing/details', token, {
        name: 'Hana Leaving Studio',
        address_line1: '12 Residency Road',
        city: 'Bengaluru',
        postal_code: '560025',
        region: 'Karnataka',
        country: 'IN',
      });
      const plans = (await call('GET', '/plans/public', token)) as unknown as { id: string; code: string }[];
      const checkout = await call('POST', '/subscriptions', token, {
        plan_id: plans.find((plan) => plan.code === 'pro-monthly')?.id,
      });
      const paid = await call(
        'POST',
        `/payments/sandbox/subscriptions/${String(checkout.subscription_id)}/complete`,
        token,
        { outcome: 'pay' },
      );
      await call('POST', '/subscriptions/verify', token, paid);
      const { id: userId } = await portal.server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', user.email)
        .executeTakeFirstOrThrow();

      // The export: asked for on Profile, prepared by the scheduler, the link mailed.
      const page = await portal.newPage(DESKTOP);
      await signIn(page, user.email, user.password);
      await page.goto('/profile');
      const yourData = page.getByRole('region', { name: 'Your data' });
      await yourData.getByRole('button', { name: 'Download my data' }).click();
      await yourData.getByText(/^Preparing your archive… \d+%$/).waitFor();
      await portal.server.app.scheduler.runOnce();
      await yourData.getByText('Your archive is ready').waitFor({ timeout: 15_000 });
      await portal.server.app.mailOutbox.drain();
      const mail = (await readOutbox(portal.server.outboxDir)).find(
        (sent) => sent.to.includes(user.email) && sent.subject.includes('data export is ready'),
      );
      expect(mail, 'the export mail').toBeDefined();
      const link = /https?:\/\/\S+(\/api\/v1\/data-exports\/[A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
      expect(link, mail!.text).toBeDefined();
      // The link works in a browser with no session and no client key.
      const stranger = await portal.newContext();
      const download = await stranger.request.get(link!);
      expect(download.status()).toBe(200);
      expect(download.headers()['content-type']).toBe('application/gzip');
      const names = tarNames(gunzipSync(await download.body()));
      for (const name of [
        'account.json',
        'licenses.json',
        'payments.json',
        'subscriptions.json',
        'security-events.json',
      ])
        expect(
          names.some((entry) => entry.endsWith(`/${name}`)),
          `${name} in ${names.join(', ')}`,
        ).toBe(true);
      expect(names.some((entry) => /\/invoices\/INV-\d{6}\.pdf$/.test(entry))).toBe(true);

      // Deleted, then signing in during the grace period shows it at once, and cancelling keeps the account.
      await deleteAccount(page);
      const returning = await portal.newPage(DESKTOP);
      await signIn(returning, user.email, user.password);
      const banner = returning.getByRole('region', { name: 'Account deletion' });
      await banner.getByText(/It will be erased on/).waitFor();
      await banner.getByRole('button', { name: 'Cancel deletion' }).click();
      await returning.getByText('Deletion cancelled').waitFor();
      await banner.waitFor({ state: 'detached' });

      // Deleted again; the grace period passes and the scheduler erases the account.
      await deleteAccount(returning);
      portal.server.clock.advance(14 * DAY + 60_000);
      await portal.server.app.scheduler.runOnce();
      const erased = await portal.server.app.db
        .selectFrom('users')
        .select(['email', 'erased_at'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      expect(erased.erased_at).not.toBeNull();

      const late = await portal.newPage(DESKTOP);
      await late.goto('/login');
      const form = late.locator('form');
      await form.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
      await form.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
      await form.getByRole('button', { name: 'Sign in' }).click();
      await late
        .getByRole('alert')
        .filter({ hasText: /invalid|incorrect/i })
        .first()
        .waitFor();
      expect(pathOf(late)).toBe('/login');

      // The administrator still finds the payment and its invoice, billed to the buyer as issued.
      const { admin } = portal.server;
      const adminPage = await portal.newPage({ viewport: { width: 1440, height: 900 } });
      await signIn(adminPage, admin.email, admin.password);
      await adminPage.goto(`/admin/payments?${new URLSearchParams({ search: erased.email })}`);
      await adminPage
        .getByRole('table', { name: 'Payments' })
        .getByRole('row')
        .filter({ hasText: erased.email })
        .waitFor();
      await adminPage.goto(`/admin/users?${new URLSearchParams({ search: erased.email })}`);
      await adminPage.getByRole('button', { name: erased.email }).first().click();
      const details = adminPage.getByRole('button', { name: /^Details of (tax )?invoice INV-/ });
      await details.waitFor({ timeout: 30_000 });
      await details.click();
      const invoice = adminPage.getByRole('dialog', { name: /^(Tax i|I)nvoice INV-/ });
      await invoice
        .getByText(/Hana Leaving Studio/)
        .first()
        .waitFor();
      expect((await invoice.innerText()).replace(/\s+/g, ' ')).toContain('Billed to Hana Leaving Studio');
    });

    it('shows the Profile’s data and deletion parts on a desktop and a phone, light and dark', async () => {
      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const user = await portal.server.createUser({ fullName: 'Priya Pictures' });
        const page = await portal.newPage(options);
        await signIn(page, user.email, user.password);
        await page.goto('/profile');
        const yourData = page.getByRole('region', { name: 'Your data' });
        await yourData.getByRole('button', { name: 'Download my data' }).click();
        await yourData.getByText(/^Preparing your archive… \d+%$/).waitFor();
        // Made now rather than at the scheduler's next tick, so the picture shows one state.
        await portal.server.app.scheduler.runOnce();
        await yourData.getByText('Your archive is ready').waitFor({ timeout: 15_000 });
        const deletion = page.getByRole('region', { name: 'Delete account' });
        await deletion.getByRole('button', { name: 'Delete my account' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
        await dialog.getByRole('checkbox', { name: /I understand/ }).check();
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `account-deletion-dialog-${device}-${scheme}`, {
            scheme,
            shows: [dialog],
            accessible: 'decided',
          });
        }
        await dialog.getByRole('button', { name: 'Delete my account' }).click();
        await page.getByRole('region', { name: 'Account deletion' }).waitFor();
        await page.mouse.move(0, 0);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await yourData.scrollIntoViewIfNeeded();
          await photograph(page, `profile-account-data-${device}-${scheme}`, {
            scheme,
            shows: [yourData, deletion],
            fullPage: true,
            accessible: 'decided',
          });
        }
      }
    });
  },
  { timeout: 180_000 },
);
