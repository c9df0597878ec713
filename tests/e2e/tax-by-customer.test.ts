import { mkdir } from 'node:fs/promises';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { apiCaller } from './support/api-call.js';

/**
 * Issue 34, item 8, in Chromium: a German business's billing details take its VAT number (a
 * wrong one is refused as it is typed), its invoice bills no GST and says the VAT is
 * reverse-charged under the seller's LUT note; on a desktop in light and a phone in dark.
 */

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' };
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  reducedMotion: 'reduce',
};
const LUT = 'Supply meant for export under LUT without payment of IGST, LUT ARN AD290425001234X';
/** Where the screens are kept for review, besides test-results/screenshots. */
const SHOTS = process.env['TAX_SHOTS_DIR'];

describePortal(
  'tax by customer on the Billing page',
  (portal) => {
    const call = apiCaller(portal);

    const keep = async (page: Page, name: string, fullPage = true) => {
      if (!SHOTS) return;
      await mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage, animations: 'disabled' });
    };

    it('a German business: VAT number checked in the form, the invoice without GST, reverse charge and LUT note', async () => {
      const buyer = await portal.server.createUser({ fullName: 'Max Muster' });
      const token = (
        await call('POST', '/auth/login/json', undefined, {
          email: buyer.email,
          password: buyer.password,
        })
      ).access_token as string;
      await call('PUT', '/billing/details', token, {
        name: 'Muster GmbH',
        address_line1: 'Unter den Linden 1',
        city: 'Berlin',
        postal_code: '10117',
        country: 'DE',
        tax_id: 'DE123456789',
      });
      const plans = (await call('GET', '/plans/public', token)) as unknown as { id: string; code: string }[];
      const pro = plans.find((plan) => plan.code === 'pro-monthly');
      const order = await call('POST', '/payments/razorpay/create-order', token, { plan_id: pro?.id });
      expect(order.amount).toBe(84_661);
      const paid = await call(
        'POST',
        `/payments/sandbox/orders/${encodeURIComponent(String(order.order_id))}/complete`,
        token,
        { outcome: 'pay' },
      );
      await call('POST', '/payments/razorpay/verify', token, paid);

      for (const [device, options, scheme] of [
        ['desktop', DESKTOP, 'light'],
        ['phone', PHONE, 'dark'],
      ] as const) {
        const page = await portal.newPage(options);
        await signIn(page, buyer.email, buyer.password);
        await page.goto('/billing');
        await showScheme(page, scheme);
        const vat = page.getByRole('textbox', { name: /VAT number/ });
        await vat.waitFor({ timeout: 30_000 });
        expect(await vat.inputValue()).toBe('DE123456789');
        await vat.fill('DE12345');
        await vat.blur();
        await expect
          .poll(() =>
            page
              .getByText('This is not a VAT number of Germany: it should look like DE123456789')
              .isVisible(),
          )
          .toBe(true);
        await page.mouse.move(0, 0);
        await photograph(page, `tax-billing-form-${device}-${scheme}`, { scheme, fullPage: true });
        await keep(page, `billing-vat-refused-${device}-${scheme}`);

        const details = page.getByRole('button', { name: /^Details of tax invoice INV-/ });
        await details.waitFor({ timeout: 30_000 });
        await details.click();
        const dialog = page.getByRole('dialog', { name: /^Tax invoice INV-/ });
        await expect.poll(() => dialog.getByText(LUT).isVisible()).toBe(true);
        const text = (await dialog.innerText()).replace(/\s+/g, ' ');
        expect(text).toContain('Reverse charge: VAT to be accounted for by the recipient');
        expect(text).toContain('VAT number DE123456789');
        expect(text).toMatch(/Total ₹846\.61/);
        await photograph(page, `tax-invoice-details-${device}-${scheme}`, {
          scheme,
          shows: [dialog],
          accessible: 'decided',
        });
        await keep(page, `invoice-reverse-charge-${device}-${scheme}`, false);
        await page.close();
      }
    });
  },
  { env: { SELLER_TAX_ID: '29AAGCB7383J1Z4', TAX_EXPORT_NOTE: LUT }, timeout: 180_000 },
);
