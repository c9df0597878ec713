import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { pdfText } from '../server/helpers/invoice-helpers.js';
import { blockingViolations, describeViolation, installAxe } from './support/axe.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { buyPro } from './support/purchase.js';

/**
 * Issue 15, item 4 in the browser: billing details (the GSTIN checked as it is typed) → a plan
 * bought in the sandbox → its invoice on /billing → the PDF downloaded and its text read.
 */

const GSTIN = '27AAPFU0939F1ZV';

/** No serious or critical axe-core violation in what the page shows now. */
async function expectAccessible(page: Page, label: string) {
  const violations = await blockingViolations(page, label);
  expect(violations, violations.map(describeViolation).join('\n')).toEqual([]);
}

describePortal(
  'billing details, a purchase and its invoice PDF',
  (portal) => {
    it('fill billing details → buy a plan on the sandbox → download the invoice PDF and read its text', async () => {
      const user = await portal.server.createUser({ fullName: 'Asha Rao' });
      const page = await portal.newPage({ acceptDownloads: true });
      await signIn(page, user.email, user.password);

      await page.getByRole('link', { name: 'Billing' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
      const form = page
        .locator('form')
        .filter({ has: page.getByRole('heading', { name: 'Billing details' }) });
      await form.getByRole('textbox', { name: 'Billing name' }).fill('Asha Rao Consulting');
      await form.getByRole('textbox', { name: 'Address', exact: true }).fill('4 Park Street');
      await form.getByRole('textbox', { name: 'City' }).fill('Kolkata');
      await form.getByRole('textbox', { name: 'PIN code' }).fill('700016');
      // India's state is chosen from the GST list, each with its GST code.
      await form.getByRole('combobox', { name: 'State' }).selectOption('West Bengal');
      expect(await form.getByRole('combobox', { name: 'State' }).inputValue()).toBe('West Bengal');
      expect(await form.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('IN');

      // A mistyped GSTIN is refused as soon as the field is left, saying what is wrong.
      const gstin = form.getByRole('textbox', { name: 'GSTIN' });
      await gstin.fill('27AAPFU0939F1ZX');
      await gstin.blur();
      await form.getByText('check character does not match', { exact: false }).waitFor();
      expect(await gstin.getAttribute('aria-invalid')).toBe('true');
      await gstin.fill(GSTIN);
      await gstin.blur();
      await expect.poll(() => gstin.getAttribute('aria-invalid')).not.toBe('true');
      await form.getByRole('button', { name: 'Save billing details' }).click();
      await page.getByText('Billing details saved').waitFor();

      await buyPro(page);

      await page.goto('/billing');
      const table = page.getByRole('table', { name: 'Your invoices' });
      const download = table.getByRole('button', { name: /^Download PDF of invoice INV-\d{6}$/ });
      await download.waitFor();
      const number = /INV-\d{6}/.exec((await download.getAttribute('aria-label')) ?? '')?.[0];
      expect(number).toBeDefined();
      expect(await table.getByRole('row').filter({ hasText: number! }).innerText()).toContain('999');

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toBe(`${number}.pdf`);
      const text = await pdfText(await readFile((await file.path())!));
      expect(text).toContain(number);
      expect(text).toMatch(/Total\s+INR 999\.00/);
      expect(text).toMatch(/GST 18% \(included\)\s+INR 152\.39/);
      expect(text).toContain(`GSTIN: ${GSTIN}`);
      expect(text).toContain('Asha Rao Consulting');
      expect(text).toContain('700016 Kolkata');
    });

    it('/billing at 1440×900 and 390×844, light and dark, keyboard-reachable, no sideways scroll on a phone', async () => {
      const user = await portal.server.createUser({ fullName: 'Screen Shot' });
      for (const device of [
        { name: 'desktop', options: { viewport: { width: 1440, height: 900 } } },
        {
          name: 'phone',
          options: {
            viewport: { width: 390, height: 844 },
            isMobile: true,
            hasTouch: true,
            deviceScaleFactor: 2,
          },
        },
      ]) {
        const page = await portal.newPage({
          ...device.options,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        await installAxe(page.context());
        await signIn(page, user.email, user.password);
        if (device.name === 'desktop') await buyPro(page);
        await page.goto('/billing');
        await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
        await page
          .getByRole('button', { name: /^Download PDF of invoice INV-/ })
          .first()
          .waitFor();
        // The download button is reached with Tab from the page's start.
        let reached = false;
        for (let step = 0; step < 60 && !reached; step++) {
          await page.keyboard.press('Tab');
          reached = await page.evaluate<boolean>(
            "(document.activeElement?.getAttribute('aria-label') ?? '').startsWith('Download PDF of invoice')",
          );
        }
        expect(reached, `${device.name}: the PDF download is reachable by keyboard`).toBe(true);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `billing-${device.name}-${scheme}`, { scheme, fullPage: true });
          await expectAccessible(page, `billing ${device.name} ${scheme}`);
        }
        const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
          '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
        );
        expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      }
    });

    it('an administrator refunds part of a payment from its drawer: credit note issued, license revoked, on the customer’s /billing', async () => {
      const user = await portal.server.createUser({ fullName: 'Rita Refund' });
      const customer = await portal.newPage();
      await signIn(customer, user.email, user.password);
      await buyPro(customer);
      const { id: paymentId } = await portal.server.app.db
        .selectFrom('payments')
        .innerJoin('users', 'users.id', 'payments.user_id')
        .select('payments.id')
        .where('users.email', '=', user.email)
        .executeTakeFirstOrThrow();

      const { admin } = portal.server;
      for (const device of [
        { name: 'desktop', options: { viewport: { width: 1440, height: 900 } } },
        {
          name: 'phone',
          options: {
            viewport: { width: 390, height: 844 },
            isMobile: true,
            hasTouch: true,
            deviceScaleFactor: 2,
          },
        },
      ]) {
        const page = await portal.newPage({
          ...device.options,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        await installAxe(page.context());
        await signIn(page, admin.email, admin.password);
        await page.goto(`/admin/payments?payment=${paymentId}`);
        const drawer = page.getByRole('dialog', { name: 'Payment details' });
        await drawer.getByRole('heading', { name: 'Invoice and refunds' }).waitFor();
        await drawer.getByText(/Invoice INV-\d{6}/).waitFor();
        if (device.name === 'phone') {
          // After the desktop's partial refund: its credit note is listed, and the rest is refundable.
          await drawer.getByText(/Credit note CN-\d{6}/).waitFor();
          await drawer.getByText('₹500.00 refunded · ₹499.00 refundable').waitFor();
        }
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-payment-refunds-${device.name}-${scheme}`, { scheme });
          await expectAccessible(page, `admin-payment-refunds ${device.name} ${scheme}`);
        }
        await drawer.getByRole('button', { name: 'Refund…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Refund payment' });
        await dialog.waitFor();
        const amount = dialog.getByRole('textbox', { name: /Amount/ });
        if (device.name === 'phone') {
          // What is left, offered in full; looked at, then cancelled.
          expect(await amount.inputValue()).toBe('499.00');
          for (const scheme of ['light', 'dark'] as const) {
            await showScheme(page, scheme);
            await photograph(page, `admin-refund-dialog-phone-${scheme}`, { scheme, shows: [amount] });
            await expectAccessible(page, `admin-refund-dialog phone ${scheme}`);
          }
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'hidden' });
          break;
        }
        expect(await amount.inputValue()).toBe('999.00');
        // More than was paid is refused before anything is sent; then a part of it.
        await amount.fill('1000');
        await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
        await dialog.getByText('Enter an amount from ₹0.01 to ₹999.00').waitFor();
        await amount.fill('500');
        // Revoking needs a reason: refused before anything is sent.
        await dialog.getByRole('radio', { name: 'Revoke the license' }).check();
        await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
        await dialog.getByText('Give a reason to revoke the license').waitFor();
        await dialog.getByRole('textbox', { name: 'Reason' }).fill('Bought by mistake');
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-refund-dialog-${device.name}-${scheme}`, { scheme });
          await expectAccessible(page, `admin-refund-dialog ${device.name} ${scheme}`);
        }
        await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
        await page.getByText(/^₹500\.00 refunded; credit note CN-\d{6} issued\.$/).waitFor();
        await dialog.waitFor({ state: 'hidden' });
        await drawer.getByText(/Credit note CN-\d{6}/).waitFor();
      }

      const license = await portal.server.app.db
        .selectFrom('licenses')
        .innerJoin('users', 'users.id', 'licenses.user_id')
        .select(['licenses.status', 'licenses.revoked_reason'])
        .where('users.email', '=', user.email)
        .executeTakeFirstOrThrow();
      expect(license).toEqual({ status: 'revoked', revoked_reason: 'Bought by mistake' });

      // The customer sees the credit note beside the invoice, with its own PDF.
      await customer.goto('/billing');
      await customer.getByRole('button', { name: /^Download PDF of credit note CN-\d{6}$/ }).waitFor();

      // The administrator finds both in the customer's details, each with its PDF.
      for (const device of [
        { name: 'desktop', options: { viewport: { width: 1440, height: 900 } } },
        {
          name: 'phone',
          options: {
            viewport: { width: 390, height: 844 },
            isMobile: true,
            hasTouch: true,
            deviceScaleFactor: 2,
          },
        },
      ]) {
        const page = await portal.newPage({
          ...device.options,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        await installAxe(page.context());
        await signIn(page, admin.email, admin.password);
        await page.goto(`/admin/users?${new URLSearchParams({ search: user.email })}`);
        await page.getByRole('button', { name: `Details of ${user.email}` }).click();
        const drawer = page.getByRole('dialog', { name: /^User details/ });
        const section = drawer.getByRole('region', { name: 'Invoices and credit notes' });
        await section.getByRole('button', { name: /^Download PDF of credit note CN-\d{6}$/ }).waitFor();
        await section.getByRole('button', { name: /^Download PDF of invoice INV-\d{6}$/ }).waitFor();
        await section.scrollIntoViewIfNeeded();
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-customer-invoices-${device.name}-${scheme}`, { scheme });
          await expectAccessible(page, `admin-customer-invoices ${device.name} ${scheme}`);
        }
      }
    });
  },
  { timeout: 120_000 },
);
