import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { blockingViolations, describeViolation, installAxe } from './support/axe.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { seedCustomer, seedSubscription } from './support/seed.js';
import { DEVICES } from './support/signed-in-pages.js';

/**
 * Issue 15, item 7 in the browser: an administrator finds a customer's subscription, reads its
 * charges and invoices in the drawer, follows a charge to its payment (where refunds are made),
 * cancels it by keyboard with a reason, and sees the overview's subscription figures; on a desktop
 * and a phone, light and dark, with axe-core on each.
 */

async function expectAccessible(page: Page, label: string) {
  const violations = await blockingViolations(page, label);
  expect(violations, violations.map(describeViolation).join('\n')).toEqual([]);
}

/** No part of the page is wider than the screen (no sideways scroll on a phone). */
const overflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

describePortal(
  'the admin Subscriptions screen and the overview’s subscription figures',
  (portal) => {
    it('list → drawer with charges and invoices → the charge’s payment → cancel by keyboard with a reason → overview figures', async () => {
      const customer = await seedCustomer(portal.server, { fullName: 'Sam Subscriber' });
      const subscriptionId = await seedSubscription(portal.server, customer, 'pro-monthly');
      const { admin } = portal.server;

      // The phone first: the desktop pass then cancels the subscription.
      for (const device of DEVICES.toReversed()) {
        const page = await portal.newPage({
          ...device.options,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        await installAxe(page.context());
        await signIn(page, admin.email, admin.password);

        // The navigation leads there (on a phone, through the menu).
        await page.goto(`/admin/subscriptions?search=${encodeURIComponent(customer.email)}`);
        await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
        // A table on a desktop, a list of cards on a phone.
        const table = page
          .getByRole('table', { name: 'Subscriptions' })
          .or(page.getByRole('list', { name: 'Subscriptions' }));
        await table.getByText(customer.email).first().waitFor();
        await expect.poll(() => table.getByText('Active').count()).toBe(1);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-subscriptions-${device.name}-${scheme}`, { scheme });
          await expectAccessible(page, `admin-subscriptions ${device.name} ${scheme}`);
          expect(await overflow(page), `${device.name} ${scheme}: sideways scroll`).toBeLessThanOrEqual(0);
        }
        await page.emulateMedia({ colorScheme: 'light' });

        // By keyboard: focus View, Enter opens the drawer.
        const view = page.getByRole('button', { name: `View the subscription of ${customer.email} to Pro` });
        await view.focus();
        await page.keyboard.press('Enter');
        const drawer = page.getByRole('dialog', { name: 'Subscription details' });
        await drawer.getByRole('heading', { name: 'Charges' }).waitFor();
        const refundLink = drawer.getByRole('link', { name: /^Refund or view the payment of/ });
        await refundLink.waitFor();
        await drawer.getByText(/^INV-/).first().waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-subscription-drawer-${device.name}-${scheme}`, { scheme });
          await expectAccessible(page, `admin-subscription-drawer ${device.name} ${scheme}`);
        }
        await page.emulateMedia({ colorScheme: 'light' });
        if (device.name === 'phone') continue;

        // The charge's payment drawer is where refunds are made.
        await refundLink.click();
        const payment = page.getByRole('dialog', { name: 'Payment details' });
        await payment
          .getByRole('button', { name: /^Refund/ })
          .first()
          .waitFor();
        await page.goBack();
        await drawer.getByRole('heading', { name: 'Charges' }).waitFor();

        // Cancel by keyboard: the dialog needs a reason, then ends the subscription now.
        await drawer.getByRole('button', { name: 'Cancel subscription…' }).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Cancel subscription?' });
        await dialog.getByRole('textbox', { name: /Reason/ }).waitFor();
        await photograph(page, `admin-subscription-cancel-${device.name}-light`, {
          scheme: 'light',
          shows: [
            dialog.getByRole('textbox', { name: /Reason/ }),
            dialog.getByRole('radio', { name: /^Now/ }),
          ],
        });
        await expectAccessible(page, `admin-subscription-cancel ${device.name}`);
        await dialog.getByRole('radio', { name: /^Now/ }).check();
        await dialog.getByRole('textbox', { name: /Reason/ }).fill('Asked by phone to stop now');
        await dialog.getByRole('button', { name: 'Cancel now' }).focus();
        await page.keyboard.press('Enter');
        await dialog.waitFor({ state: 'hidden' });
        await drawer.getByText('Ended', { exact: true }).waitFor();
        await expect.poll(() => table.getByText('Canceled').count()).toBe(1);
        const event = await portal.server.app.db
          .selectFrom('security_events')
          .select(['actor_id', 'details'])
          .where('type', '=', 'subscription_cancelled')
          .executeTakeFirstOrThrow();
        expect(JSON.parse(event.details ?? '{}')).toMatchObject({
          subscription_id: subscriptionId,
          at: 'now',
          reason: 'Asked by phone to stop now',
        });
      }

      // The overview: one call, the subscription figures among the others (a second customer's
      // yearly subscription is live; the first one's ended above).
      const other = await seedCustomer(portal.server, { fullName: 'Yael Yearly' });
      await seedSubscription(portal.server, other, 'pro-yearly');
      const page = await portal.newPage({ colorScheme: 'light', reducedMotion: 'reduce' });
      await signIn(page, admin.email, admin.password);
      const calls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/v1/admin/dashboard')) calls.push(request.url());
      });
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const churn = page.getByRole('region', { name: 'Churn, last 30 days' });
      await churn.waitFor();
      await page.getByRole('region', { name: 'Monthly recurring revenue' }).waitFor();
      await page.getByRole('region', { name: 'Failed payments' }).waitFor();
      await expect
        .poll(() => page.getByRole('region', { name: 'Monthly recurring revenue' }).textContent())
        .toMatch(/₹[\d,.]+.*from 1 subscription billed/);
      expect(await page.getByRole('region', { name: 'Active subscriptions' }).textContent()).toMatch(
        /1paid up now/,
      );
      for (const scheme of ['light', 'dark'] as const) {
        await showScheme(page, scheme);
        await photograph(page, `admin-overview-subscriptions-${scheme}`, {
          scheme,
          fullPage: true,
          accessible: true,
        });
      }
      expect(calls).toHaveLength(1);
    });
  },
  { timeout: 180_000 },
);
