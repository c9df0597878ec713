import { expect, it } from 'vitest';
import { billingDetailsAnswerSchema, type Invoice } from '../../../src/shared/api/invoices.js';
import { PRODUCT_NAME } from '../../../src/shared/constants.js';
import { subscriptionCheckoutSchema } from '../../../src/shared/api/subscriptions.js';
import { REVERSE_CHARGE_NOTE } from '../../../src/server/billing/invoices/tax-treatment.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectValidationError, signInAsAdmin } from '../helpers/admin-helpers.js';
import {
  expectPdf,
  indianDetails,
  invoiceOfPayment,
  invoicesOf,
  pdfText,
  putBillingDetails,
} from '../helpers/invoice-helpers.js';
import { type Member, member, planByCode } from '../helpers/license-helpers.js';
import { expectVerified, openOrder, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';
import { openOrganisationCheckout, organisationWithRoles } from '../helpers/organisation-purchase-helpers.js';

/**
 * Issue 34, item 8 over HTTP on the sandbox provider: Indian GST as before, an export with no GST
 * and the seller's LUT note for buyers abroad, the reverse charge for an EU business with a VAT
 * number, and the charge matching the invoice. The seller is in Karnataka (29), prices include 18 %.
 */

const LUT_NOTE = 'Supply meant for export under LUT without payment of IGST, LUT ARN AD290425001234X';

const SELLER = {
  SELLER_NAME: 'Desktop AI Assistant Pvt Ltd',
  SELLER_ADDRESS: '12 MG Road | 560001 Bengaluru | India',
  SELLER_TAX_ID: '29AAGCB7383J1Z4',
  TAX_EXPORT_NOTE: LUT_NOTE,
};

/** Pro monthly's ₹999 without the 18 % GST it includes: ₹846.61. */
const PRO_NET = 84_661;

const usConsumer = {
  name: 'Jane Doe',
  address_line1: '1 Market Street',
  city: 'San Francisco',
  postal_code: '94105',
  region: 'CA',
  country: 'US',
  tax_id: null,
};

const germanBusiness = {
  name: 'Muster GmbH',
  address_line1: 'Unter den Linden 1',
  city: 'Berlin',
  postal_code: '10117',
  region: null,
  country: 'DE',
  tax_id: 'de 123 456 789',
};

/** Buys Pro monthly as `buyer`: the order's amount, then its invoice and its PDF's text. */
async function buy(s: TestServer, buyer: Member) {
  const pro = await planByCode(s, 'pro-monthly');
  const order = await openOrder(s, buyer.token, pro.id);
  const verified = expectVerified(
    await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)),
  );
  const invoice = await invoiceOfPayment(s, buyer.token, verified.payment.id);
  const pdf = await pdfFor(s, buyer, invoice);
  return { order, payment: verified.payment, invoice, pdf };
}

const pdfFor = async (s: TestServer, buyer: Member, invoice: Invoice) =>
  pdfText(
    expectPdf(
      await s.api({ path: `/billing/invoices/${invoice.id}/pdf`, token: buyer.token }),
      invoice.number,
    ),
  );

async function buyerWith(s: TestServer, details: unknown): Promise<Member> {
  const buyer = await member(s);
  const saved = await putBillingDetails(s, buyer.token, details);
  expect(saved.statusCode, saved.body).toBe(200);
  return buyer;
}

