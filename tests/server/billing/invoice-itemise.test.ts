import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { couponSchema } from '../../../src/shared/api/coupons.js';
import type { Invoice } from '../../../src/shared/api/invoices.js';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import {
  expectPdf,
  indianDetails,
  invoiceOfPayment,
  pdfText,
  putBillingDetails,
  VALID_GSTIN,
} from '../helpers/invoice-helpers.js';
import { type Member, member, planByCode } from '../helpers/license-helpers.js';
import { organisationWithRoles, buyForOrganisation } from '../helpers/organisation-purchase-helpers.js';
import { createOrder, expectVerified, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';
import { paymentOrderSchema } from '../../../src/shared/api/payments.js';
import { chargesOf } from '../helpers/subscription-helpers.js';

/**
 * Itemised invoices, read back from the PDF with poppler's pdftotext: list price × seats, the
 * coupon's discount with its code, tax by kind (CGST + SGST within the seller's state, IGST
 * across states), the service period and the payment reference, adding up to what was charged.
 */

/** Karnataka (29): the seller's state. */
const SELLER_GSTIN = '29AAGCB7383J1Z4';
const SELLER = {
  SELLER_NAME: 'Desktop AI Assistant Pvt Ltd',
  SELLER_ADDRESS: '12 MG Road | 560001 Bengaluru | India',
  SELLER_TAX_ID: SELLER_GSTIN,
};

let codeSequence = 0;
const newCode = (label: string) => `${label}${process.pid}${++codeSequence}`.toUpperCase();

async function createCoupon(s: TestServer, body: Record<string, unknown>) {
  const admin = await member(s, 'admin');
  const response = await s.api({ method: 'POST', path: '/admin/coupons', token: admin.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return couponSchema.parse(response.json());
}

/** A one-off purchase with a coupon: order, sandbox checkout, verify. */
async function buyWithCoupon(s: TestServer, buyer: Member, planCode: string, couponCode: string) {
  const plan = await planByCode(s, planCode);
  const opened = await createOrder(s, buyer.token, { plan_id: plan.id, coupon_code: couponCode });
  expect(opened.statusCode, opened.body).toBe(201);
  const order = paymentOrderSchema.parse(opened.json());
  return expectVerified(
    await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)),
  );
}

async function pdfOf(s: TestServer, who: Member, invoice: Invoice): Promise<string> {
  return pdfText(
    expectPdf(await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: who.token }), invoice.number),
  );
}

/** Every figure adds up: the lines to the total (or the taxable value), the taxes to the tax. */
function expectAddsUp(invoice: Invoice, charged: number) {
  const lines = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
  expect(lines).toBe(invoice.lines_include_tax ? invoice.total : invoice.subtotal);
  for (const line of invoice.lines) expect(line.amount).toBe(line.quantity * line.unit_amount);
  expect(invoice.taxes.reduce((sum, tax) => sum + tax.amount, 0)).toBe(invoice.tax);
  expect(invoice.subtotal + invoice.tax).toBe(invoice.total);
  expect(invoice.total).toBe(charged);
}

