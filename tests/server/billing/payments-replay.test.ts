import { expect, it } from 'vitest';
import { paymentVerificationSchema } from '../../../src/shared/api/payments.js';
import { utc } from '../../../src/shared/dates.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { createPlan, member } from '../helpers/license-helpers.js';
import {
  hmacHex,
  licensesOf,
  listening,
  newEventId,
  openOrder,
  payInSandbox,
  postWebhookOverSocket,
  sandboxSecretOf,
  socketClient,
  webhookBodies,
} from '../helpers/payment-helpers.js';

/** A buyer with a paid-for sandbox order whose checkout succeeded but is not verified yet. */
async function paidCheckout(s: TestServer) {
  const buyer = await member(s);
  const plan = await createPlan(s, { price: 75_000, interval: 'year', seats: 2 });
  const order = await openOrder(s, buyer.token, plan.id);
  const checkout = await payInSandbox(s, buyer.token, order.order_id);
  return { buyer, plan, order, checkout };
}

const paymentsOfOrder = (s: TestServer, orderId: string) =>
  s.app.db.selectFrom('payments').selectAll().where('provider_order_id', '=', orderId).execute();

describeOnEveryDatabase('payments: replays and races', (server) => {
  it('10 verifies and 10 webhooks of one payment at once → one paid row, one license, same answers', async () => {
    const s = server();
    const base = await listening(s);
    const { buyer, plan, order, checkout } = await paidCheckout(s);
    const send = socketClient(base, buyer.token);
    const secret = sandboxSecretOf(s);
    const event = { orderId: order.order_id, paymentId: checkout.razorpay_payment_id, amount: order.amount };
    const repeatedId = newEventId();
    // Half the deliveries repeat one event id (redeliveries), half carry their own (distinct events).
    const webhooks = Array.from({ length: 10 }, (_, index) => {
      const body = index % 2 === 0 ? webhookBodies.paymentCaptured(event) : webhookBodies.orderPaid(event);
      return { body, eventId: index < 5 ? repeatedId : newEventId() };
    });

    const [verifies, deliveries] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => send('POST', '/payments/razorpay/verify', checkout))),
      Promise.all(
        webhooks.map(({ body, eventId }) =>
          postWebhookOverSocket(base, body, { signature: hmacHex(secret, body), eventId }),
        ),
      ),
    ]);

    expect(verifies.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const answers = verifies.map((answer) => paymentVerificationSchema.parse(answer.body));
    const licenseIds = new Set(answers.map((answer) => answer.license.license_id));
    expect(licenseIds.size).toBe(1);
    expect(new Set(answers.map((answer) => answer.payment.id))).toEqual(new Set([order.id]));

    expect(deliveries.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const outcomes = deliveries.map((answer) => answer.body['status']);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(4);
    expect(outcomes.filter((outcome) => outcome === 'processed')).toHaveLength(6);

    const rows = await paymentsOfOrder(s, order.order_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'paid',
      provider_payment_id: checkout.razorpay_payment_id,
      license_id: [...licenseIds][0],
    });
    const licenses = await licensesOf(s, buyer.id);
    expect(licenses).toHaveLength(1);
    expect(licenses[0]).toMatchObject({ id: [...licenseIds][0], plan_id: plan.id, max_activations: 2 });
    const recorded = await s.app.db
      .selectFrom('payment_webhook_events')
      .select(['id', 'outcome', 'payment_id'])
      .where('payment_id', '=', order.id)
      .execute();
    expect(recorded).toHaveLength(6);
    expect(new Set(recorded.map((row) => row.outcome))).toEqual(new Set(['processed']));

    // And later, one by one: the same answers, still one license with the same expiry.
    const again = await send('POST', '/payments/razorpay/verify', checkout);
    expect(paymentVerificationSchema.parse(again.body).license).toMatchObject({
      license_id: [...licenseIds][0],
      expires_at: licenses[0]?.expires_at,
    });
    expect(await licensesOf(s, buyer.id)).toHaveLength(1);
  });

  it('webhooks first, verify afterwards: the verify answers the license the webhook granted', async () => {
    const s = server();
    const base = await listening(s);
    const { buyer, order, checkout } = await paidCheckout(s);
    const body = webhookBodies.orderPaid({
      orderId: order.order_id,
      paymentId: checkout.razorpay_payment_id,
      amount: order.amount,
    });
    const delivered = await postWebhookOverSocket(base, body, {
      signature: hmacHex(sandboxSecretOf(s), body),
      eventId: newEventId(),
    });
    expect(delivered).toMatchObject({ status: 200, body: { status: 'processed' } });
    const granted = await licensesOf(s, buyer.id);
    expect(granted).toHaveLength(1);

    const verified = await socketClient(base, buyer.token)('POST', '/payments/razorpay/verify', checkout);
    expect(verified.status).toBe(200);
    expect(paymentVerificationSchema.parse(verified.body).license).toMatchObject({
      license_id: granted[0]?.id,
      expires_at: granted[0]?.expires_at,
    });
    expect(await licensesOf(s, buyer.id)).toHaveLength(1);
  });

  it('two orders of the same plan paid at once extend one license by two intervals', async () => {
    const s = server();
    const base = await listening(s);
    const buyer = await member(s);
    const plan = await createPlan(s, { price: 10_000, interval: 'month' });
    const send = socketClient(base, buyer.token);
    const first = await openOrder(s, buyer.token, plan.id);
    const firstPaid = await payInSandbox(s, buyer.token, first.order_id);
    const { license } = paymentVerificationSchema.parse(
      (await send('POST', '/payments/razorpay/verify', firstPaid)).body,
    );

    const orders = [await openOrder(s, buyer.token, plan.id), await openOrder(s, buyer.token, plan.id)];
    const checkouts = await Promise.all(orders.map((order) => payInSandbox(s, buyer.token, order.order_id)));
    const results = await Promise.all(
      checkouts.map((checkout) => send('POST', '/payments/razorpay/verify', checkout)),
    );
    expect(results.map((result) => result.status)).toEqual([200, 200]);

    const licenses = await licensesOf(s, buyer.id);
    expect(licenses).toHaveLength(1);
    // One month after the other, as two extensions apply them.
    const expected = utc(license.expires_at ?? '')
      .add(1, 'month')
      .add(1, 'month');
    expect(licenses[0]?.expires_at).toBe(expected.toISOString());
  });
});
