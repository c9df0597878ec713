import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { SubscriptionCheckout } from '../../src/shared/api/subscriptions.js';
import { blockingViolations, COLOUR_RULES, describeViolation, installAxe } from './support/axe.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, type Portal, signIn, watchPage } from './support/portal.js';

/**
 * Issue 15, point 5 in the portal: an administrator makes a 20% coupon on the Coupons screen, a
 * customer applies it to Pro (₹999 a month) on Purchase, sees the price before and after, and the
 * subscription's first charge is the discounted amount. Both screens photographed at 1440×900
 * and 390×844, light and dark.
 */

const CODE = 'SPRING20';
const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** A page with axe-core loaded in every document (the portal's CSP refuses a script tag). */
async function axePage(portal: Portal): Promise<Page> {
  const context = await portal.newContext({ viewport: SIZES[0].viewport, reducedMotion: 'reduce' });
  await installAxe(context);
  const page = await context.newPage();
  watchPage(page);
  return page;
}

/** Photographs the screen at both sizes, light and dark, with no serious or critical axe violation. */
async function photographAll(page: Page, name: string) {
  const problems: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await showScheme(page, scheme);
      // The scheme applied, no sideways scrolling on a phone (photograph checks both).
      await photograph(page, `${name}-${size.name}-${scheme}`, { scheme, fullPage: true });
      const rules = scheme === 'light' ? undefined : COLOUR_RULES;
      for (const violation of await blockingViolations(page, `${name} ${size.name} ${scheme}`, rules))
        problems.push(`${size.name} ${scheme}: ${describeViolation(violation)}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(SIZES[0].viewport);
  expect(problems, problems.join('\n\n')).toEqual([]);
}

describePortal(
  'coupons: made by an administrator, applied by a customer at checkout',
  (portal) => {
    it('a 20% coupon takes 20% off the first charge of Pro monthly', async () => {
      const { server } = portal;
      const admin = await axePage(portal);
      await signIn(admin, server.admin.email, server.admin.password);
      await admin.getByRole('navigation').getByRole('link', { name: 'Coupons' }).first().click();
      await admin.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();

      await admin.getByRole('button', { name: 'New coupon' }).first().click();
      const dialog = admin.getByRole('dialog', { name: 'New coupon' });
      await dialog.getByRole('textbox', { name: 'Code' }).fill(CODE.toLowerCase());
      await dialog.getByRole('textbox', { name: 'Percentage off' }).fill('20');
      await dialog.getByRole('textbox', { name: 'Description' }).fill('Spring sale');
      await dialog.getByRole('textbox', { name: 'Redemption limit' }).fill('100');
      await photographAll(admin, 'coupons-admin-new');
      await dialog.getByRole('button', { name: 'Create coupon' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const row = admin.getByRole('row').filter({ hasText: CODE });
      await row.waitFor();
      expect(await row.innerText()).toMatch(
        /20% off[\s\S]*First charge[\s\S]*Never[\s\S]*0 of 100[\s\S]*Active/,
      );
      await photographAll(admin, 'coupons-admin');

      const customer = await server.createUser({ fullName: 'Cora Coupon' });
      const page = await axePage(portal);
      await signIn(page, customer.email, customer.password);
      await page.goto('/purchase');
      await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
      await page.getByRole('button', { name: 'I have a coupon' }).click();
      const field = page.getByRole('form', { name: 'Coupon' });
      await field.getByRole('combobox', { name: 'Apply to' }).selectOption({ label: 'Pro' });
      // Typed in lower case: codes are read in any case.
      await field.getByRole('textbox', { name: 'Coupon code' }).fill(CODE.toLowerCase());
      await field.getByRole('button', { name: 'Apply' }).click();
      const applied = page.getByTestId('coupon-applied');
      await applied.waitFor();
      expect(await applied.innerText()).toBe(`${CODE} on Pro: ₹999 → ₹799.20 first month (Spring sale)`);
      const subscribe = page
        .getByRole('article', { name: 'Pro', exact: true })
        .getByRole('button', { name: 'Subscribe — ₹799.20 first month' });
      await subscribe.waitFor();
      await photographAll(page, 'coupons-purchase');

      const opened = page.waitForResponse(
        (response) =>
          response.url().endsWith('/api/v1/subscriptions') && response.request().method() === 'POST',
      );
      await subscribe.click();
      const answer = await opened;
      expect(answer.request().postDataJSON()).toMatchObject({ coupon_code: CODE });
      const checkout = (await answer.json()) as SubscriptionCheckout;
      expect(checkout.amount).toBe(79_920);
      const sandbox = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await sandbox.getByText('₹799.20').first().waitFor();
      await sandbox.getByRole('button', { name: 'Pay', exact: true }).click();
      await sandbox.waitFor({ state: 'hidden' });

      // The charge taken is the discounted one, and the coupon counts one redemption.
      const user = await server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', customer.email)
        .executeTakeFirstOrThrow();
      const payments = await server.app.db
        .selectFrom('payments')
        .select(['amount_minor', 'status'])
        .where('user_id', '=', user.id)
        .execute();
      expect(payments).toEqual([{ amount_minor: 79_920, status: 'paid' }]);
      await admin.reload();
      await admin.getByRole('row').filter({ hasText: CODE }).filter({ hasText: '1 of 100' }).waitFor();
    });
  },
  { timeout: 180_000 },
);
