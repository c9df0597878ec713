import { expect, it } from 'vitest';
import {
  billingDetailsAnswerSchema,
  billingDetailsSchema,
  invoiceSchema,
} from '../../../src/shared/api/invoices.js';
import { buildApp } from '../../../src/server/app.js';
import { invoicePdfBytes } from '../../../src/server/billing/invoices/attachment.js';
import { takeNextNumber } from '../../../src/server/billing/invoices/repository.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectValidationError, signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  buyInSandbox,
  consecutive,
  expectPdf,
  indianDetails,
  invoiceOfPayment,
  invoicesOf,
  pdfText,
  putBillingDetails,
  sequencesOf,
  VALID_GSTIN,
} from '../helpers/invoice-helpers.js';
import { member, planByCode } from '../helpers/license-helpers.js';
import {
  expectVerified,
  newEventId,
  openOrder,
  payInSandbox,
  postWebhook,
  sandboxSecretOf,
  hmacHex,
  verifyPayment,
  webhookBodies,
} from '../helpers/payment-helpers.js';

const SELLER = {
  SELLER_NAME: 'Desktop AI Assistant Pvt Ltd',
  SELLER_ADDRESS: '12 MG Road | 560001 Bengaluru | India',
  SELLER_TAX_ID: '29AAGCB7383J1Z4',
  SELLER_EMAIL: 'billing@example.com',
};

