import { expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/shared/constants.js';
import { pdfText } from '../server/helpers/invoice-helpers.js';
import { readOutbox } from '../support/outbox.js';
import { describePortal, signIn } from './support/portal.js';
import { buyPro } from './support/purchase.js';

/*
 * Issue 27, points 4 and 5 in Chromium: an administrator refunds part of a payment → the customer
 * reads "Partially refunded ₹300 of ₹999" in their history and gets the refund receipt with the
 * credit note; the administrator's list says the same, and the dashboard shows revenue net of the
 * refund with the gross and the refunded beside it. Every wait is on what the page or the outbox
 * shows, never on a time.
 */

describePortal(
  'refunds and the administrators’ figures',
  (portal) => {
    it('an admin refunds part of a payment → the customer sees it in their history and by mail; the dashboard shows net and gross', async () => {
      const user = await portal.server.createUser({ fullName: 'Ravi Refund' });
      const customer = await portal.newPage();
      await signIn(customer, user.email, user.password);
      await buyPro(customer);
      const { id: paymentId } = await portal.server.app.db
        .selectFrom('payments')
        .innerJoin('users', 'users.id', 'payments.user_id')
        .select('payments.id')
        .where('users.email', '=', user.email)
        .where('payments.status', '=', 'paid')
        .executeTakeFirstOrThrow();

      const { admin } = portal.server;
      const page = await portal.newPage({ viewport: { width: 1440, height: 900 } });
      await signIn(page, admin.email, admin.password);
      await page.goto(`/admin/payments?payment=${paymentId}`);
      const drawer = page.getByRole('dialog', { name: 'Payment details' });
      await drawer.getByText(/Invoice INV-\d{6}/).waitFor();
      await drawer.getByRole('button', { name: 'Refund…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Refund payment' });
      await dialog.getByRole('textbox', { name: /Amount/ }).fill('300');
      await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
      await page.getByText(/^₹300\.00 refunded; credit note CN-\d{6} issued\.$/).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      // The drawer's status reads the refund.
      await drawer.getByText('Partially refunded ₹300 of ₹999').waitFor();

      // The administrators' list says the same of the payment.
      await page.goto(`/admin/payments?${new URLSearchParams({ search: user.email })}`);
      const adminRow = page
        .getByRole('table', { name: 'Payments' })
        .getByRole('row')
        .filter({ hasText: user.email });
      await adminRow.getByText('Partially refunded ₹300 of ₹999').waitFor();

      // The customer's history.
      await customer.goto('/purchase');
      const history = customer.getByRole('table', { name: 'Your payments' });
      await history.getByText('Partially refunded ₹300 of ₹999').waitFor();
      expect(await history.getByText('Paid', { exact: true }).count()).toBe(0);

      // The refund receipt, with the credit note's PDF: the outbox is drained, then read.
      await portal.server.app.mailOutbox.drain();
      const mails = (await readOutbox(portal.server.outboxDir)).filter(
        (mail) => mail.to.includes(user.email) && mail.subject.startsWith(`Your ${PRODUCT_NAME} refund`),
      );
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      const number = /CN-\d{6}/.exec(mail!.subject)?.[0];
      expect(number, mail!.subject).toBeDefined();
      expect(mail!.text).toContain('We refunded ₹300.00 of your ₹999.00 payment');
      const [file] = mail!.attachments;
      expect(file).toMatchObject({ filename: `credit-note-${number}.pdf`, mimeType: 'application/pdf' });
      const text = await pdfText(file!.content);
      expect(text).toContain(number);
      expect(text).toContain('Partial refund of invoice');

      // The dashboard: this is the server's only payment, so revenue is ₹699 net of ₹999 gross.
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const revenue = page.getByRole('region', { name: 'Revenue', exact: true });
      await revenue.getByText('₹699', { exact: true }).waitFor();
      await revenue.getByText('₹999 gross · ₹300 refunded').waitFor();
      await revenue.getByText('net of refunds, all time, from 1 paid payment').waitFor();
    });
  },
  { timeout: 180_000 },
);
