import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type Invoice, paymentRefundsSchema } from '../../../src/shared/api/invoices.js';
import { buildApp } from '../../../src/server/app.js';
import type { Config } from '../../../src/server/platform/config.js';
import { createRazorpayProvider } from '../../../src/server/billing/payments/razorpay-provider.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectValidationError, signInAsAdmin, type SignedIn } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  buyInSandbox,
  expectPdf,
  indianDetails,
  invoiceOfPayment,
  invoicesOf,
  pdfText,
  putBillingDetails,
  sequencesOf,
  consecutive,
} from '../helpers/invoice-helpers.js';
import { licenseRow, member, planByCode } from '../helpers/license-helpers.js';
import { expectVerified, hmacHex, openOrder, verifyPayment } from '../helpers/payment-helpers.js';

const refund = (s: TestServer, admin: SignedIn, paymentId: string, body: unknown) =>
  s.api({ method: 'POST', path: `/payments/admin/payments/${paymentId}/refunds`, token: admin.token, body });

function expectRefunded(response: { statusCode: number; body: string; json: () => unknown }) {
  expect(response.statusCode, response.body).toBe(201);
  return paymentRefundsSchema.parse(response.json());
}

const refundEvents = (s: TestServer, userId: string) =>
  s.app.db
    .selectFrom('security_events')
    .selectAll()
    .where('type', '=', 'payment_refunded')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

async function creditNotesOf(s: TestServer, token: string): Promise<Invoice[]> {
  return (await invoicesOf(s, token, '?kind=credit_note&sort=number&perPage=100')).data;
}