describeOnEveryDatabase(
  'invoices: billing details, one invoice per paid payment, gap-free numbers, PDF',
  (server) => {
    it('billing details: null until saved, then saved as sent (GSTIN normalized); 401 without a token', async () => {
      const s = server();
      const buyer = await member(s);
      const empty = await s.api({ path: '/billing/details', token: buyer.token });
      expect(billingDetailsAnswerSchema.parse(empty.json())).toEqual({ details: null });

      const saved = await putBillingDetails(
        s,
        buyer.token,
        indianDetails({ tax_id: ' 27aapfu0939f1zv ', region: '' }),
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const details = billingDetailsSchema.parse(saved.json());
      expect(details).toMatchObject({ country: 'IN', tax_id: VALID_GSTIN, region: null, city: 'Kolkata' });
      const read = await s.api({ path: '/billing/details', token: buyer.token });
      expect(read.json()).toEqual({ details });

      // A second save replaces the first.
      const abroad = await putBillingDetails(s, buyer.token, {
        name: 'Müller GmbH',
        address_line1: 'Hauptstraße 1',
        city: 'Berlin',
        postal_code: '10115',
        country: 'de',
        tax_id: 'DE123456789',
      });
      expect(abroad.statusCode, abroad.body).toBe(200);
      expect(abroad.json()).toMatchObject({ country: 'DE', tax_id: 'DE123456789', address_line2: null });

      expectApiError(await s.api({ path: '/billing/details' }), 401, 'not_authenticated');
      expectApiError(await putBillingDetails(s, '', indianDetails()), 401, 'not_authenticated');
    });

    it('a GSTIN in the wrong format or with a wrong check character is a 400 naming what is wrong', async () => {
      const s = server();
      const buyer = await member(s);
      const cases: [string, RegExp][] = [
        ['27AAPFU0939F1ZX', /check character does not match/],
        ['27AAPFU0939F1Z', /15 characters; this one has 14/],
        ['40AAPFU0939F1ZV', /state code: 01 to 38, 97 or 99/],
        ['27AAPF10939F1ZV', /PAN: 5 letters, 4 digits, 1 letter/],
        ['27AAPFU0939F0ZV', /entity number/],
        ['27AAPFU0939F1YV', /always Z/],
        ['27AAPFU0939F1Z*', /only letters and digits/],
      ];
      for (const [gstin, problem] of cases) {
        const message = expectValidationError(
          await putBillingDetails(s, buyer.token, indianDetails({ tax_id: gstin })),
        );
        expect(message, gstin).toMatch(problem);
        expect(message).toMatch(/tax_id/);
      }
      // Other bad input: an unknown country, a bad PIN code, a missing name, a field too many, no body.
      expect(
        expectValidationError(await putBillingDetails(s, buyer.token, indianDetails({ country: 'XX' }))),
      ).toMatch(/country/);
      expect(
        expectValidationError(
          await putBillingDetails(s, buyer.token, indianDetails({ postal_code: '07001' })),
        ),
      ).toMatch(/PIN code/);
      expect(
        expectValidationError(await putBillingDetails(s, buyer.token, indianDetails({ name: '  ' }))),
      ).toMatch(/Billing name is required/);
      expectValidationError(await putBillingDetails(s, buyer.token, { ...indianDetails(), role: 'admin' }));
      expect((await putBillingDetails(s, buyer.token, undefined)).statusCode).toBe(400);
      // A tax id outside India and the EU is free text, within bounds (the EU's is a VAT number:
      // tax-by-customer.test.ts).
      expect(
        expectValidationError(
          await putBillingDetails(s, buyer.token, {
            ...indianDetails({ country: 'CH', postal_code: '8001' }),
            tax_id: 'CHE<script>',
          }),
        ),
      ).toMatch(/tax id has at most 30/);
      // Nothing was saved by any of them.
      const read = await s.api({ path: '/billing/details', token: buyer.token });
      expect(read.json()).toEqual({ details: null });
    });

    it('a paid payment has one invoice: seller from the settings, buyer as saved, 18 % GST included', async () => {
      const s = server();
      const buyer = await member(s);
      await putBillingDetails(s, buyer.token, indianDetails());
      const pro = await planByCode(s, 'pro-monthly');
      s.clock.freeze();
      const { payment, license } = await buyInSandbox(s, buyer.token);

      const invoice = await invoiceOfPayment(s, buyer.token, payment.id);
      expect(invoice).toMatchObject({
        kind: 'invoice',
        currency: 'INR',
        // 99 900 × 1800 / 11 800 = 15 238.98… → 15 239 of tax; the rest is the net.
        total: pro.price_minor,
        tax: 15_239,
        subtotal: 84_661,
        tax_name: 'GST',
        tax_rate_bp: 1800,
        tax_inclusive: true,
        corrects: null,
        seller: {
          name: SELLER.SELLER_NAME,
          address: ['12 MG Road', '560001 Bengaluru', 'India'],
          tax_id: SELLER.SELLER_TAX_ID,
          email: SELLER.SELLER_EMAIL,
        },
        buyer: {
          name: 'Asha Rao Consulting',
          address: ['4 Park Street', 'Floor 2', '700016 Kolkata', 'West Bengal', 'India'],
          country: 'IN',
          tax_id: VALID_GSTIN,
          email: buyer.email,
        },
        title: 'Tax invoice',
        // Prices include the tax, so the lines do: the list price the customer saw.
        lines_include_tax: true,
        lines: [
          {
            kind: 'item',
            description: 'Pro plan, one month',
            quantity: 1,
            unit_amount: 99_900,
            amount: 99_900,
            coupon_code: null,
          },
        ],
        // The buyer's GSTIN is Maharashtra's (27), the seller's Karnataka's (29): inter-state, IGST.
        place_of_supply: 'Maharashtra (27)',
        taxes: [{ name: 'IGST', rate_bp: 1800, amount: 15_239 }],
        payment_reference: expect.stringMatching(/^pay_sandbox_/),
        organisation: null,
      });
      // A one-off month: the month the new license runs for.
      expect(invoice.service_period).toEqual({ start: s.clock.now().toISOString(), end: license.expires_at });
      expect(invoice.number).toMatch(/^INV-\d{6}$/);
      expect(invoice.subtotal + invoice.tax).toBe(invoice.total);

      // Billing details changed later: the issued invoice keeps what it was issued with.
      await putBillingDetails(s, buyer.token, indianDetails({ name: 'Someone Else', tax_id: null }));
      const again = await s.api({ path: `/billing/invoices/${invoice.id}`, token: buyer.token });
      expect(invoiceSchema.parse(again.json()).buyer).toEqual(invoice.buyer);
    });

    it('without billing details the invoice names the account; the PDF carries number, totals and tax ids', async () => {
      const s = server();
      const buyer = await member(s);
      const { payment } = await buyInSandbox(s, buyer.token);
      const plain = await invoiceOfPayment(s, buyer.token, payment.id);
      expect(plain.buyer).toEqual({
        name: null,
        address: [],
        country: null,
        tax_id: null,
        email: buyer.email,
      });

      await putBillingDetails(s, buyer.token, indianDetails());
      const { payment: second } = await buyInSandbox(s, buyer.token);
      const invoice = await invoiceOfPayment(s, buyer.token, second.id);
      const response = await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: buyer.token });
      const text = await pdfText(expectPdf(response, invoice.number));
      expect(text).toContain('Tax invoice');
      expect(text).toContain(invoice.number);
      expect(text).toMatch(/Total\s+INR 999\.00/);
      expect(text).toMatch(/IGST 18% \(included\)\s+INR 152\.39/);
      expect(text).toMatch(/Taxable value\s+INR 846\.61/);
      expect(text).toMatch(/Pro plan, one month\s+1\s+INR 999\.00\s+INR 999\.00/);
      expect(text).toContain(`GSTIN: ${VALID_GSTIN}`);
      expect(text).toContain(`GSTIN: ${SELLER.SELLER_TAX_ID}`);
      expect(text).toContain('Asha Rao Consulting');
      expect(text).toContain('Pro plan, one month');
      expect(text).toContain('Prices include GST at 18%.');

      // The same bytes for the receipt mail's attachment, rendered from the issued record by id.
      const attached = Buffer.from(await invoicePdfBytes(s.app.db, invoice.id));
      expect(await pdfText(attached)).toBe(text);
      await expect(invoicePdfBytes(s.app.db, 'no-such-invoice')).rejects.toThrow(/does not exist/);
    });

    it("another customer's invoice is a 404 (JSON and PDF); an administrator may read it; unknown ids are 404", async () => {
      const s = server();
      const buyer = await member(s);
      const other = await member(s);
      const admin = await signInAsAdmin(s);
      const { payment } = await buyInSandbox(s, buyer.token);
      const invoice = await invoiceOfPayment(s, buyer.token, payment.id);

      expectApiError(
        await s.api({ path: `/billing/invoices/${invoice.id}`, token: other.token }),
        404,
        'invoice_not_found',
      );
      expectApiError(
        await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: other.token }),
        404,
        'invoice_not_found',
      );
      expect((await invoicesOf(s, other.token)).total).toBe(0);
      expectApiError(await s.api({ path: `/billing/invoices/${invoice.id}/pdf` }), 401, 'not_authenticated');
      expectApiError(
        await s.api({ path: '/billing/invoices/no-such-invoice/pdf', token: buyer.token }),
        404,
        'invoice_not_found',
      );
      expectValidationError(await s.api({ path: `/billing/invoices?sort=amount`, token: buyer.token }));

      expectPdf(
        await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: admin.token }),
        invoice.number,
      );
      const perCustomer = await s.api({ path: `/admin/users/${buyer.id}/invoices`, token: admin.token });
      expect(perCustomer.statusCode, perCustomer.body).toBe(200);
      expect(perCustomer.json<{ data: { id: string }[] }>().data.map((item) => item.id)).toEqual([
        invoice.id,
      ]);
      expectApiError(
        await s.api({ path: `/admin/users/${buyer.id}/invoices`, token: buyer.token }),
        403,
        'admin_required',
      );
      expectApiError(
        await s.api({ path: '/admin/users/nobody/invoices', token: admin.token }),
        404,
        'user_not_found',
      );
    });

    it('a payment reported by a verify and a webhook at once, and replayed, still has exactly one invoice', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const order = await openOrder(s, buyer.token, pro.id);
      const paid = await payInSandbox(s, buyer.token, order.order_id);
      const body = webhookBodies.paymentCaptured({
        orderId: order.order_id,
        paymentId: paid.razorpay_payment_id,
        amount: pro.price_minor,
      });
      const signature = hmacHex(sandboxSecretOf(s), body);
      const answers = await Promise.all([
        verifyPayment(s, buyer.token, paid),
        postWebhook(s, body, { signature, eventId: newEventId() }),
        verifyPayment(s, buyer.token, paid),
        postWebhook(s, body, { signature, eventId: newEventId() }),
      ]);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      const rows = await s.app.db
        .selectFrom('invoices')
        .selectAll()
        .where('payment_id', '=', order.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect((await invoicesOf(s, buyer.token)).total).toBe(1);
    });

    it('20 settlements at once take consecutive numbers: none skipped, none reused', async () => {
      const s = server();
      const before = (await sequencesOf(s, 'INV')).length;
      const pro = await planByCode(s, 'pro-monthly');
      const buyers = await Promise.all(Array.from({ length: 5 }, () => member(s)));
      const checkouts = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          const buyer = buyers[index % buyers.length]!;
          const order = await openOrder(s, buyer.token, pro.id);
          return { buyer, paid: await payInSandbox(s, buyer.token, order.order_id) };
        }),
      );
      const answers = await Promise.all(
        checkouts.map(({ buyer, paid }) => verifyPayment(s, buyer.token, paid)),
      );
      for (const answer of answers) expectVerified(answer);
      expect(await sequencesOf(s, 'INV')).toEqual(consecutive(before + 20));
    });

    it('a transaction that takes a number and rolls back gives it back: the next invoice has it', async () => {
      const s = server();
      const buyer = await member(s);
      await buyInSandbox(s, buyer.token);
      const before = await sequencesOf(s, 'INV');
      await expect(
        s.app.db.transaction().execute(async (trx) => {
          await takeNextNumber(trx, 'INV');
          throw new Error('the issue failed after taking its number');
        }),
      ).rejects.toThrow('the issue failed');
      await buyInSandbox(s, buyer.token);
      expect(await sequencesOf(s, 'INV')).toEqual(consecutive(before.length + 1));
    });

    it('two app instances on one database settle at once: one sequence, no gap, no repeat', async () => {
      const s = server();
      // A second server on the same database (and the same keys), as behind a load balancer.
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      try {
        const before = (await sequencesOf(s, 'INV')).length;
        const pro = await planByCode(s, 'pro-monthly');
        const buyer = await member(s);
        const checkouts = await Promise.all(
          Array.from({ length: 16 }, async () => {
            const order = await openOrder(s, buyer.token, pro.id);
            return payInSandbox(s, buyer.token, order.order_id);
          }),
        );
        const answers = await Promise.all(
          checkouts.map((paid, index) =>
            index % 2 === 0
              ? verifyPayment(s, buyer.token, paid)
              : second.inject({
                  method: 'POST',
                  url: '/api/v1/payments/razorpay/verify',
                  headers: { 'x-api-key': 'dap-web-public', authorization: `Bearer ${buyer.token}` },
                  payload: paid,
                }),
          ),
        );
        for (const answer of answers) expectVerified(answer);
        expect(await sequencesOf(s, 'INV')).toEqual(consecutive(before + 16));
      } finally {
        await second.close();
      }
    });

    it('deleting the customer keeps the invoice (for the accounts) and removes the billing details', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const buyer = await member(s);
      await putBillingDetails(s, buyer.token, indianDetails());
      const { payment } = await buyInSandbox(s, buyer.token);
      const invoice = await invoiceOfPayment(s, buyer.token, payment.id);
      const deleted = await s.api({ method: 'DELETE', path: `/admin/users/${buyer.id}`, token: admin.token });
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
      const row = await s.app.db
        .selectFrom('invoices')
        .selectAll()
        .where('id', '=', invoice.id)
        .executeTakeFirst();
      expect(row).toMatchObject({ number: invoice.number, user_id: null, total_minor: 99_900 });
      expect(JSON.parse(row!.buyer)).toEqual(invoice.buyer);
      expect(
        await s.app.db.selectFrom('billing_details').selectAll().where('user_id', '=', buyer.id).execute(),
      ).toEqual([]);
      // An administrator still downloads it.
      expectPdf(
        await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: admin.token }),
        invoice.number,
      );
    });

    it('the list pages, filters by kind and sorts by number', async () => {
      const s = server();
      const buyer = await member(s);
      for (let count = 0; count < 3; count++) await buyInSandbox(s, buyer.token);
      const page = await invoicesOf(s, buyer.token, '?perPage=2&sort=number');
      expect(page.total).toBe(3);
      expect(page.data).toHaveLength(2);
      expect(page.data[0]!.number < page.data[1]!.number).toBe(true);
      expect((await invoicesOf(s, buyer.token, '?kind=credit_note')).total).toBe(0);
    });
  },
  { env: SELLER },
);

