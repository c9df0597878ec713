import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/server/platform/config.js';
import { apiPaths } from '../../../src/shared/api-paths.js';
import { describeOnEveryDatabase, STRONG_PASSWORD, uniqueEmail } from '../../support/test-server.js';
import { signIn } from '../helpers/admin-helpers.js';
import { createEndpoint, deliverUntilSettled, startReceiver } from '../integrations/webhook-helpers.js';

/** A span as OTLP/HTTP's JSON encoding carries it (ids in hex). */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1, as a collector listens for traces: it takes the JSON the
 * exporter posts to /v1/traces and keeps every span, and every body as it came.
 */
async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (request.url !== '/v1/traces' || !request.headers['content-type']?.includes('json')) {
        response.writeHead(415).end();
        return;
      }
      bodies.push(body);
      const parsed = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[];
      };
      for (const resource of parsed.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const otlp = await startOtlpReceiver();
afterAll(() => otlp.close());

const attribute = (span: ReceivedSpan | undefined, key: string) => {
  const value = span?.attributes.find((item) => item.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

/** A caller's W3C trace context: a fresh trace id and the caller's own span id. */
const callerTrace = () => {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};

describeOnEveryDatabase(
  'traces sent to an OTLP receiver started by the test',
  (server) => {
    /** Flushes the app's spans until the receiver has the request's own span (it ends after the answer). */
    async function spansOfTrace(traceId: string, serverSpanName: string) {
      await vi.waitFor(
        async () => {
          await server().app.tracing.flush();
          const names = otlp.spans.filter((span) => span.traceId === traceId).map((span) => span.name);
          expect(names).toContain(serverSpanName);
        },
        { timeout: 30_000, interval: 50 },
      );
      return otlp.spans.filter((span) => span.traceId === traceId);
    }

    it('makes a span per request and per query, and carries the request into the mail it queued', async () => {
      const s = server();
      const caller = callerTrace();
      const requestId = `register-${randomUUID()}`;
      const email = uniqueEmail('traced');
      const registered = await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email, password: STRONG_PASSWORD },
        headers: { traceparent: caller.traceparent, 'x-request-id': requestId },
      });
      expect(registered.statusCode).toBe(202);

      const spans = await spansOfTrace(caller.traceId, 'POST /api/v1/auth/register');
      const request = spans.find((span) => span.name === 'POST /api/v1/auth/register');
      // The request continues the caller's trace, under the caller's span.
      expect(request?.parentSpanId).toBe(caller.spanId);
      expect(attribute(request, 'http.request.id')).toBe(requestId);
      expect(attribute(request, 'http.route')).toBe('/api/v1/auth/register');
      expect(attribute(request, 'http.response.status_code')).toBe(202);

      // The verification mail was sent by the worker later, in a span continuing the request's.
      const mailSpan = spans.find((span) => span.name.startsWith('mail '));
      expect(mailSpan?.parentSpanId).toBe(request?.spanId);

      // Each statement is a span under the work that ran it: the request's, or the mail worker's.
      const queries = spans.filter((span) => span.name.startsWith('db '));
      const ofRequest = queries.filter((query) => query.parentSpanId === request?.spanId);
      expect(ofRequest.map((query) => attribute(query, 'db.operation.name'))).toContain('insert');
      for (const query of queries) expect([request?.spanId, mailSpan?.spanId]).toContain(query.parentSpanId);
      expect(attribute(queries[0], 'db.system.name')).toBe(
        s.dialect === 'postgres' ? 'postgresql' : 'sqlite',
      );
      expect(attribute(mailSpan, 'http.request.id')).toBe(requestId);
      const mail = await s.lastMailTo(email);
      expect(mail.headers.get('x-request-id')).toBe(requestId);

      // What a trace carries is masked like the log: the password and the mailed link's token never leave.
      const sent = otlp.bodies.join('\n');
      expect(sent).not.toContain(STRONG_PASSWORD);
      const token = /token=([\w-]+)/.exec(mail.text)?.[1];
      expect(token).toBeTruthy();
      expect(sent).not.toContain(token);
    });

    it("carries the request's id and trace into a webhook delivery made later by the worker", async () => {
      const s = server();
      const admin = await signIn(s, 'admin', 'traces-admin');
      const receiver = await startReceiver(server);
      try {
        const endpoint = await createEndpoint(s, admin.token, {
          url: `${receiver.url}/hooks`,
          event_types: ['license.created'],
        });
        receiver.secrets.push(endpoint.secret);
        const caller = callerTrace();
        const requestId = `webhook-test-${randomUUID()}`;
        const sentTest = await s.api({
          method: 'POST',
          path: apiPaths.adminWebhooks.test.replace(':endpointId', endpoint.id),
          token: admin.token,
          headers: { traceparent: caller.traceparent, 'x-request-id': requestId },
        });
        expect(sentTest.statusCode).toBeLessThan(300);
        await deliverUntilSettled(s);

        const [delivery] = receiver.received;
        expect(delivery?.verifiedId).toBeTruthy();
        expect(delivery?.headers['x-request-id']).toBe(requestId);
        expect(String(delivery?.headers.traceparent)).toMatch(
          new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`),
        );

        const route = `POST /api/v1${apiPaths.adminWebhooks.test}`;
        const spans = await spansOfTrace(caller.traceId, route);
        const request = spans.find((span) => span.name === route);
        const deliverySpan = spans.find((span) => span.name === 'webhook webhook.test');
        expect(deliverySpan?.parentSpanId).toBe(request?.spanId);
        expect(attribute(deliverySpan, 'http.request.id')).toBe(requestId);
        expect(attribute(deliverySpan, 'http.response.status_code')).toBe(200);
        // The receiver saw the delivery's own span as its parent.
        expect(String(delivery?.headers.traceparent)).toContain(deliverySpan?.spanId);
      } finally {
        await receiver.close();
      }
    });
  },
  { env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: 'portal-under-test' } },
);

describe('tracing settings', () => {
  it('is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and refuses an endpoint that is not an http(s) URL', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).tracing).toEqual({
      endpoint: 'http://127.0.0.1:4318',
      serviceName: 'desktop-ai-portal',
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});