describeOnEveryDatabase('refunds and credit notes (sandbox)', (server) => {
  it('a full refund revoking the license: credit note of the whole invoice, license revoked with the reason, audited', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    await putBillingDetails(s, buyer.token, indianDetails());
    const { payment, license } = await buyInSandbox(s, buyer.token);
    const invoice = await invoiceOfPayment(s, buyer.token, payment.id);

    const answer = expectRefunded(
      await refund(s, admin, payment.id, { license_action: 'revoke', reason: 'Charged twice by mistake' }),
    );
    expect(answer).toMatchObject({
      payment_id: payment.id,
      paid: 99_900,
      refunded: 99_900,
      refundable: 0,
      invoice: { id: invoice.id, number: invoice.number },
    });
    expect(answer.refunds).toHaveLength(1);
    expect(answer.refunds[0]).toMatchObject({
      amount: 99_900,
      status: 'processed',
      license_action: 'revoke',
      reason: 'Charged twice by mistake',
      actor_id: admin.id,
    });
    expect(answer.refunds[0]!.provider_refund_id).toMatch(/^rfnd_sandbox_/);

    const [note] = await creditNotesOf(s, buyer.token);
    expect(note).toMatchObject({
      kind: 'credit_note',
      number: answer.refunds[0]!.credit_note!.number,
      total: -99_900,
      tax: -15_239,
      subtotal: -84_661,
      corrects: { id: invoice.id, number: invoice.number },
      payment_id: payment.id,
      buyer: invoice.buyer,
    });
    expect(note!.number).toMatch(/^CN-\d{6}$/);

    const row = await licenseRow(s, license.license_id);
    expect(row).toMatchObject({ status: 'revoked', revoked_reason: 'Charged twice by mistake' });
    const [event] = await refundEvents(s, buyer.id);
    expect(event).toMatchObject({ actor_id: admin.id, severity: 'warning' });
    expect(JSON.parse(event!.details ?? '{}')).toMatchObject({
      payment_id: payment.id,
      amount: 99_900,
      credit_note: note!.number,
      license_action: 'revoke',
      license_outcome: 'revoked',
    });

    // The credit note's PDF, downloaded by its owner.
    const pdf = expectPdf(
      await s.api({ path: `/billing/invoices/${note!.id}/pdf`, token: buyer.token }),
      note!.number,
    );
    const text = await pdfText(pdf);
    expect(text).toContain('Credit note');
    expect(text).toContain(`Corrects invoice: ${invoice.number}`);
    expect(text).toMatch(/Total credited\s+-INR 999\.00/);
    expect(text).toMatch(/GST 18%\s+-INR 152\.39/);

    // Nothing is left to refund.
    expectApiError(
      await refund(s, admin, payment.id, { license_action: 'keep' }),
      409,
      'payment_fully_refunded',
    );
  });

  it('partial refunds: each its own credit note, their tax adds up to the invoice tax; shorten ends the license now', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    const { payment, license } = await buyInSandbox(s, buyer.token);
    s.clock.freeze();

    const first = expectRefunded(
      await refund(s, admin, payment.id, { amount: 33_333, license_action: 'keep' }),
    );
    expect(first).toMatchObject({ refunded: 33_333, refundable: 66_567 });
    expect((await licenseRow(s, license.license_id)).status).toBe('active');

    expectApiError(
      await refund(s, admin, payment.id, { amount: 66_568, license_action: 'keep' }),
      409,
      'refund_exceeds_payment',
    );
    const second = expectRefunded(await refund(s, admin, payment.id, { license_action: 'shorten' }));
    expect(second).toMatchObject({ refunded: 99_900, refundable: 0 });
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(s.clock.now().toISOString());

    const notes = await creditNotesOf(s, buyer.token);
    expect(notes.map((note) => note.total)).toEqual([-33_333, -66_567]);
    expect(notes.reduce((sum, note) => sum + note.tax, 0)).toBe(-15_239);
    for (const note of notes) expect(note.subtotal + note.tax).toBe(note.total);
    expect(notes[0]!.lines[0]!.description).toMatch(/^Partial refund of invoice INV-/);
  });

  it('two refunds at once never exceed what was paid: one is refunded, the other refused', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    for (let round = 0; round < 3; round++) {
      const { payment } = await buyInSandbox(s, buyer.token);
      const answers = await Promise.all(
        [60_000, 60_000, 60_000].map((amount) =>
          refund(s, admin, payment.id, { amount, license_action: 'keep' }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
      for (const answer of answers.filter((item) => item.statusCode === 409))
        expectApiError(answer, 409, 'refund_exceeds_payment');
      const rows = await s.app.db
        .selectFrom('refunds')
        .selectAll()
        .where('payment_id', '=', payment.id)
        .execute();
      expect(rows.map((row) => Number(row.amount_minor))).toEqual([60_000]);
    }
    // Credit notes were numbered without gaps, in their own series.
    expect(await sequencesOf(s, 'CN')).toEqual(consecutive((await sequencesOf(s, 'CN')).length));
  });

  it('two app instances on one database refunding the same payment at once: one succeeds, one is refused', async () => {
    const s = server();
    const second = await buildApp(s.config, { clock: s.clock, logger: false });
    try {
      const admin = await signInAsAdmin(s);
      const buyer = await member(s);
      for (let round = 0; round < 3; round++) {
        const { payment } = await buyInSandbox(s, buyer.token);
        const body = { amount: 70_000, license_action: 'keep' };
        const answers = await Promise.all([
          refund(s, admin, payment.id, body),
          second.inject({
            method: 'POST',
            url: `/api/v1/payments/admin/payments/${payment.id}/refunds`,
            headers: { 'x-api-key': 'dap-web-public', authorization: `Bearer ${admin.token}` },
            payload: body,
          }),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
        const rows = await s.app.db
          .selectFrom('refunds')
          .selectAll()
          .where('payment_id', '=', payment.id)
          .execute();
        expect(rows.map((row) => Number(row.amount_minor))).toEqual([70_000]);
      }
      expect(await sequencesOf(s, 'CN')).toEqual(consecutive((await sequencesOf(s, 'CN')).length));
    } finally {
      await second.close();
    }
  });

  it('bad input and other states: 400 for the body, 404 for no payment, 409 unpaid, 403 for users', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    const { payment } = await buyInSandbox(s, buyer.token);
    for (const body of [
      { amount: 0, license_action: 'keep' },
      { amount: -5, license_action: 'keep' },
      { amount: 1.5, license_action: 'keep' },
      { amount: '100', license_action: 'keep' },
      { license_action: 'delete' },
      { license_action: 'keep', extra: 1 },
      {},
    ])
      expectValidationError(await refund(s, admin, payment.id, body));
    expect(expectValidationError(await refund(s, admin, payment.id, { license_action: 'revoke' }))).toMatch(
      /reason/,
    );
    expectApiError(
      await refund(s, admin, 'no-such-payment', { license_action: 'keep' }),
      404,
      'payment_not_found',
    );
    const pro = await planByCode(s, 'pro-monthly');
    const open = await openOrder(s, buyer.token, pro.id);
    expectApiError(await refund(s, admin, open.id, { license_action: 'keep' }), 409, 'payment_not_paid');
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/payments/admin/payments/${payment.id}/refunds`,
        token: buyer.token,
        body: { license_action: 'keep' },
      }),
      403,
      'admin_required',
    );
    // None of them refunded anything.
    const summary = await s.api({
      path: `/payments/admin/payments/${payment.id}/refunds`,
      token: admin.token,
    });
    expect(paymentRefundsSchema.parse(summary.json())).toMatchObject({
      refunded: 0,
      refundable: 99_900,
      refunds: [],
    });
    expect(await refundEvents(s, buyer.id)).toEqual([]);
  });
});

const KEY_ID = 'rzp_test_FakeKey000002';
const KEY_SECRET = 'fake-razorpay-key-secret-0002';

/**
 * A FAKE Razorpay API (its servers cannot be reached from tests): POST /v1/orders and
 * POST /v1/payments/:id/refund answered like the real one, or with an error when told to.
 */
function fakeRazorpayApi() {
  const refunds: { url: string; body: { amount: number; notes: Record<string, string> } }[] = [];
  let refuse = false;
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  };
  const server = createServer((request, response) => {
    void read(request).then((body) => {
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (request.method === 'POST' && request.url === '/v1/orders')
        return send(200, {
          id: `order_Fake${randomBytes(5).toString('hex')}`,
          entity: 'order',
          amount: body['amount'],
          currency: body['currency'],
          status: 'created',
        });
      const match = /^\/v1\/payments\/([^/]+)\/refund$/.exec(request.url ?? '');
      if (request.method === 'POST' && match) {
        if (refuse)
          return send(400, {
            error: {
              code: 'BAD_REQUEST_ERROR',
              description: 'The refund amount provided is greater than amount captured',
            },
          });
        refunds.push({ url: request.url ?? '', body: body as (typeof refunds)[number]['body'] });
        return send(200, {
          id: `rfnd_Fake${randomBytes(5).toString('hex')}`,
          entity: 'refund',
          amount: body['amount'],
          currency: 'INR',
          payment_id: match[1],
          notes: body['notes'],
          status: 'processed',
          speed_processed: 'normal',
          created_at: Math.floor(Date.now() / 1000),
        });
      }
      return send(404, {
        error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found' },
      });
    });
  });
  return {
    refunds,
    refuseNext: (value: boolean) => {
      refuse = value;
    },
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const fake = fakeRazorpayApi();
let fakeUrl: string | undefined;
beforeAll(async () => {
  fakeUrl = await fake.start();
});
afterAll(async () => fake.stop());

describeOnEveryDatabase(
  'refunds through Razorpay (a fake Razorpay API at the HTTP layer)',
  (server) => {
    beforeEach(() => fake.refuseNext(false));

    /** A Razorpay order paid and verified with the checkout signature Razorpay would send. */
    async function paidWithRazorpay(s: TestServer, token: string) {
      const pro = await planByCode(s, 'pro-monthly');
      const order = await openOrder(s, token, pro.id);
      const paymentId = `pay_Fake${randomBytes(6).toString('hex')}`;
      const verified = expectVerified(
        await verifyPayment(s, token, {
          razorpay_order_id: order.order_id,
          razorpay_payment_id: paymentId,
          razorpay_signature: hmacHex(KEY_SECRET, `${order.order_id}|${paymentId}`),
        }),
      );
      return { payment: verified.payment, providerPaymentId: paymentId };
    }

    it('POST /v1/payments/:id/refund is sent with the amount and our ids; its refund id is kept', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const buyer = await member(s);
      const { payment, providerPaymentId } = await paidWithRazorpay(s, buyer.token);
      const answer = expectRefunded(
        await refund(s, admin, payment.id, { amount: 50_000, license_action: 'keep' }),
      );
      const sent = fake.refunds.at(-1);
      expect(sent?.url).toBe(`/v1/payments/${providerPaymentId}/refund`);
      expect(sent?.body).toEqual({
        amount: 50_000,
        notes: { refund_id: answer.refunds[0]!.id, payment_id: payment.id },
      });
      expect(answer.refunds[0]!.provider_refund_id).toMatch(/^rfnd_Fake/);
      expect(answer.refunds[0]!.credit_note?.number).toMatch(/^CN-/);
    });

    it('Razorpay refusing the refund is a 502, and the reserved amount is given back', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const buyer = await member(s);
      const { payment } = await paidWithRazorpay(s, buyer.token);
      const notesBefore = await sequencesOf(s, 'CN');
      fake.refuseNext(true);
      expectApiError(
        await refund(s, admin, payment.id, { license_action: 'keep' }),
        502,
        'payment_provider_unavailable',
      );
      const summary = await s.api({
        path: `/payments/admin/payments/${payment.id}/refunds`,
        token: admin.token,
      });
      expect(paymentRefundsSchema.parse(summary.json())).toMatchObject({ refundable: 99_900, refunds: [] });
      expect(await sequencesOf(s, 'CN')).toEqual(notesBefore);
      fake.refuseNext(false);
      expectRefunded(await refund(s, admin, payment.id, { license_action: 'keep' }));
    });
  },
  {
    env: { RAZORPAY_KEY_ID: KEY_ID, RAZORPAY_KEY_SECRET: KEY_SECRET },
    appOverrides: (config: Config) => {
      const settings = config.payments.razorpay;
      if (!settings || !fakeUrl) throw new Error('the Razorpay keys or the fake API are missing');
      return { paymentProvider: createRazorpayProvider({ ...settings, apiUrl: fakeUrl }) };
    },
  },
);
