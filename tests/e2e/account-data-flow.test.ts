import { gunzipSync } from 'node:zlib';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { readOutbox } from '../support/outbox.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, pathOf, signIn } from './support/portal.js';
import { apiCaller } from './support/api-call.js';

/**
 * Issue 34, "their data", in Chromium and in the customer's language: a Spanish customer asks for
 * their data on Profile, watches it prepared, and downloads the archive from the link mailed to them
 * in Spanish; a Hindi customer deletes their account, signs in during the grace period and cancels
 * it, deletes it again, and once the grace period is over cannot sign in, while the administrator
 * still finds their payment and its invoice with the buyer's details. The Profile's new parts are photographed on a desktop and a phone, light and dark.
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
    const call = apiCaller(portal);

    /** A customer who reads the portal in `language` and has paid for Pro once, so has an invoice. */
    async function payingCustomer(fullName: string, language: 'es' | 'hi') {
      const user = await portal.server.createUser({ fullName });
      const token = (await call('POST', '/auth/login/json', undefined, user)).access_token as string;
      await call('PUT', '/users/me/preferences', token, { language });
      await call('PUT', '/billing/details', token, {
        name: `${fullName} Studio`,
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
      const { id } = await portal.server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', user.email)
        .executeTakeFirstOrThrow();
      return { ...user, id };
    }

    /** Signs in on the sign-in page as a browser set to Hindi shows it. */
    async function signInInHindi(page: Page, email: string, password: string) {
      await page.goto('/login');
      const form = page.locator('form');
      await form.getByRole('textbox', { name: 'ई-मेल' }).fill(email);
      await form.getByRole('textbox', { name: 'पासवर्ड', exact: true }).fill(password);
      await form.getByRole('button', { name: 'साइन इन करें' }).click();
    }

    /** The Profile's "Delete account" card in Hindi, its dialog confirmed. */
    async function deleteAccountInHindi(page: Page) {
      await page.goto('/profile');
      const card = page.getByRole('region', { name: 'खाता हटाएँ' });
      await card.getByRole('button', { name: 'मेरा खाता हटाएँ' }).click();
      const dialog = page.getByRole('dialog', { name: 'अपना खाता हटाएँ?' });
      await dialog.getByText(/आपके सब्सक्रिप्शन रद्द हो जाते हैं/).waitFor();
      await dialog.getByText(/डेस्कटॉप ऐप काम करना बंद कर देता है/).waitFor();
      await dialog.getByRole('checkbox', { name: /मैं समझता\/समझती हूँ/ }).check();
      await dialog.getByRole('button', { name: 'मेरा खाता हटाएँ' }).click();
      await page.getByRole('region', { name: 'खाता हटाना' }).waitFor();
    }

    it('a Spanish customer asks for their data on Profile and downloads the archive from the Spanish mail', async () => {
      const customer = await payingCustomer('Lucía Datos', 'es');

      // Asked for on Profile, which reads Spanish, prepared by the scheduler, the link mailed in Spanish.
      const page = await portal.newPage(DESKTOP);
      await signIn(page, customer.email, customer.password);
      await page.goto('/profile');
      const yourData = page.getByRole('region', { name: 'Tus datos' });
      await yourData.getByRole('button', { name: 'Descargar mis datos' }).click();
      await yourData.getByText(/^Preparando tu archivo… \d+\s%$/).waitFor();
      await portal.server.app.scheduler.runOnce();
      await yourData.getByText('Tu archivo está listo').waitFor({ timeout: 15_000 });
      expect(await page.getByRole('main').innerText()).not.toContain('Your data');
      await portal.server.app.mailOutbox.drain();
      const mail = (await readOutbox(portal.server.outboxDir)).find(
        (sent) =>
          sent.to.includes(customer.email) && /^Tu exportación de datos de .+ está lista$/.test(sent.subject),
      );
      expect(mail, 'the export mail, in Spanish').toBeDefined();
      expect(mail!.text).toContain('Descargar mis datos');
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
    });

    it('a Hindi customer deletes, cancels in the grace period, deletes again and is erased; the invoice stays', async () => {
      const customer = await payingCustomer('Hana Leaving', 'hi');
      const HINDI: BrowserContextOptions = { ...DESKTOP, locale: 'hi-IN' };

      // Deleted, then signing in during the grace period shows it at once, and cancelling keeps the account.
      const page = await portal.newPage(HINDI);
      await signInInHindi(page, customer.email, customer.password);
      await expect.poll(() => pathOf(page)).not.toBe('/login');
      await deleteAccountInHindi(page);
      const returning = await portal.newPage(HINDI);
      await signInInHindi(returning, customer.email, customer.password);
      const banner = returning.getByRole('region', { name: 'खाता हटाना' });
      await banner.getByText(/मिटा दिया जाएगा/).waitFor();
      await banner.getByRole('button', { name: 'हटाना रद्द करें' }).click();
      await returning.getByText('हटाना रद्द किया गया').waitFor();
      await banner.waitFor({ state: 'detached' });

      // Deleted again; the grace period passes and the scheduler erases the account.
      await deleteAccountInHindi(returning);
      portal.server.clock.advance(14 * DAY + 60_000);
      await portal.server.app.scheduler.runOnce();
      const erased = await portal.server.app.db
        .selectFrom('users')
        .select(['email', 'erased_at'])
        .where('id', '=', customer.id)
        .executeTakeFirstOrThrow();
      expect(erased.erased_at).not.toBeNull();

      const late = await portal.newPage(HINDI);
      await signInInHindi(late, customer.email, customer.password);
      await late.getByRole('alert').filter({ hasText: 'ई-मेल या पासवर्ड गलत है' }).first().waitFor();
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
