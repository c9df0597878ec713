import { validatePaymentVerification, validateWebhookSignature } from 'razorpay/dist/utils/razorpay-utils.js';
import { describe, expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import { expectValidationError } from '../helpers/admin-helpers.js';
import { member } from '../helpers/license-helpers.js';
import {
  alterOneByte,
  expectVerified,
  hmacHex,
  licensesOf,
  newEventId,
  openOrder,
  payInSandbox,
  paymentTables,
  postWebhook,
  sandboxSecretOf,
  verifyPayment,
  webhookBodies,
} from '../helpers/payment-helpers.js';

/** Expects a refused verify: 400 invalid_signature, a warning event for the buyer, and no other write. */
async function expectRefusedVerify(s: TestServer, buyer: { id: string; token: string }, body: unknown) {
  const before = await paymentTables(s);
  const eventsBefore = await securityEvents(s, { type: 'payment_verification_failed', userId: buyer.id });
  expectApiError(await verifyPayment(s, buyer.token, body), 400, 'invalid_signature');
  expect(await paymentTables(s)).toEqual(before);
  const events = await securityEvents(s, { type: 'payment_verification_failed', userId: buyer.id });
  expect(events).toHaveLength(eventsBefore.length + 1);
  expect(events.at(-1)).toMatchObject({ severity: 'warning', user_id: buyer.id });
  return events.at(-1);
}

describeOnEveryDatabase('payments: signatures', (server) => {
  describe("Razorpay's own utilities (razorpay/dist/utils/razorpay-utils)", () => {
    it('validatePaymentVerification accepts the signature the sandbox checkout made, and not one altered', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      const paid = await payInSandbox(s, buyer.token, order.order_id);
      const secret = sandboxSecretOf(s);
      const params = { order_id: order.order_id, payment_id: paid.razorpay_payment_id };
      expect(validatePaymentVerification(params, paid.razorpay_signature, secret)).toBe(true);
      expect(validatePaymentVerification(params, alterOneByte(paid.razorpay_signature), secret)).toBe(false);
    });

    it('a checkout signature that validates with validatePaymentVerification is accepted by verify', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      const secret = sandboxSecretOf(s);
      const paymentId = 'pay_Utility0000001';
      const signature = hmacHex(secret, `${order.order_id}|${paymentId}`);
      expect(
        validatePaymentVerification({ order_id: order.order_id, payment_id: paymentId }, signature, secret),
      ).toBe(true);
      const body = {
        razorpay_order_id: order.order_id,
        razorpay_payment_id: paymentId,
        razorpay_signature: signature,
      };

      const altered = { ...body, razorpay_signature: alterOneByte(signature) };
      expect(
        validatePaymentVerification(
          { order_id: order.order_id, payment_id: paymentId },
          altered.razorpay_signature,
          secret,
        ),
      ).toBe(false);
      await expectRefusedVerify(s, buyer, altered);

      const { payment, license } = expectVerified(await verifyPayment(s, buyer.token, body));
      expect(payment).toMatchObject({ status: 'paid', payment_id: paymentId });
      expect(license.status).toBe('active');
    });

    it('a webhook body that validates with validateWebhookSignature is accepted; altered by a byte it is not', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      const secret = sandboxSecretOf(s);
      const body = webhookBodies.paymentCaptured({
        orderId: order.order_id,
        paymentId: 'pay_Webhook0000001',
        amount: order.amount,
      });
      const signature = hmacHex(secret, body);
      expect(validateWebhookSignature(body, signature, secret)).toBe(true);

      const before = await paymentTables(s);
      const badSignature = alterOneByte(signature);
      expect(validateWebhookSignature(body, badSignature, secret)).toBe(false);
      expectApiError(
        await postWebhook(s, body, { signature: badSignature, eventId: newEventId() }),
        400,
        'invalid_signature',
      );
      // The body changed by one byte (a larger amount) under the original signature.
      const tampered = body.replace(`"amount":${order.amount}`, `"amount":${order.amount + 1}`);
      expect(tampered).not.toBe(body);
      expect(validateWebhookSignature(tampered, signature, secret)).toBe(false);
      expectApiError(
        await postWebhook(s, tampered, { signature, eventId: newEventId() }),
        400,
        'invalid_signature',
      );
      expect(await paymentTables(s)).toEqual(before);

      const accepted = await postWebhook(s, body, { signature, eventId: newEventId() });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toEqual({ status: 'processed' });
      expect(await licensesOf(s, buyer.id)).toHaveLength(1);
    });
  });

  describe('refused verifies: 400, a security event, nothing changed', () => {
    it('a forged signature (random hex, or made with another secret)', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      const paymentId = 'pay_Forged00000001';
      const base = { razorpay_order_id: order.order_id, razorpay_payment_id: paymentId };
      const event = await expectRefusedVerify(s, buyer, { ...base, razorpay_signature: 'ab'.repeat(32) });
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
        payment_id: order.id,
        order_id: order.order_id,
      });
      await expectRefusedVerify(s, buyer, {
        ...base,
        razorpay_signature: hmacHex('not the key secret of this server', `${order.order_id}|${paymentId}`),
      });
      expect(await licensesOf(s, buyer.id)).toEqual([]);
    });

    it("a replayed signature: another order's valid checkout sent with this order's id", async () => {
      const s = server();
      const buyer = await member(s);
      const first = await openOrder(s, buyer.token, 'pro-monthly');
      const second = await openOrder(s, buyer.token, 'pro-monthly');
      const paidFirst = await payInSandbox(s, buyer.token, first.order_id);
      await expectRefusedVerify(s, buyer, { ...paidFirst, razorpay_order_id: second.order_id });
      expect(await licensesOf(s, buyer.id)).toEqual([]);
    });

    it('a mismatched signature: a valid signature with another payment id', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      const paid = await payInSandbox(s, buyer.token, order.order_id);
      await expectRefusedVerify(s, buyer, { ...paid, razorpay_payment_id: 'pay_SomeoneElse0001' });
    });

    it('malformed verify bodies → 400 validation errors, no event', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      const paid = await payInSandbox(s, buyer.token, order.order_id);
      const before = await paymentTables(s);
      expect(
        expectValidationError(await verifyPayment(s, buyer.token, { ...paid, razorpay_signature: '' })),
      ).toContain('razorpay_signature');
      expectValidationError(await verifyPayment(s, buyer.token, { ...paid, razorpay_order_id: undefined }));
      expectValidationError(await verifyPayment(s, buyer.token, { ...paid, amount: 1 }));
      expectValidationError(
        await verifyPayment(s, buyer.token, { ...paid, razorpay_payment_id: 'pay x; drop' }),
      );
      expect(await paymentTables(s)).toEqual(before);
      expect(await securityEvents(s, { type: 'payment_verification_failed', userId: buyer.id })).toEqual([]);
    });
  });

  it('an unknown order → 404; a second, different payment of a paid order → 409; neither changes anything', async () => {
    const s = server();
    const buyer = await member(s);
    const secret = sandboxSecretOf(s);
    expectApiError(
      await verifyPayment(s, buyer.token, {
        razorpay_order_id: 'order_sandbox_unknown',
        razorpay_payment_id: 'pay_X',
        razorpay_signature: hmacHex(secret, 'order_sandbox_unknown|pay_X'),
      }),
      404,
      'payment_not_found',
    );
    const order = await openOrder(s, buyer.token, 'pro-monthly');
    const paid = await payInSandbox(s, buyer.token, order.order_id);
    const first = expectVerified(await verifyPayment(s, buyer.token, paid));
    const before = await paymentTables(s);
    const otherPayment = 'pay_SecondAttempt01';
    expectApiError(
      await verifyPayment(s, buyer.token, {
        razorpay_order_id: order.order_id,
        razorpay_payment_id: otherPayment,
        razorpay_signature: hmacHex(secret, `${order.order_id}|${otherPayment}`),
      }),
      409,
      'payment_already_completed',
    );
    expect(await paymentTables(s)).toEqual(before);
    const replay = expectVerified(await verifyPayment(s, buyer.token, paid));
    expect(replay).toEqual(first);
  });
});