describeOnEveryDatabase(
  'invoices with prices exclusive of tax (TAX_INCLUSIVE=false)',
  (server) => {
    it('the checkout charges price + 12 % VAT; the invoice shows the price as net, the VAT and the total paid', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const order = await openOrder(s, buyer.token, pro.id);
      // 99 900 × 12 % = 11 988 added at checkout.
      expect(order.amount).toBe(111_888);
      const verified = expectVerified(
        await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)),
      );
      expect(verified.payment.amount).toBe(111_888);
      const invoice = await invoiceOfPayment(s, buyer.token, verified.payment.id);
      expect(invoice).toMatchObject({
        subtotal: 99_900,
        tax: 11_988,
        total: 111_888,
        tax_name: 'VAT',
        tax_rate_bp: 1200,
        tax_inclusive: false,
        lines: [{ unit_amount: 99_900, amount: 99_900 }],
      });
      expect(invoice.number).toMatch(/^B2026-\d{6}$/);
      const text = await pdfText(
        expectPdf(
          await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: buyer.token }),
          invoice.number,
        ),
      );
      expect(text).toContain('VAT at 12% is added to the price.');
      expect(text).toMatch(/Total\s+INR 1,118\.88/);
    });
  },
  {
    env: { TAX_INCLUSIVE: 'false', TAX_NAME: 'VAT', TAX_RATE_BASIS_POINTS: '1200', INVOICE_SERIES: 'B2026' },
  },
);
