import type { BrowserContextOptions } from 'playwright-core';
import { expect, it } from 'vitest';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { apiCaller } from './support/api-call.js';

/**
 * Issue 27, point 2, in Chromium: an organisation's 3 seats bought with a 10 % coupon read, on the
 * Billing page, as the invoice itemises them (3 × the list price, the coupon's discount, the tax by
 * kind, the total charged), billed to the organisation with a link to where its details are
 * managed; on a desktop and a phone, light and dark, with axe's checks.
 */

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' };
const PHONE: BrowserContextOptions = {
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  reducedMotion: 'reduce',
};

describePortal(
  'itemised invoices on the Billing page',
  (portal) => {
    const call = apiCaller(portal);
    const tokenOf = async (email: string, password: string) =>
      (await call('POST', '/auth/login/json', undefined, { email, password })).access_token as string;

    it('an organisation’s 3 seats with a coupon: the invoice’s lines, tax and total, and its organisation', async () => {
      const owner = await portal.server.createUser({ fullName: 'Olga Owner' });
      const token = await tokenOf(owner.email, owner.password);
      const admin = await tokenOf(portal.server.admin.email, portal.server.admin.password);
      await call('POST', '/admin/coupons', admin, { code: 'TEAM10', percent_off: 10 });
      const organisation = await call('POST', '/organisations', token, {
        name: 'Acme Labs',
        billing_details: {
          name: 'Acme Labs Private Limited',
          address_line1: '1 Marine Drive',
          city: 'Mumbai',
          postal_code: '400001',
          region: 'Maharashtra',
          country: 'IN',
          tax_id: '27AAPFU0939F1ZV',
        },
      });
      const plans = (await call('GET', '/plans/public', token)) as unknown as { id: string; code: string }[];
      const business = plans.find((plan) => plan.code === 'business-monthly');
      const checkout = await call('POST', '/subscriptions', token, {
        plan_id: business?.id,
        organisation_id: organisation.id,
        seats: 3,
        coupon_code: 'TEAM10',
      });
      const paid = await call(
        'POST',
        `/payments/sandbox/subscriptions/${String(checkout.subscription_id)}/complete`,
        token,
        {
          outcome: 'pay',
        },
      );
      await call('POST', '/subscriptions/verify', token, paid);

      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await portal.newPage(options);
        await signIn(page, owner.email, owner.password);
        await page.goto('/billing');
        const details = page.getByRole('button', { name: /^Details of tax invoice INV-/ });
        // The list loads after the page (a busy machine takes a while).
        await details.waitFor({ timeout: 30_000 });
        await details.click();
        const dialog = page.getByRole('dialog', { name: /^Tax invoice INV-/ });
        await expect.poll(() => dialog.getByText('Coupon TEAM10: 10% off each seat').isVisible()).toBe(true);
        const text = (await dialog.innerText()).replace(/\s+/g, ' ');
        expect(text).toContain('Acme Labs Private Limited');
        expect(text).toMatch(/Business plan, monthly subscription, per seat 3 (×\s)?₹1,499\.00 ₹4,497\.00/);
        expect(text).toMatch(/IGST 18% \(included\) ₹617\.38/);
        expect(text).toMatch(/Total ₹4,047\.30/);
        expect(
          await dialog.getByRole('link', { name: 'Manage its billing details' }).getAttribute('href'),
        ).toBe(`/organisations/${String(organisation.id)}`);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `invoice-details-${device}-${scheme}`, {
            scheme,
            shows: [dialog],
            accessible: 'decided',
          });
        }
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.isVisible()).toBe(false);
        // The pointer off the table: a hovered row is not what the picture is about.
        await page.mouse.move(0, 0);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `invoice-list-${device}-${scheme}`, {
            scheme,
            fullPage: true,
            accessible: true,
          });
        }
      }
    });
  },
  { env: { SELLER_TAX_ID: '29AAGCB7383J1Z4' }, timeout: 180_000 },
);
