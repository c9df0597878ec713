import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import { unauthorized } from '../http-error.js';

export const METRICS_PATH = '/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Opens METRICS_PORT (main.ts, once the server listens); does nothing without it, or in a
     * cluster's worker. Rejects when the port cannot be had, so the start fails loudly.
     */
    openMetricsPort(): Promise<void>;
    /** Where the metrics port listens once opened (undefined without METRICS_PORT). */
    metricsAddress(): AddressInfo | undefined;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries the token; compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (\S+)$/i.exec(header ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

const tokenRefusal = () =>
  unauthorized('invalid_metrics_token', 'Send the metrics token (METRICS_TOKEN) as Authorization: Bearer');

/**
 * Serves /metrics in Prometheus' text format, never to anyone: on a port of its own
 * (`METRICS_PORT`, for a network only the scraper reaches), or on the main port behind
 * `METRICS_TOKEN`; with both, the metrics port asks for the token too. Neither: not served.
 */
export function serveMetrics(
  app: FastifyInstance,
  registry: Registry,
  settings: Config['metrics'],
  { separatePort }: { separatePort: boolean },
): void {
  let server: Server | undefined;
  app.decorate('metricsAddress', () => (server?.address() as AddressInfo | null) ?? undefined);
  const { port, host, token } = settings;
  app.decorate('openMetricsPort', async () => {
    // In a cluster the primary serves the port, with every worker's metrics added up.
    if (port === undefined || !separatePort || server) return;
    server = await listenForScrapes(() => registry.metrics(), registry.contentType, { port, host, token });
  });
  if (port === undefined) {
    if (token === undefined) return;
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) throw tokenRefusal();
      return reply.type(registry.contentType).send(await registry.metrics());
    });
    return;
  }
  app.addHook('onClose', async () => {
    if (!server) return;
    const closing = server;
    await new Promise((resolve) => {
      closing.close(resolve);
      // A scraper keeps its connection alive between scrapes.
      closing.closeAllConnections();
    });
  });
}

/** A bare HTTP server answering GET /metrics (and a JSON 404 or 401 otherwise). */
export async function listenForScrapes(
  metrics: () => Promise<string>,
  contentType: string,
  { port, host, token }: { port: number; host: string; token: string | undefined },
): Promise<Server> {
  const refuse = (response: ServerResponse, status: number, code: string, message: string) =>
    response
      .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      .end(JSON.stringify({ detail: message, message, code }));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== METRICS_PATH)
      return refuse(response, 404, 'not_found', 'Only GET /metrics is served on this port');
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      const refusal = tokenRefusal();
      return refuse(response, refusal.statusCode, refusal.code, refusal.message);
    }
    metrics().then(
      (text) => response.writeHead(200, { 'content-type': contentType }).end(text),
      () => refuse(response, 500, 'metrics_unavailable', 'The metrics could not be collected'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The port must not hold the process open by itself, nor keep a scraper's connection at close.
  server.unref();
  return server;
}