describeOnEveryDatabase(
  'tax by customer: GST at home, exports abroad, the EU reverse charge',
  (server) => {
    it('an Indian buyer in the seller’s state pays CGST + SGST within the price', async () => {
      const s = server();
      const buyer = await buyerWith(s, indianDetails({ tax_id: null, region: 'Karnataka', city: 'Mysuru' }));
      const { order, invoice, pdf } = await buy(s, buyer);
      expect(order.amount).toBe(99_900);
      expect(invoice).toMatchObject({
        title: 'Tax invoice',
        tax_treatment: 'gst_intra_state',
        tax_notes: [],
        place_of_supply: 'Karnataka (29)',
        subtotal: PRO_NET,
        tax: 15_239,
        total: 99_900,
      });
      expect(invoice.taxes.map((tax) => tax.name)).toEqual(['CGST', 'SGST']);
      expect(pdf).toContain('Prices include GST at 18%.');
      expect(pdf).not.toContain('export');
    });

    it('an Indian business in another state pays IGST', async () => {
      const s = server();
      const buyer = await buyerWith(s, indianDetails());
      const { order, invoice } = await buy(s, buyer);
      expect(order.amount).toBe(99_900);
      expect(invoice).toMatchObject({
        tax_treatment: 'gst_inter_state',
        place_of_supply: 'Maharashtra (27)',
        tax: 15_239,
        taxes: [{ name: 'IGST', rate_bp: 1800, amount: 15_239 }],
      });
    });

    it('a US consumer buys an export: charged the price without GST, the invoice and receipt carry the LUT note, the credit note keeps it', async () => {
      const s = server();
      const buyer = await buyerWith(s, usConsumer);
      const { order, payment, invoice, pdf } = await buy(s, buyer);
      // Not charged GST: the checkout asks the provider for the net, and the invoice bills just that.
      expect(order.amount).toBe(PRO_NET);
      expect(payment.amount).toBe(PRO_NET);
      expect(invoice).toMatchObject({
        title: 'Tax invoice',
        tax_treatment: 'export',
        tax_notes: [LUT_NOTE],
        place_of_supply: 'Outside India',
        subtotal: PRO_NET,
        tax: 0,
        total: PRO_NET,
        taxes: [],
        tax_rate_bp: 0,
        lines_include_tax: false,
        lines: [{ amount: PRO_NET }],
      });
      expect(pdf).toContain(LUT_NOTE);
      expect(pdf).not.toContain('Prices include GST');
      expect(pdf).toMatch(/Total\s+INR 846\.61/);
      const receipt = (await s.outbox()).find(
        (mail) => mail.to.includes(buyer.email) && mail.subject.startsWith(`Your ${PRODUCT_NAME} receipt`),
      );
      expect(receipt?.text).toContain(LUT_NOTE);

      // The buyer moves to India; the refund's credit note keeps the treatment the invoice recorded.
      expect((await putBillingDetails(s, buyer.token, indianDetails())).statusCode).toBe(200);
      const admin = await signInAsAdmin(s);
      const refunded = await s.api({
        method: 'POST',
        path: `/payments/admin/payments/${payment.id}/refunds`,
        token: admin.token,
        body: { license_action: 'keep' },
      });
      expect(refunded.statusCode, refunded.body).toBe(201);
      const [note] = (await invoicesOf(s, buyer.token, '?kind=credit_note')).data;
      expect(note).toMatchObject({
        tax_treatment: 'export',
        tax_notes: [LUT_NOTE],
        place_of_supply: 'Outside India',
        tax: 0,
        total: -PRO_NET,
        taxes: [],
      });
      expect(await pdfFor(s, buyer, note!)).toContain(LUT_NOTE);
      // And the invoice itself reads as it was issued.
      expect(await invoiceOfPayment(s, buyer.token, payment.id)).toEqual(invoice);
    });

    it('a German business with a valid VAT number: no GST, reverse charge wording and its VAT number on the PDF', async () => {
      const s = server();
      const buyer = await buyerWith(s, germanBusiness);
      const saved = await s.api({ path: '/billing/details', token: buyer.token });
      expect(billingDetailsAnswerSchema.parse(saved.json()).details?.tax_id).toBe('DE123456789');
      const { order, invoice, pdf } = await buy(s, buyer);
      expect(order.amount).toBe(PRO_NET);
      expect(invoice).toMatchObject({
        tax_treatment: 'eu_reverse_charge',
        tax_notes: [LUT_NOTE, REVERSE_CHARGE_NOTE],
        tax: 0,
        total: PRO_NET,
        buyer: { country: 'DE', tax_id: 'DE123456789' },
      });
      expect(pdf).toContain('Reverse charge: VAT to be accounted for by the recipient');
      expect(pdf).toContain('VAT number: DE123456789');
      expect(pdf).toContain(LUT_NOTE);
    });

    it('a German VAT number of the wrong format is refused (400 naming the field), nothing saved, for accounts and organisations', async () => {
      const s = server();
      const buyer = await buyerWith(s, usConsumer);
      for (const tax_id of ['DE12345678', 'DE1234567890', 'FR12345678901', 'DEX23456789']) {
        const message = expectValidationError(
          await putBillingDetails(s, buyer.token, { ...germanBusiness, tax_id }),
        );
        expect(message, tax_id).toMatch(
          /tax_id.*not a VAT number of Germany: it should look like DE123456789/,
        );
      }
      const read = await s.api({ path: '/billing/details', token: buyer.token });
      expect(billingDetailsAnswerSchema.parse(read.json()).details).toMatchObject({ country: 'US' });

      const organisation = await organisationWithRoles(s);
      const refused = await s.api({
        method: 'PATCH',
        path: `/organisations/${organisation.id}`,
        token: organisation.owner.token,
        body: { billing_details: { ...germanBusiness, tax_id: 'DE1234' } },
      });
      expect(expectValidationError(refused)).toMatch(/tax_id.*not a VAT number of Germany/);
      const row = await s.app.db
        .selectFrom('organisations')
        .select('billing_details')
        .where('id', '=', organisation.id)
        .executeTakeFirstOrThrow();
      expect(row.billing_details).toBeNull();
    });

    it('an organisation in Germany with its VAT number subscribes: its charges carry no GST', async () => {
      const s = server();
      const organisation = await organisationWithRoles(s);
      const saved = await s.api({
        method: 'PATCH',
        path: `/organisations/${organisation.id}`,
        token: organisation.owner.token,
        body: { billing_details: germanBusiness },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const business = await planByCode(s, 'business-monthly');
      const opened = await openOrganisationCheckout(s, organisation.owner, {
        organisation_id: organisation.id,
        seats: 3,
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const seatNet = Math.round((business.price_minor * 10_000) / 11_800);
      expect(subscriptionCheckoutSchema.parse(opened.json()).amount).toBe(seatNet * 3);
    });
  },
  { env: SELLER },
);
