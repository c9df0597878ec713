import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import { member } from '../helpers/license-helpers.js';
import {
  declineInSandbox,
  expectVerified,
  hmacHex,
  licensesOf,
  newEventId,
  openOrder,
  payInSandbox,
  paymentRow,
  paymentTables,
  postWebhook,
  sandboxSecretOf,
  verifyPayment,
  webhookBodies,
} from '../helpers/payment-helpers.js';

/** Posts a webhook body signed with the server's (sandbox) webhook secret. */
const signedWebhook = (s: TestServer, body: string, eventId = newEventId()) =>
  postWebhook(s, body, { signature: hmacHex(sandboxSecretOf(s), body), eventId });

async function openedOrder(s: TestServer) {
  const buyer = await member(s);
  const order = await openOrder(s, buyer.token, 'pro-monthly');
  return {
    buyer,
    order,
    event: {
      orderId: order.order_id,
      paymentId: `pay_Hook${randomBytes(6).toString('hex')}`,
      amount: order.amount,
    },
  };
}

describeOnEveryDatabase('payments: webhooks', (server) => {
  it('a bad or missing signature → 400 and a security event; nothing else is written', async () => {
    const s = server();
    const { buyer, event } = await openedOrder(s);
    const body = webhookBodies.paymentCaptured(event);
    const before = await paymentTables(s);
    const eventsBefore = (await securityEvents(s, { type: 'webhook_signature_failed' })).length;

    // From three addresses: each address's first refusal of the minute is logged.
    expectApiError(
      await postWebhook(s, body, { eventId: newEventId(), remoteAddress: '203.0.113.1' }),
      400,
      'invalid_signature',
    );
    expectApiError(
      await postWebhook(s, body, {
        signature: hmacHex('wrong secret', body),
        eventId: newEventId(),
        remoteAddress: '203.0.113.2',
      }),
      400,
      'invalid_signature',
    );
    expectApiError(
      await postWebhook(s, body, { signature: 'not-hex', remoteAddress: '203.0.113.3' }),
      400,
      'invalid_signature',
    );

    expect(await paymentTables(s)).toEqual(before);
    expect(await licensesOf(s, buyer.id)).toEqual([]);
    const events = await securityEvents(s, { type: 'webhook_signature_failed' });
    expect(events.slice(eventsBefore).map((row) => row.severity)).toEqual([
      'warning',
      'critical',
      'critical',
    ]);
    expect(JSON.parse(events.at(-1)?.details ?? '{}')).toMatchObject({ provider: 'sandbox' });
  });

  it('a flood of refused posts from one address leaves one security event a minute, and every post is refused', async () => {
    const s = server();
    const { event } = await openedOrder(s);
    const body = webhookBodies.paymentCaptured(event);
    const fromFlooder = () =>
      postWebhook(s, body, { signature: hmacHex('forged', body), remoteAddress: '198.51.100.7' });
    const flooderEvents = () => securityEvents(s, { type: 'webhook_signature_failed', ip: '198.51.100.7' });

    for (let post = 0; post < 20; post += 1) expectApiError(await fromFlooder(), 400, 'invalid_signature');
    expect(await flooderEvents()).toHaveLength(1);

    s.clock.advance(61_000);
    expectApiError(await fromFlooder(), 400, 'invalid_signature');
    expect(await flooderEvents()).toHaveLength(2);
  });

  it('needs no API key or bearer token, only the signature', async () => {
    const s = server();
    const { buyer, event } = await openedOrder(s);
    const response = await signedWebhook(s, webhookBodies.paymentCaptured(event));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'processed' });
    expect(await licensesOf(s, buyer.id)).toHaveLength(1);
  });

  it('a signed event with a NUL character → 400 on every database, nothing written', async () => {
    const s = server();
    const { buyer, event } = await openedOrder(s);
    const before = await paymentTables(s);
    // PostgreSQL cannot store NUL in text and SQLite can: both refuse before writing.
    const nulInType = webhookBodies
      .paymentCaptured(event)
      .replace('"payment.captured"', '"refund.processed\\u0000"');
    const nulInReason = webhookBodies
      .paymentFailed(event)
      .replace('declined by the bank', 'declined\\u0000by the bank');
    for (const body of [nulInType, nulInReason]) {
      expectApiError(await signedWebhook(s, body), 400, 'invalid_characters');
    }
    expect(await paymentTables(s)).toEqual(before);
    expect(await licensesOf(s, buyer.id)).toEqual([]);
  });

  it('an unknown event type → 200 ignored, recorded, nothing granted', async () => {
    const s = server();
    const { buyer, order, event } = await openedOrder(s);
    const body = webhookBodies.paymentCaptured(event).replace('"payment.captured"', '"refund.processed"');
    const eventId = newEventId();
    const response = await signedWebhook(s, body, eventId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'ignored' });
    expect(await licensesOf(s, buyer.id)).toEqual([]);
    expect(await paymentRow(s, order.id)).toMatchObject({ status: 'created', license_id: null });
    const recorded = await s.app.db
      .selectFrom('payment_webhook_events')
      .selectAll()
      .where('id', '=', eventId)
      .executeTakeFirst();
    expect(recorded).toMatchObject({ event_type: 'refund.processed', outcome: 'ignored' });
    expect((await signedWebhook(s, body, eventId)).json()).toEqual({ status: 'duplicate' });
  });

  it('an event for an order this server did not open → 200 ignored', async () => {
    const s = server();
    const before = (await paymentTables(s)).payments;
    const body = webhookBodies.orderPaid({
      orderId: 'order_NotOurs000001',
      paymentId: 'pay_NotOurs01',
      amount: 100,
    });
    const response = await signedWebhook(s, body);
    expect(response.json()).toEqual({ status: 'ignored' });
    expect((await paymentTables(s)).payments).toEqual(before);
  });

  it('payment.failed after paid (out of order) leaves it paid with its license', async () => {
    const s = server();
    const { buyer, order } = await openedOrder(s);
    const paid = await payInSandbox(s, buyer.token, order.order_id);
    const { license } = expectVerified(await verifyPayment(s, buyer.token, paid));
    const late = webhookBodies.paymentFailed({
      orderId: order.order_id,
      paymentId: 'pay_EarlierAttempt01',
      amount: order.amount,
    });
    const response = await signedWebhook(s, late);
    expect(response.statusCode, response.body).toBe(200);
    expect(await paymentRow(s, order.id)).toMatchObject({
      status: 'paid',
      provider_payment_id: paid.razorpay_payment_id,
      license_id: license.license_id,
      failure_reason: null,
    });
    expect(await licensesOf(s, buyer.id)).toHaveLength(1);
  });

  it('payment.failed then payment.captured of a retry: failed with the bank’s reason, then paid', async () => {
    const s = server();
    const { buyer, order, event } = await openedOrder(s);
    await signedWebhook(s, webhookBodies.paymentFailed({ ...event, paymentId: 'pay_FirstTry0000001' }));
    expect(await paymentRow(s, order.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'Payment was declined by the bank',
    });
    await signedWebhook(s, webhookBodies.paymentCaptured({ ...event, paymentId: 'pay_SecondTry000001' }));
    expect(await paymentRow(s, order.id)).toMatchObject({
      status: 'paid',
      provider_payment_id: 'pay_SecondTry000001',
      failure_reason: null,
    });
    expect(await licensesOf(s, buyer.id)).toHaveLength(1);
  });

  it('a captured amount or currency other than the order’s → 200 rejected, a security event, no license', async () => {
    const s = server();
    const { buyer, order, event } = await openedOrder(s);
    for (const reported of [{ amount: order.amount - 100 }, { currency: 'USD' }]) {
      const response = await signedWebhook(s, webhookBodies.paymentCaptured({ ...event, ...reported }));
      expect(response.json()).toEqual({ status: 'rejected' });
    }
    const orderPaid = JSON.parse(webhookBodies.orderPaid(event)) as {
      payload: { order: { entity: { amount: number } } };
    };
    orderPaid.payload.order.entity.amount = 1;
    expect((await signedWebhook(s, JSON.stringify(orderPaid))).json()).toEqual({ status: 'rejected' });

    expect(await paymentRow(s, order.id)).toMatchObject({ status: 'created', license_id: null });
    expect(await licensesOf(s, buyer.id)).toEqual([]);
    const events = await securityEvents(s, { type: 'payment_webhook_rejected', userId: buyer.id });
    expect(events).toHaveLength(3);
    expect(events.map((row) => row.severity)).toEqual(['critical', 'critical', 'critical']);
    expect(JSON.parse(events[0]?.details ?? '{}')).toMatchObject({
      reason: 'amount_or_currency_mismatch',
      expected: { amount: order.amount, currency: 'INR' },
    });
  });

  it('a capture of another payment on an already-paid order → rejected with a security event, license unchanged', async () => {
    const s = server();
    const { buyer, order, event } = await openedOrder(s);
    await signedWebhook(s, webhookBodies.paymentCaptured(event));
    const [license] = await licensesOf(s, buyer.id);
    const paid = await paymentRow(s, order.id);
    const second = await signedWebhook(
      s,
      webhookBodies.paymentCaptured({ ...event, paymentId: 'pay_DoubleCharge001' }),
    );
    expect(second.json()).toEqual({ status: 'rejected' });
    expect(await licensesOf(s, buyer.id)).toEqual([license]);
    expect(await paymentRow(s, order.id)).toEqual(paid);
    const events = await securityEvents(s, { type: 'payment_webhook_rejected', userId: buyer.id });
    expect(JSON.parse(events.at(-1)?.details ?? '{}')).toMatchObject({
      reason: 'order_already_paid_by_another_payment',
      paid_by: event.paymentId,
    });
  });

  it('a payment id already recorded on another order → 409, nothing written', async () => {
    const s = server();
    const first = await openedOrder(s);
    await signedWebhook(s, webhookBodies.paymentCaptured(first.event));
    const second = await openedOrder(s);
    const before = await paymentTables(s);
    for (const body of [
      webhookBodies.paymentCaptured({ ...second.event, paymentId: first.event.paymentId }),
      webhookBodies.paymentFailed({ ...second.event, paymentId: first.event.paymentId }),
    ]) {
      expectApiError(await signedWebhook(s, body), 409, 'provider_payment_id_in_use');
    }
    expect(await paymentTables(s)).toEqual(before);
  });

  it('a redelivery without an event id is recognised by its body', async () => {
    const s = server();
    const { buyer, event } = await openedOrder(s);
    const body = webhookBodies.paymentFailed(event);
    const signature = hmacHex(sandboxSecretOf(s), body);
    expect((await postWebhook(s, body, { signature })).json()).toEqual({ status: 'processed' });
    expect((await postWebhook(s, body, { signature })).json()).toEqual({ status: 'duplicate' });
    expect(await licensesOf(s, buyer.id)).toEqual([]);
  });

  it('a signed body that is not an event → 400; another content type → 415; nothing written', async () => {
    const s = server();
    const before = await paymentTables(s);
    for (const body of ['not json', '{"event":""}', '[]']) {
      expectApiError(await signedWebhook(s, body), 400, 'invalid_webhook');
    }
    const form = await s.api({
      method: 'POST',
      path: '/payments/razorpay/webhook',
      withoutApiKey: true,
      body: 'event=payment.captured',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    expect(await paymentTables(s)).toEqual(before);
  });

  it('a declined sandbox payment later captured by webhook becomes paid', async () => {
    const s = server();
    const { buyer, order, event } = await openedOrder(s);
    await declineInSandbox(s, buyer.token, order.order_id);
    await signedWebhook(s, webhookBodies.orderPaid(event));
    expect(await paymentRow(s, order.id)).toMatchObject({ status: 'paid' });
    expect(await licensesOf(s, buyer.id)).toHaveLength(1);
  });
});
