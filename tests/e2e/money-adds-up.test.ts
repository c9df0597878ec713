import { expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/shared/constants.js';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { pdfText } from '../server/helpers/invoice-helpers.js';
import { readOutbox } from '../support/outbox.js';
import { WEB_API_KEY } from '../support/test-server.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';

/**
 * Issue 27's first "must show", in Chromium on the sandbox: an organization buys 3 Business seats
 * (₹1,499 each a month) with a 10 % coupon that recurs, and every place the money is written agrees
 * to the paisa: the success panel, the invoice PDF (read with pdftotext), the receipt mail and the
 * administrators' MRR. 3 × ₹1,349.10 = ₹4,047.30, of which 18 % GST included is ₹617.38, split
 * CGST + SGST because the buyer is in the seller's state (Karnataka). The downgrade-and-cancel
 * credit refund is shown by cancel-credit-flow.test.ts, the partial refund's mail and history by
 * refunds-and-figures.test.ts.
 */

const TOTAL = '₹4,047.30';
const HALF_TAX = '₹308.69';

describePortal(
  'money that adds up: an organization’s seats with a coupon, from checkout to MRR',
  (portal) => {
    /** A call to the API as the portal makes it (in-process), answering its JSON. */
    async function call(method: 'GET' | 'POST', path: string, token?: string, body?: object) {
      const response = await portal.server.app.inject({
        method,
        url: `${API_BASE_PATH}${path}`,
        headers: { 'x-api-key': WEB_API_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { payload: body }),
      });
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
      return response;
    }
    const tokenOf = async (email: string, password: string) =>
      (await call('POST', '/auth/login/json', undefined, { email, password })).json<{
        access_token: string;
      }>().access_token;

    it('3 seats with a 10% coupon: the success panel, the invoice PDF, the receipt mail and the MRR agree', async () => {
      const { server } = portal;
      const admin = await tokenOf(server.admin.email, server.admin.password);
      await call('POST', '/admin/coupons', admin, { code: 'TEAM10', percent_off: 10, duration: 'forever' });
      const owner = await server.createUser({ fullName: 'Meera Money' });
      const ownerToken = await tokenOf(owner.email, owner.password);
      await call('POST', '/organisations', ownerToken, {
        name: 'Sums Right',
        billing_details: {
          name: 'Sums Right Private Limited',
          address_line1: '12 MG Road',
          city: 'Bengaluru',
          postal_code: '560001',
          region: 'Karnataka',
          country: 'IN',
          tax_id: null,
        },
      });

      // The owner applies the coupon to Business and buys 3 seats for the organization.
      const page = await portal.newPage({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
      await signIn(page, owner.email, owner.password);
      await page.goto('/purchase');
      await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
      await page.getByRole('button', { name: 'I have a coupon' }).click();
      const field = page.getByRole('form', { name: 'Coupon' });
      await field.getByRole('combobox', { name: 'Apply to' }).selectOption({ label: 'Business' });
      await field.getByRole('textbox', { name: 'Coupon code' }).fill('TEAM10');
      await field.getByRole('button', { name: 'Apply' }).click();
      await page.getByTestId('coupon-applied').waitFor();
      await page
        .getByRole('article', { name: 'Business', exact: true })
        .getByRole('button', { name: 'Buy for an organization' })
        .click();
      const choose = page.getByRole('dialog', { name: 'Buy Business for an organization' });
      await expect.poll(() => choose.getByLabel('Organization').first().inputValue()).toBe('Sums Right');
      await choose.getByRole('textbox', { name: 'Seats' }).fill('3');
      await expect
        .poll(() => choose.getByTestId('organisation-total').innerText())
        .toMatch(/^3 seats: ₹4,047\.30/);
      await choose.getByRole('button', { name: 'Continue to payment' }).click();
      const sandbox = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await sandbox.getByRole('button', { name: 'Pay', exact: true }).click();
      await sandbox.waitFor({ state: 'hidden' });

      // The success panel: line by line what was charged today, and the next charge.
      const success = page.getByRole('region', { name: /^Subscribed: your Business license is ready/ });
      await success.waitFor();
      const lines = (await success.getByTestId('charge-lines').innerText()).replace(/\s+/g, ' ');
      expect(lines).toContain('3 seats × ₹1,499');
      expect(lines).toContain('Coupon TEAM10 −₹449.70');
      expect(lines).toContain('After the coupon 3 seats × ₹1,349.10');
      expect(lines).toContain(`Including CGST 9% ${HALF_TAX}`);
      expect(lines).toContain(`Including SGST 9% ${HALF_TAX}`);
      expect(await success.getByTestId('charged-today').innerText()).toBe(TOTAL);
      expect(await success.getByTestId('subscription-charged').innerText()).toBe(
        `${TOTAL} charged today for Business; ${TOTAL} / month, renewed automatically until you cancel.`,
      );
      expect(await success.getByTestId('next-charge').innerText()).toMatch(/^Next charge: ₹4,047\.30 on /);
      // The owner is sent to activate with their seat, never shown the organization's key.
      await success
        .getByRole('link', { name: /Activate on this machine/ })
        .or(success.getByRole('button', { name: /Activate on this machine/ }))
        .first()
        .waitFor();
      const licenseKey = (
        await server.app.db
          .selectFrom('licenses')
          .innerJoin('organisations', 'organisations.id', 'licenses.organisation_id')
          .select('licenses.license_key')
          .where('organisations.name', '=', 'Sums Right')
          .executeTakeFirstOrThrow()
      ).license_key;
      expect(await success.innerText()).not.toContain(licenseKey);
      // The panel at a desktop's and a phone's width, light and dark, with axe's checks.
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `organization-success-${viewport.width}-${scheme}`, {
            scheme,
            shows: [success],
            accessible: 'decided',
          });
        }
      }

      // The invoice as a PDF: the organization is the buyer, 3 × the list price, the coupon, the tax.
      const [invoice] = (await call('GET', '/billing/invoices', ownerToken)).json<{
        data: { id: string; number: string }[];
      }>().data;
      expect(invoice).toBeDefined();
      const pdf = await pdfText(
        (await call('GET', `/billing/invoices/${invoice!.id}/pdf`, ownerToken)).rawPayload,
      );
      const flat = pdf.replace(/[ \t]+/g, ' ');
      expect(flat).toContain('Sums Right Private Limited');
      expect(flat).toMatch(
        /Business plan, monthly subscription, per seat 3 (INR|₹) ?1,499\.00 (INR|₹) ?4,497\.00/,
      );
      expect(flat).toMatch(/Coupon TEAM10: 10% off each seat 3 -?(INR|₹) ?-?149\.90 -?(INR|₹) ?-?449\.70/);
      expect(flat).toMatch(/CGST 9% .*308\.69/);
      expect(flat).toMatch(/SGST 9% .*308\.69/);
      expect(flat).toMatch(/Total .*4,047\.30/);

      // The receipt mail says the same and carries that invoice.
      await server.app.mailOutbox.drain();
      const receipts = (await readOutbox(server.outboxDir)).filter(
        (mail) =>
          mail.to.includes(owner.email) && mail.subject === `Your ${PRODUCT_NAME} receipt ${invoice!.number}`,
      );
      expect(receipts).toHaveLength(1);
      const receipt = receipts[0]!;
      expect(receipt.text).toContain(TOTAL);
      expect(receipt.text).toContain(HALF_TAX);
      expect(receipt.attachments.map((file) => file.mimeType)).toEqual(['application/pdf']);
      expect(await pdfText(receipt.attachments[0]!.content)).toBe(pdf);

      // The administrators' MRR: this is the portal's only subscription, and its coupon recurs.
      const adminPage = await portal.newPage({ viewport: { width: 1440, height: 900 } });
      await signIn(adminPage, server.admin.email, server.admin.password);
      await adminPage.goto('/admin');
      await adminPage.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const mrr = adminPage.getByRole('region', { name: 'Monthly recurring revenue' });
      await mrr.getByText(TOTAL, { exact: true }).waitFor();
      await mrr.getByText(/from 1 subscription billed/).waitFor();
    });
  },
  { env: { SELLER_TAX_ID: '29AAGCB7383J1Z4' }, timeout: 180_000 },
);