/** Every line the server logs, parsed: the start's warnings among them. */
function logCollector() {
  const lines: { level: number; msg?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

const WARN = 40;
const withGstinLog = logCollector();

describeOnEveryDatabase(
  'itemised invoices with the seller’s GSTIN (prices include GST)',
  (server) => {
    it('₹999 plan with a 20 % coupon, buyer in the seller’s state: list price, the discount with its code, CGST + SGST, to the paisa', async () => {
      const s = server();
      const buyer = await member(s);
      await putBillingDetails(
        s,
        buyer.token,
        indianDetails({ city: 'Bengaluru', postal_code: '560001', region: 'Karnataka', tax_id: null }),
      );
      const coupon = await createCoupon(s, { code: newCode('save'), percent_off: 20 });
      s.clock.freeze();
      const { payment, license } = await buyWithCoupon(s, buyer, 'pro-monthly', coupon.code);
      // 99 900 less 20 % (19 980) is 79 920 charged.
      expect(payment.amount).toBe(79_920);

      const invoice = await invoiceOfPayment(s, buyer.token, payment.id);
      expect(invoice).toMatchObject({
        title: 'Tax invoice',
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
          {
            kind: 'discount',
            description: `Coupon ${coupon.code}: 20% off`,
            quantity: 1,
            unit_amount: -19_980,
            amount: -19_980,
            coupon_code: coupon.code,
          },
        ],
        // 79 920 × 18 / 118 = 12 191.19… → 12 191 of GST, shared 6 096 (central, half up) + 6 095.
        subtotal: 67_729,
        tax: 12_191,
        total: 79_920,
        taxes: [
          { name: 'CGST', rate_bp: 900, amount: 6_096 },
          { name: 'SGST', rate_bp: 900, amount: 6_095 },
        ],
        place_of_supply: 'Karnataka (29)',
        payment_reference: expect.stringMatching(/^pay_sandbox_/),
        service_period: { start: s.clock.now().toISOString(), end: license.expires_at },
        organisation: null,
        buyer: { name: 'Asha Rao Consulting', tax_id: null },
      });
      expectAddsUp(invoice, payment.amount);

      const text = await pdfOf(s, buyer, invoice);
      expect(text).toContain('Tax invoice');
      expect(text).toContain('Place of supply: Karnataka (29)');
      expect(text).toContain(`Payment reference: ${invoice.payment_reference}`);
      expect(text).toMatch(/Pro plan, one month\s+1\s+INR 999\.00\s+INR 999\.00/);
      expect(text).toMatch(/Service period: \d+ \w+ \d{4} to \d+ \w+ \d{4}/);
      expect(text).toMatch(
        new RegExp(`Coupon ${coupon.code}: 20% off\\s+1\\s+-INR 199\\.80\\s+-INR 199\\.80`),
      );
      expect(text).toMatch(/Taxable value\s+INR 677\.29/);
      expect(text).toMatch(/CGST 9% \(included\)\s+INR 60\.96/);
      expect(text).toMatch(/SGST 9% \(included\)\s+INR 60\.95/);
      expect(text).toMatch(/Total\s+INR 799\.20/);
      expect(text).not.toContain('IGST');
      // Not today's single line of the net amount.
      expect(text).not.toMatch(/one month\s+1\s+INR 677\.29/);

      // The receipt mail lists the same lines.
      const receipt = (await s.outbox()).find(
        (mail) =>
          mail.to.includes(buyer.email) && mail.subject === `Your ${PRODUCT_NAME} receipt ${invoice.number}`,
      );
      expect(receipt?.text).toContain('Pro plan, one month: ₹999.00');
      expect(receipt?.text).toContain(`Coupon ${coupon.code}: 20% off: -₹199.80`);
      expect(receipt?.text).toContain('CGST 9% (included): ₹60.96');
      expect(receipt?.text).toContain('SGST 9% (included): ₹60.95');
      expect(receipt?.text).toContain('Total: ₹799.20');
    });

    it('an organisation’s 3 seats with a 10 % coupon are billed to the organisation; another state is IGST', async () => {
      const s = server();
      const organisation = await organisationWithRoles(s, 'Acme Labs');
      // The organisation's billing details: Maharashtra (27), with its GSTIN.
      const saved = await s.api({
        method: 'PATCH',
        path: `/organisations/${organisation.id}`,
        token: organisation.admin.token,
        body: {
          billing_details: indianDetails({
            name: 'Acme Labs Pvt Ltd',
            city: 'Mumbai',
            postal_code: '400001',
            region: 'Maharashtra',
            tax_id: VALID_GSTIN,
          }),
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      // The owner's own details, which an organisation's invoice must not carry.
      await putBillingDetails(
        s,
        organisation.owner.token,
        indianDetails({ name: 'Owner Personally', tax_id: null }),
      );
      const coupon = await createCoupon(s, { code: newCode('team'), percent_off: 10 });
      const bought = await buyForOrganisation(s, organisation.owner, organisation.id, 3, {
        couponCode: coupon.code,
      });
      const [charge] = await chargesOf(s, bought.subscription.id);
      // 3 × (149 900 − 14 990) = 404 730.
      expect(Number(charge?.amount_minor)).toBe(404_730);

      const invoice = await invoiceOfPayment(s, organisation.owner.token, charge!.id);
      expect(invoice).toMatchObject({
        title: 'Tax invoice',
        lines: [
          {
            kind: 'item',
            description: 'Business plan, monthly subscription, per seat',
            quantity: 3,
            unit_amount: 149_900,
            amount: 449_700,
          },
          {
            kind: 'discount',
            description: `Coupon ${coupon.code}: 10% off each seat`,
            quantity: 3,
            unit_amount: -14_990,
            amount: -44_970,
            coupon_code: coupon.code,
          },
        ],
        // 404 730 × 18 / 118 = 61 738.47… → 61 738, all IGST: Maharashtra is not Karnataka.
        tax: 61_738,
        subtotal: 342_992,
        taxes: [{ name: 'IGST', rate_bp: 1800, amount: 61_738 }],
        place_of_supply: 'Maharashtra (27)',
        organisation: { id: organisation.id, name: 'Acme Labs' },
        buyer: {
          name: 'Acme Labs Pvt Ltd',
          country: 'IN',
          tax_id: VALID_GSTIN,
          email: organisation.owner.email,
        },
      });
      expect(invoice.service_period).toEqual({ start: charge!.period_start, end: charge!.period_end });
      expectAddsUp(invoice, 404_730);

      const text = await pdfOf(s, organisation.owner, invoice);
      expect(text).toContain('Acme Labs Pvt Ltd');
      expect(text).not.toContain('Owner Personally');
      expect(text).toContain(`GSTIN: ${VALID_GSTIN}`);
      expect(text).toMatch(
        /Business plan, monthly subscription, per seat\s+3\s+INR 1,499\.00\s+INR 4,497\.00/,
      );
      expect(text).toMatch(
        new RegExp(`Coupon ${coupon.code}: 10% off each seat\\s+3\\s+-INR 149\\.90\\s+-INR 449\\.70`),
      );
      expect(text).toMatch(/IGST 18% \(included\)\s+INR 617\.38/);
      expect(text).toMatch(/Taxable value\s+INR 3,429\.92/);
      expect(text).toMatch(/Total\s+INR 4,047\.30/);
      expect(text).not.toMatch(/CGST|SGST/);
    });

    it('an organisation without billing details is still the buyer, and the PDF says where they are added', async () => {
      const s = server();
      const organisation = await organisationWithRoles(s, 'Bare Org');
      await putBillingDetails(s, organisation.owner.token, indianDetails({ name: 'Owner Personally' }));
      const bought = await buyForOrganisation(s, organisation.owner, organisation.id, 2);
      const [charge] = await chargesOf(s, bought.subscription.id);
      const invoice = await invoiceOfPayment(s, organisation.owner.token, charge!.id);
      expect(invoice.buyer).toEqual({
        name: 'Bare Org',
        address: [],
        country: null,
        tax_id: null,
        email: organisation.owner.email,
      });
      // No address on record: the place of supply is the seller's state, so CGST + SGST.
      expect(invoice.place_of_supply).toBe('Karnataka (29)');
      expect(invoice.taxes.map((tax) => tax.name)).toEqual(['CGST', 'SGST']);
      expect(invoice.lines[0]).toMatchObject({ quantity: 2, unit_amount: 149_900, amount: 299_800 });
      expectAddsUp(invoice, 299_800);
      const text = await pdfOf(s, organisation.owner, invoice);
      expect(text).toContain('Bare Org');
      expect(text).not.toContain('Owner Personally');
      expect(text).toMatch(/No billing address or tax id was on file for this organization/);
    });

    it('the server does not warn about tax invoices when the seller’s GSTIN is set', () => {
      expect(withGstinLog.lines.length).toBeGreaterThan(0);
      expect(withGstinLog.lines.filter((line) => line.msg?.includes('SELLER_TAX_ID'))).toEqual([]);
    });
  },
  {
    env: { ...SELLER, LOG_LEVEL: 'info' },
    appOverrides: () => ({ logger: true, logStream: withGstinLog.stream }),
  },
);

const withoutGstinLog = logCollector();

describeOnEveryDatabase(
  'itemised invoices without the seller’s GSTIN (prices exclusive of tax)',
  (server) => {
    it('the start warns which setting makes tax invoices; the document is titled "Invoice", never "Tax invoice"', async () => {
      const warnings = withoutGstinLog.lines.filter((line) => line.level === WARN);
      expect(warnings.map((line) => line.msg)).toContainEqual(
        expect.stringMatching(
          /SELLER_TAX_ID is not set: invoices are issued as "Invoice", not as tax invoices/,
        ),
      );

      const s = server();
      const buyer = await member(s);
      const coupon = await createCoupon(s, { code: newCode('plain'), percent_off: 20 });
      const { payment } = await buyWithCoupon(s, buyer, 'pro-monthly', coupon.code);
      // (99 900 − 19 980) + 18 % = 79 920 + 14 386 (14 385.6 half up).
      expect(payment.amount).toBe(94_306);
      const invoice = await invoiceOfPayment(s, buyer.token, payment.id);
      expect(invoice).toMatchObject({
        title: 'Invoice',
        lines_include_tax: false,
        subtotal: 79_920,
        tax: 14_386,
        total: 94_306,
        // Without the seller's GSTIN its state is unknown: one line under the tax's name.
        taxes: [{ name: 'GST', rate_bp: 1800, amount: 14_386 }],
        place_of_supply: null,
      });
      expectAddsUp(invoice, payment.amount);
      const text = await pdfOf(s, buyer, invoice);
      expect(text).not.toContain('Tax invoice');
      // The title, right of the seller's name on the first line.
      expect(text.split('\n')[0]).toMatch(/\sInvoice$/);
      expect(text).toMatch(/GST 18%\s+INR 143\.86/);
      expect(text).toMatch(/Total\s+INR 943\.06/);
    });

    it('3 seats with prices exclusive of tax: the tax is each seat’s, so the lines stay the taxable value to the paisa', async () => {
      const s = server();
      const organisation = await organisationWithRoles(s, 'Exclusive Org');
      const coupon = await createCoupon(s, { code: newCode('excl'), percent_off: 10 });
      const bought = await buyForOrganisation(s, organisation.owner, organisation.id, 3, {
        couponCode: coupon.code,
      });
      const [charge] = await chargesOf(s, bought.subscription.id);
      // Each seat: 134 910 + 24 284 (24 283.8 half up) = 159 194; three are 477 582.
      expect(Number(charge?.amount_minor)).toBe(477_582);
      const invoice = await invoiceOfPayment(s, organisation.owner.token, charge!.id);
      // Splitting 477 582 again would say 72 851 of tax and 404 731 net: a paisa off the lines.
      expect(invoice).toMatchObject({ subtotal: 404_730, tax: 72_852, total: 477_582 });
      expectAddsUp(invoice, 477_582);
    });
  },
  {
    env: { TAX_INCLUSIVE: 'false', LOG_LEVEL: 'info' },
    appOverrides: () => ({ logger: true, logStream: withoutGstinLog.stream }),
  },
);
