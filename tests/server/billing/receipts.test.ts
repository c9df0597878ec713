import { expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { pdfText } from '../helpers/invoice-helpers.js';
import { member, planByCode } from '../helpers/license-helpers.js';
import { expectVerified, openOrder, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';
import { subscribe, subscriptionCall } from '../helpers/subscription-helpers.js';

/**
 * The receipt mail carries its invoice as a PDF: the server registers the `invoice_pdf`
 * attachment resolver (src/server/app.ts), so the outbox worker renders and attaches it.
 */
describeOnEveryDatabase('receipts', (server) => {
  it('the receipts of the first charge and of a renewal each carry their own invoice PDF', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer);
    await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/sandbox/renew`);

    const receipts = (await s.outbox()).filter(
      (mail) => mail.to.includes(buyer.email) && mail.subject.startsWith(`Your ${PRODUCT_NAME} receipt`),
    );
    expect(receipts.map((mail) => mail.subject)).toHaveLength(2);
    const numbers = new Set<string>();
    for (const receipt of receipts) {
      const number = /INV-\d{6}/.exec(receipt.subject)?.[0];
      expect(number, receipt.subject).toBeDefined();
      numbers.add(number!);
      expect(receipt.attachments).toHaveLength(1);
      const [file] = receipt.attachments;
      expect(file).toMatchObject({ filename: `invoice-${number}.pdf`, mimeType: 'application/pdf' });
      const text = await pdfText(file!.content);
      expect(text).toContain(number);
      expect(text).toMatch(/Total\s+INR 999\.00/);
    }
    expect(numbers.size).toBe(2);
  });

  it('a one-off purchase’s receipt carries its invoice PDF too, and a replayed verify sends no second one', async () => {
    const s = server();
    const buyer = await member(s);
    const lifetime = await planByCode(s, 'pro-yearly');
    const order = await openOrder(s, buyer.token, lifetime.id);
    const checkout = await payInSandbox(s, buyer.token, order.order_id);
    expectVerified(await verifyPayment(s, buyer.token, checkout));
    expectVerified(await verifyPayment(s, buyer.token, checkout));

    const receipts = (await s.outbox()).filter(
      (mail) => mail.to.includes(buyer.email) && mail.subject.startsWith(`Your ${PRODUCT_NAME} receipt`),
    );
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    const number = /INV-\d{6}/.exec(receipt!.subject)?.[0];
    expect(receipt!.text).toContain(lifetime.name);
    const [file] = receipt!.attachments;
    expect(file).toMatchObject({ filename: `invoice-${number}.pdf`, mimeType: 'application/pdf' });
    expect(await pdfText(file!.content)).toContain(number);
  });
});
