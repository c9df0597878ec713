import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '../../support/test-server.js';
import { hmacHex, newEventId, postWebhook } from './payment-helpers.js';

// The fake Razorpay API the Razorpay subscription suites share (subscriptions-razorpay.test.ts,
// subscriptions-card-trials-razorpay.test.ts): Razorpay's servers cannot be reached from tests.

export const KEY_ID = 'rzp_test_FakeSubs000001';
export const KEY_SECRET = 'fake-razorpay-subscriptions-key-secret';
export const WEBHOOK_SECRET = 'fake-razorpay-subscriptions-webhook-secret';

export interface FakeRequest {
  method: string;
  url: string;
  body: Record<string, unknown> | undefined;
}

/**
 * A FAKE Razorpay API (Razorpay's servers cannot be reached from tests): plans, subscriptions,
 * their add-ons, their cancellation and payments, answered in the shapes of Razorpay's API reference, recording what was sent.
 */
export function fakeRazorpaySubscriptionsApi() {
  const requests: FakeRequest[] = [];
  let refuse = false;
  let refuseRefunds = false;
  /** Add-ons made, newest last, as `GET /v1/addons` lists them (newest first). */
  const addons: Record<string, unknown>[] = [];
  /** The next add-on is made, but the connection drops before its answer (a lost answer). */
  let loseNextAddonAnswer = false;
  /** Razorpay's clock (Unix seconds): the real one unless a test sets it to its own. */
  let clock = () => Math.floor(Date.now() / 1000);
  const cancelled = new Set<string>();
  /** Subscriptions paused through `POST /v1/subscriptions/{id}/pause` and not resumed since. */
  const paused = new Set<string>();
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    return raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
  };
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const method = request.method ?? '';
      const url = request.url ?? '';
      requests.push({ method, url, body });
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (refuse)
        return send(500, { error: { code: 'SERVER_ERROR', description: 'We are facing some trouble' } });
      const now = clock();
      if (method === 'POST' && url === '/v1/plans' && body)
        return send(200, {
          id: `plan_Fake${randomBytes(5).toString('hex')}`,
          entity: 'plan',
          interval: body['interval'],
          period: body['period'],
          item: {
            id: `item_Fake${randomBytes(5).toString('hex')}`,
            active: true,
            ...(body['item'] as object),
          },
          notes: body['notes'] ?? [],
          created_at: now,
        });
      if (method === 'POST' && url === '/v1/subscriptions' && body)
        return send(200, {
          id: `sub_Fake${randomBytes(5).toString('hex')}`,
          entity: 'subscription',
          plan_id: body['plan_id'],
          status: 'created',
          total_count: body['total_count'],
          paid_count: 0,
          customer_notify: true,
          short_url: 'https://rzp.io/i/fake',
          notes: body['notes'] ?? [],
          created_at: now,
        });
      // The payment that authorised a new card (Checkout's `subscription_card_change`).
      const payment = /^\/v1\/payments\/(pay_\w+)$/.exec(url);
      if (method === 'GET' && payment)
        return send(200, {
          id: payment[1],
          entity: 'payment',
          amount: 0,
          currency: 'INR',
          status: 'refunded',
          method: 'card',
          card: { id: 'card_FakeNew', last4: '4242', network: 'MasterCard', type: 'credit' },
          created_at: now,
        });
      const cancel = /^\/v1\/subscriptions\/(sub_\w+)\/cancel$/.exec(url);
      if (method === 'POST' && cancel) {
        // Razorpay refuses to cancel twice.
        if (cancelled.has(cancel[1] ?? ''))
          return send(400, {
            error: {
              code: 'BAD_REQUEST_ERROR',
              description: 'Subscription is not cancellable in cancelled status.',
            },
          });
        cancelled.add(cancel[1] ?? '');
        return send(200, { id: cancel[1], entity: 'subscription', status: 'cancelled', ended_at: now });
      }
      // Pause and resume "now", refused as Razorpay refuses them: pausing a paused one, resuming an active one.
      const pauseOrResume = /^\/v1\/subscriptions\/(sub_\w+)\/(pause|resume)$/.exec(url);
      if (method === 'POST' && pauseOrResume) {
        const id = pauseOrResume[1] ?? '';
        const pausing = pauseOrResume[2] === 'pause';
        if (pausing === paused.has(id))
          return send(400, {
            error: {
              code: 'BAD_REQUEST_ERROR',
              description: `Subscription is not ${pausing ? 'pausable' : 'resumable'} in ${pausing ? 'paused' : 'active'} status.`,
            },
          });
        if (pausing) paused.add(id);
        else paused.delete(id);
        return send(200, { id, entity: 'subscription', status: pausing ? 'paused' : 'active' });
      }
      // An extra charge on the subscription's next invoice (the overage of an ended usage period).
      const addon = /^\/v1\/subscriptions\/(sub_\w+)\/addons$/.exec(url);
      if (method === 'POST' && addon && body) {
        const item = body['item'] as Record<string, unknown>;
        const made = {
          id: `ao_Fake${randomBytes(5).toString('hex')}`,
          entity: 'addon',
          item: { id: `item_Fake${randomBytes(5).toString('hex')}`, active: true, type: 'addon', ...item },
          quantity: body['quantity'] ?? 1,
          created_at: now,
          subscription_id: addon[1],
          invoice_id: null,
        };
        addons.push(made);
        if (loseNextAddonAnswer) {
          loseNextAddonAnswer = false;
          response.socket?.destroy();
          return;
        }
        return send(200, made);
      }
      // Every add-on of the account, newest first, filtered by `from`/`to` and paged by `count`/`skip`.
      if (method === 'GET' && url.startsWith('/v1/addons?')) {
        const query = new URL(url, 'http://fake').searchParams;
        const from = Number(query.get('from') ?? 0);
        const to = Number(query.get('to') ?? Number.MAX_SAFE_INTEGER);
        const count = Math.min(100, Number(query.get('count') ?? 10));
        const skip = Number(query.get('skip') ?? 0);
        const listed = addons
          .filter((made) => (made['created_at'] as number) >= from && (made['created_at'] as number) <= to)
          .reverse()
          .slice(skip, skip + count);
        return send(200, { entity: 'collection', count: listed.length, items: listed });
      }
      const subscription = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(url);
      if (method === 'GET' && subscription)
        return send(200, {
          id: subscription[1],
          entity: 'subscription',
          plan_id: 'plan_Fake',
          status: cancelled.has(subscription[1] ?? '')
            ? 'cancelled'
            : paused.has(subscription[1] ?? '')
              ? 'paused'
              : 'active',
          created_at: now,
        });
      const refund = /^\/v1\/payments\/(pay_\w+)\/refund$/.exec(url);
      if (method === 'POST' && refund && body) {
        if (refuseRefunds)
          return send(502, { error: { code: 'GATEWAY_ERROR', description: 'The bank did not answer' } });
        return send(200, {
          id: `rfnd_Fake${randomBytes(5).toString('hex')}`,
          entity: 'refund',
          amount: body['amount'],
          currency: 'INR',
          payment_id: refund[1],
          notes: body['notes'],
          status: 'processed',
          speed_processed: 'normal',
          created_at: now,
        });
      }
      return send(404, {
        error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found' },
      });
    });
  });
  return {
    requests,
    refuse: (next: boolean) => {
      refuse = next;
    },
    refuseRefunds: (next: boolean) => {
      refuseRefunds = next;
    },
    /** The add-ons made so far (whether or not their answer arrived). */
    addons,
    loseNextAddonAnswer: () => {
      loseNextAddonAnswer = true;
    },
    /** Razorpay's clock follows `now` (a test's clock), or the real one again with none. */
    useClock: (now?: () => Date) => {
      clock = now ? () => Math.floor(now().getTime() / 1000) : () => Math.floor(Date.now() / 1000);
    },
    start: () =>
      new Promise<string>((done) =>
        server.listen(0, '127.0.0.1', () =>
          done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * A subscription webhook body in the format of Razorpay's webhook reference (`subscription.charged`
 * carries the subscription and the payment; times are Unix seconds), signed with the webhook secret.
 */
export function subscriptionEvent(
  event: string,
  subscription: { id: string; paidCount: number; status: string; endedAt?: number },
  payment?: { id: string; amount: number; currency?: string; errorDescription?: string },
) {
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    entity: 'event',
    account_id: 'acc_FakeAccount01',
    event,
    contains: payment ? ['subscription', 'payment'] : ['subscription'],
    payload: {
      subscription: {
        entity: {
          id: subscription.id,
          entity: 'subscription',
          plan_id: 'plan_Fake',
          status: subscription.status,
          current_start: now,
          current_end: now + 30 * 86_400,
          ended_at: subscription.endedAt ?? null,
          quantity: 1,
          total_count: 120,
          paid_count: subscription.paidCount,
          remaining_count: 120 - subscription.paidCount,
          payment_method: 'card',
          customer_notify: true,
          created_at: now - 60,
          source: 'api',
        },
      },
      ...(payment
        ? {
            payment: {
              entity: {
                id: payment.id,
                entity: 'payment',
                amount: payment.amount,
                currency: payment.currency ?? 'INR',
                status: payment.errorDescription ? 'failed' : 'captured',
                order_id: `order_Fake${randomBytes(4).toString('hex')}`,
                invoice_id: `inv_Fake${randomBytes(4).toString('hex')}`,
                method: 'card',
                card: { id: 'card_Fake', last4: '1111', network: 'Visa', type: 'credit' },
                error_description: payment.errorDescription ?? null,
                captured: !payment.errorDescription,
                created_at: now,
              },
            },
          }
        : {}),
    },
    created_at: now,
  });
  return { body, signature: hmacHex(WEBHOOK_SECRET, body) };
}

export const deliver = (s: TestServer, event: ReturnType<typeof subscriptionEvent>, eventId = newEventId()) =>
  postWebhook(s, event.body, { signature: event.signature, eventId });

/** What Checkout hands the page for `paymentId` on a subscription: HMAC-SHA256(payment_id|subscription_id). */
export const signedAnswer = (subscriptionId: string, paymentId: string) => ({
  razorpay_subscription_id: subscriptionId,
  razorpay_payment_id: paymentId,
  razorpay_signature: hmacHex(KEY_SECRET, `${paymentId}|${subscriptionId}`),
});
