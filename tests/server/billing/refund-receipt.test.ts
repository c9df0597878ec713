import { expect, it } from 'vitest';
import { paymentRefundsSchema } from '../../../src/shared/api/invoices.js';
import { paymentListSchema } from '../../../src/shared/api/payments.js';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin, type SignedIn } from '../helpers/admin-helpers.js';
import { buyInSandbox, pdfText } from '../helpers/invoice-helpers.js';
import { member } from '../helpers/license-helpers.js';

/*
 * Issue 27, point 4: an administrator's partial refund mails the customer a refund receipt with the
 * credit note attached (the mail as the outbox wrote it, the PDF read with pdftotext), and the
 * payment says what was refunded of it in the customer's history.
 */

const refund = async (s: TestServer, admin: SignedIn, paymentId: string, body: unknown) => {
  const response = await s.api({
    method: 'POST',
    path: `/payments/admin/payments/${paymentId}/refunds`,
    token: admin.token,
    body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return paymentRefundsSchema.parse(response.json());
};

const refundMails = async (s: TestServer, email: string) =>
  (await s.outbox()).filter(
    (mail) => mail.to.includes(email) && mail.subject.startsWith(`Your ${PRODUCT_NAME} refund`),
  );

describeOnEveryDatabase('refund receipts', (server) => {
  it('a partial refund mails a receipt with its credit note PDF; the history says how much is refunded', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    const { payment } = await buyInSandbox(s, buyer.token);
    expect(payment.amount).toBe(99_900);
    expect(await refundMails(s, buyer.email)).toEqual([]);

    const answer = await refund(s, admin, payment.id, { amount: 30_000, license_action: 'keep' });
    const note = answer.refunds[0]!.credit_note!;
    const invoice = answer.invoice!;

    const [mail, ...more] = await refundMails(s, buyer.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Your ${PRODUCT_NAME} refund ${note.number}`);
    expect(mail!.text).toContain('We refunded ₹300.00 of your ₹999.00 payment');
    expect(mail!.text).toContain('₹999.00, ₹300.00 refunded so far');
    expect(mail!.text).toContain(invoice.number);
    expect(mail!.attachments).toHaveLength(1);
    const [file] = mail!.attachments;
    expect(file).toMatchObject({ filename: `credit-note-${note.number}.pdf`, mimeType: 'application/pdf' });
    const text = await pdfText(file!.content);
    expect(text).toContain(note.number);
    expect(text).toContain(invoice.number);
    expect(text).toMatch(/Partial refund of invoice/);

    const history = await s.api({ path: '/payments/history', token: buyer.token });
    expect(history.statusCode, history.body).toBe(200);
    const listed = paymentListSchema.parse(history.json()).data.find((row) => row.id === payment.id);
    expect(listed).toMatchObject({ amount: 99_900, refunded: 30_000, status: 'paid' });

    // The rest refunded: a second receipt, for the rest, saying the payment is refunded in full.
    await refund(s, admin, payment.id, { license_action: 'keep' });
    const receipts = await refundMails(s, buyer.email);
    expect(receipts).toHaveLength(2);
    const last = receipts.find((each) => each.subject !== mail!.subject)!;
    expect(last.text).toContain('We refunded ₹699.00 of your ₹999.00 payment');
    expect(last.text).toContain('₹999.00, refunded in full');
    const again = paymentListSchema
      .parse((await s.api({ path: '/payments/history', token: buyer.token })).json())
      .data.find((row) => row.id === payment.id);
    expect(again?.refunded).toBe(99_900);
  });

  it('writes the refund receipt in the language the customer chose (German)', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    const german = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token: buyer.token,
      body: { language: 'de' },
    });
    expect(german.statusCode, german.body).toBe(200);
    const { payment } = await buyInSandbox(s, buyer.token);
    const answer = await refund(s, admin, payment.id, { amount: 30_000, license_action: 'keep' });
    const note = answer.refunds[0]!.credit_note!;
    const mail = await s.lastMailTo(buyer.email);
    expect(mail.subject).toBe(`Ihre ${PRODUCT_NAME}-Erstattung ${note.number}`);
    expect(mail.text).toMatch(/Wir haben 300,00\s₹ Ihrer Zahlung von 999,00\s₹/);
    expect(mail.attachments[0]).toMatchObject({ filename: `credit-note-${note.number}.pdf` });
  });
});
