import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { WebhookDeliveryDetail, WebhookEndpointWithSecret } from '../../../src/shared/api/webhooks.js';
import type { TestServer } from '../../support/test-server.js';

/** What the receiver does with one request: answer with a status, redirect, or never answer. */
export type Behaviour = number | { redirectTo: string } | 'hang';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The message id, when the signature verified with the receiver's secrets. */
  verifiedId: string | null;
  /** True when this webhook-id was seen before: a replay the receiver can drop. */
  replay: boolean;
}

/**
 * A real webhook receiver on 127.0.0.1, as an integrator would write one: it verifies every
 * request with the official `standardwebhooks` package and remembers the ids it handled. It
 * answers with the behaviours queued in `script`, then 200.
 */
export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  script: Behaviour[];
  /** Secrets the receiver verifies with (any one may match). */
  secrets: string[];
  close(): Promise<void>;
}

/**
 * Standard Webhooks refuses timestamps five minutes away from the receiver's clock; the server
 * under test runs on the test clock, so the receiver reads the same clock while verifying.
 */
export function verifyWithClock(
  s: TestServer,
  secret: string,
  body: string,
  headers: IncomingHttpHeaders,
): string | null {
  const now = s.clock.now().getTime();
  const spy = vi.spyOn(Date, 'now').mockReturnValue(now);
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    return String(headers['webhook-id']);
  } catch {
    return null;
  } finally {
    spy.mockRestore();
  }
}

export async function startReceiver(s: () => TestServer): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const seen = new Set<string>();
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = { url: '', received, script: [], secrets: [], close: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verifiedId =
        receiver.secrets.map((secret) => verifyWithClock(s(), secret, body, request.headers)).find(Boolean) ??
        null;
      const replay = verifiedId !== null && seen.has(verifiedId);
      received.push({ path: request.url ?? '/', headers: request.headers, body, verifiedId, replay });
      const behaviour = receiver.script.shift() ?? 200;
      if (behaviour === 'hang') {
        hanging.add(response);
        return;
      }
      if (typeof behaviour === 'object') {
        response.writeHead(302, { location: behaviour.redirectTo }).end('moved');
        return;
      }
      if (verifiedId && behaviour >= 200 && behaviour < 300) seen.add(verifiedId);
      response.writeHead(behaviour, { 'content-type': 'text/plain' }).end(`answered ${behaviour}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

export async function createEndpoint(
  s: TestServer,
  token: string,
  body: { url: string; event_types: string[]; description?: string },
): Promise<WebhookEndpointWithSecret> {
  const response = await s.api({ method: 'POST', path: '/admin/webhooks', token, body });
  if (response.statusCode !== 201)
    throw new Error(`endpoint not created: ${response.statusCode} ${response.body}`);
  return response.json<WebhookEndpointWithSecret>();
}

/** The deliveries of an endpoint, newest first, with their attempts. */
export async function deliveriesOf(
  s: TestServer,
  token: string,
  endpointId: string,
): Promise<WebhookDeliveryDetail[]> {
  const list = await s.api({ path: `/admin/webhooks/${endpointId}/deliveries?perPage=100`, token });
  if (list.statusCode !== 200) throw new Error(`deliveries not listed: ${list.body}`);
  const details: WebhookDeliveryDetail[] = [];
  for (const delivery of list.json<{ data: { id: string }[] }>().data) {
    const detail = await s.api({ path: `/admin/webhooks/deliveries/${delivery.id}`, token });
    details.push(detail.json<WebhookDeliveryDetail>());
  }
  return details;
}

/**
 * Runs the delivery worker's passes, moving the test clock to each retry, until nothing is
 * pending or `maxPasses` ran: a day of backoff in a moment, without racing real time.
 */
export async function deliverUntilSettled(s: TestServer, maxPasses = 20): Promise<void> {
  for (let pass = 0; pass < maxPasses; pass++) {
    await s.app.webhookDeliveries.drain();
    const next = await s.app.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!next?.next) return;
    const wait = new Date(next.next).getTime() - s.clock.now().getTime();
    if (wait > 0) s.clock.advance(wait);
  }
}
