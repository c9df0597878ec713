import type { BrowserContextOptions } from 'playwright-core';
import { expect, it } from 'vitest';
import { pdfText } from '../server/helpers/invoice-helpers.js';
import { readOutbox } from '../support/outbox.js';
import { describePortal, signIn } from './support/portal.js';
import { apiCaller } from './support/api-call.js';

/**
 * Issue 34's journey in Chromium: a customer in Germany switches the portal to German, sees the
 * plans in euros (the price an administrator set, never a conversion), buys in EUR through the
 * sandbox checkout, and gets the German receipt with the EUR invoice attached.
 */

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' };

describePortal(
  'a German customer buys in euros',
  (portal) => {
    const call = apiCaller(portal);
    const tokenOf = async (credentials: { email: string; password: string }) =>
      (await call('POST', '/auth/login/json', undefined, credentials)).access_token as string;

    it('sees Pro at its euro price, pays €118 in German, and gets the German receipt with the EUR invoice', async () => {
      const admin = await tokenOf(portal.server.admin);
      const plans = (await call('GET', '/plans/public', undefined)) as unknown as {
        id: string;
        code: string;
      }[];
      const pro = plans.find((plan) => plan.code === 'pro-monthly');
      await call('PUT', `/plans/${pro?.id}`, admin, {
        other_prices: [{ currency: 'EUR', price_minor: 11_800 }],
      });

      const buyer = await portal.server.createUser({ fullName: 'Max Muster' });
      const token = await tokenOf(buyer);
      await call('PUT', '/billing/details', token, {
        name: 'Muster GmbH',
        address_line1: 'Unter den Linden 1',
        city: 'Berlin',
        postal_code: '10117',
        country: 'DE',
        tax_id: 'DE123456789',
      });

      const page = await portal.newPage(DESKTOP);
      await signIn(page, buyer.email, buyer.password);
      // Switched to German in the header: shown at once and kept on the account.
      await page.getByRole('banner').getByRole('combobox', { name: 'Language' }).selectOption('de');
      await page.getByRole('banner').getByRole('combobox', { name: 'Sprache' }).waitFor();
      await expect
        .poll(
          async () => ((await call('GET', '/users/me', token)).preferences as { language: string }).language,
        )
        .toBe('de');
      // A new page load (the session restored from what was kept at sign-in) still reads German.
      await page.goto('/purchase');
      // The account's language: German, and the billing country's currency: euros.
      await page.getByRole('heading', { level: 1, name: 'Kaufen' }).waitFor();
      await expect.poll(() => page.getByRole('combobox', { name: 'Preise in' }).inputValue()).toBe('EUR');
      const card = page.getByRole('article', { name: 'Pro', exact: true });
      expect(await card.innerText()).toContain('118');
      expect(await card.innerText()).toContain('€');
      const opened = page.waitForResponse((response) => response.url().endsWith('/subscriptions'));
      await card.getByRole('button', { name: /^Abonnieren/ }).click();
      const answer = await opened;
      expect(answer.status()).toBe(201);
      expect(answer.request().postDataJSON()).toMatchObject({ plan_id: pro?.id, currency: 'EUR' });
      const dialog = page.getByRole('dialog', { name: 'Sandbox-Checkout' });
      await dialog.getByRole('button', { name: 'Bezahlen', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      // An EU business: no GST, the price less the GST it includes (₹ prices include tax here).
      await portal.server.app.mailOutbox.drain();
      const mail = (await readOutbox(portal.server.outboxDir)).find(
        (sent) =>
          sent.to.includes(buyer.email) &&
          sent.attachments.some((file) => file.mimeType === 'application/pdf'),
      );
      expect(mail, 'the receipt').toBeDefined();
      expect(mail!.text).toContain('Wir haben Ihre Zahlung für Pro erhalten');
      expect(mail!.text).toContain('100,00');
      const invoice = await pdfText(
        mail!.attachments.find((file) => file.mimeType === 'application/pdf')!.content,
      );
      expect(invoice).toMatch(/Total\s+EUR 100\.00/);
      expect(invoice).toContain('DE123456789');
    });
  },
  { env: { SELLER_TAX_ID: '29AAGCB7383J1Z4' }, timeout: 180_000 },
);
