import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatMoney } from '../../src/server/platform/mail/formatting.js';
import { readOutbox } from '../support/outbox.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn, watchPage } from './support/portal.js';

/**
 * Issue 27, point 1, in Chromium on the sandbox: Pro yearly moved to Pro monthly keeps credit; the
 * card shows it, the cancel dialog says before confirming that it is refunded, and cancelling
 * refunds it with a credit note that the mail and the Billing page show. The plan change goes
 * through a kept quote whose validity the dialog states (point 6).
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 375, height: 812 } },
] as const;

describePortal(
  'the credit kept from a cheaper plan, refunded on cancelling, in the browser',
  (portal) => {
    const db = () => portal.server.app.db;

    /** The cancel dialog at both widths and in both schemes, checked (axe on what it can decide). */
    async function photographDialog(page: Page) {
      const dialog = page.getByRole('dialog', { name: 'Cancel Pro?' });
      for (const size of SIZES) {
        await page.setViewportSize(size.viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `cancel-credit-dialog-${size.name}-${scheme}`, {
            scheme,
            shows: [dialog.getByTestId('cancel-credit')],
            accessible: 'decided',
          });
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    it('Pro yearly → Pro monthly keeps credit → cancelling refunds it with a credit note, said before and after', async () => {
      const user = await portal.server.createUser({ fullName: 'Kiran Creditkeeper' });
      const context = await portal.newContext({
        viewport: { width: 1440, height: 900 },
        colorScheme: 'light',
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      watchPage(page);
      await signIn(page, user.email, user.password);

      await page.goto('/purchase');
      const yearlyPlan = page.getByRole('article', { name: 'Pro (yearly)', exact: true });
      await yearlyPlan.getByRole('button', { name: /^Subscribe — ₹9,990 \/ year/ }).click();
      const checkout = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await checkout.getByRole('button', { name: 'Pay', exact: true }).click();
      await checkout.waitFor({ state: 'hidden' });
      await page
        .getByRole('heading', { name: /^Subscribed: your Pro \(yearly\) license is ready/ })
        .waitFor();

      // Move to monthly: the quote says until when its price holds; nothing is due now.
      await page.goto('/subscriptions');
      const yearly = page.getByRole('article', { name: 'Pro (yearly)', exact: true });
      await yearly.getByRole('button', { name: 'Switch to monthly…' }).click();
      const change = page.getByRole('dialog', { name: 'Switch to monthly: Pro (yearly)' });
      const validity = change.getByTestId('plan-change-quote-validity');
      await validity.waitFor();
      expect(await validity.innerText()).toMatch(
        /^This price holds for 10 minutes, until .+: confirm by then/,
      );
      const moved = page.waitForResponse(
        (response) => response.url().endsWith('/plan') && response.request().method() === 'POST',
      );
      await change.getByRole('button', { name: 'Change plan' }).click();
      const movedAnswer = (await (await moved).json()) as { credit_minor: number };
      await change.waitFor({ state: 'hidden' });
      const credit = movedAnswer.credit_minor;
      expect(credit).toBeGreaterThan(0);
      const rupees = formatMoney(credit, 'INR');

      const monthly = page.getByRole('article', { name: 'Pro', exact: true });
      await expect
        .poll(() => monthly.getByTestId('kept-credit').innerText())
        .toBe(`${rupees}, taken off the next charges (refunded if you cancel)`);

      // The cancel dialog says what happens to the credit before confirming.
      await monthly.getByRole('button', { name: 'Cancel subscription…' }).click();
      const cancel = page.getByRole('dialog', { name: 'Cancel Pro?' });
      expect(await cancel.getByTestId('cancel-credit').innerText()).toContain(
        `Your kept credit of ${rupees} is refunded to the payment method you paid with, with a credit note on the Billing page`,
      );
      await photographDialog(page);
      await cancel.getByRole('button', { name: 'Cancel at period end' }).click();
      await cancel.waitFor({ state: 'hidden' });
      await expect.poll(() => monthly.getByTestId('kept-credit').innerText()).toBe('None');

      // Refunded from the yearly charge, with its credit note; the mail names it.
      const refunds = await db()
        .selectFrom('refunds')
        .innerJoin('payments', 'payments.id', 'refunds.payment_id')
        .innerJoin('users', 'users.id', 'payments.user_id')
        .leftJoin('invoices', 'invoices.refund_id', 'refunds.id')
        .select([
          'refunds.amount_minor',
          'refunds.status',
          'invoices.number',
          'payments.amount_minor as paid',
        ])
        .where('users.email', '=', user.email)
        .execute();
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ amount_minor: credit, status: 'processed', paid: 999_000 });
      const creditNote = refunds[0]?.number;
      expect(creditNote).toBeTruthy();
      await expect
        .poll(async () =>
          (await readOutbox(portal.server.outboxDir)).some(
            (mail) =>
              mail.to.includes(user.email) &&
              mail.text.includes(
                `The credit kept from your earlier move to a cheaper plan, ${rupees}, is refunded`,
              ),
          ),
        )
        .toBe(true);

      await page.goto('/billing');
      await page
        .getByText(creditNote as string)
        .first()
        .waitFor();
    });
  },
  { timeout: 240_000 },
);
