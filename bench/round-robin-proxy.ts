// A load balancer as small as can be, for bench/rolling-restart.ts: it sends each request to the next
// backend in turn among those in rotation, and never retries: a request that fails on its backend
// fails for the client (502), as it would behind a balancer that does not retry. It checks each
// backend's readiness (GET /api/v1/health) every `healthIntervalMs`, as balancers do: one 200 puts a
// backend in rotation, `unhealthyThreshold` failed checks in a row (not 200, or no answer within
// 2 s) take it out. With no backend in rotation it answers 503 itself.
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { LOOPBACK_HOST } from './child-process.js';

const HEALTH_PATH = '/api/v1/health';
/** A check not answered within this counts as failed (a balancer's health-check timeout). */
const HEALTH_TIMEOUT_MS = 2_000;

export interface Backend {
  port: number;
  /** Whether the last readiness check answered 200. */
  up: boolean;
}

export interface RoundRobinProxy {
  port: number;
  backends: Backend[];
  /** Resolves once the readiness check has found `backend` up. */
  waitUntilUp(backend: Backend): Promise<void>;
  /** Why requests failed at the proxy: the backend's connection error code, or 'no backend up'. */
  proxyErrors: Map<string, number>;
  close(): Promise<void>;
}

/** One readiness check over a fresh connection, as a balancer's health check opens one. */
function ready(port: number): Promise<boolean> {
  return new Promise((done) => {
    const check = httpRequest(
      { host: LOOPBACK_HOST, port, path: HEALTH_PATH, agent: false, timeout: HEALTH_TIMEOUT_MS },
      (response) => {
        response.resume();
        response.once('end', () => done(response.statusCode === 200));
        response.once('error', () => done(false));
      },
    );
    check.once('timeout', () => check.destroy());
    check.once('error', () => done(false));
    check.end();
  });
}

export async function startRoundRobinProxy(
  backendPorts: number[],
  { healthIntervalMs, unhealthyThreshold }: { healthIntervalMs: number; unhealthyThreshold: number },
): Promise<RoundRobinProxy> {
  const backends: Backend[] = backendPorts.map((port) => ({ port, up: false }));
  const proxyErrors = new Map<string, number>();
  const countError = (reason: string) => proxyErrors.set(reason, (proxyErrors.get(reason) ?? 0) + 1);
  // Kept-alive connections to the backends, dropped after 2 s idle: under the servers' keep-alive
  // timeout (72 s), so the proxy never reuses a connection the server is closing for idleness.
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 2_000 });
  let next = 0;

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const candidates = backends.filter((backend) => backend.up);
    const backend = candidates[next++ % Math.max(1, candidates.length)];
    if (!backend) {
      countError('no backend up');
      outgoing.writeHead(503).end();
      incoming.resume();
      return;
    }
    const upstream = httpRequest(
      {
        host: LOOPBACK_HOST,
        port: backend.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.once('error', (error: NodeJS.ErrnoException) => {
          countError(error.code ?? error.message);
          outgoing.destroy();
        });
      },
    );
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      countError(error.code ?? error.message);
      if (outgoing.headersSent) outgoing.destroy();
      else outgoing.writeHead(502).end();
    });
    incoming.pipe(upstream);
  };

  const server = createServer(forward);
  server.listen(0, LOOPBACK_HOST);
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');

  // Each backend checked on its own, so a slow answer from one does not delay the other's checks.
  const waiting = new Set<{ backend: Backend; done: () => void }>();
  let checking = true;
  const watch = async (backend: Backend) => {
    let failures = 0;
    while (checking) {
      if (await ready(backend.port)) {
        failures = 0;
        backend.up = true;
      } else if (++failures >= unhealthyThreshold) backend.up = false;
      for (const waiter of waiting) {
        if (waiter.backend.up) {
          waiting.delete(waiter);
          waiter.done();
        }
      }
      await delay(healthIntervalMs);
    }
  };
  const watchers = backends.map(watch);

  return {
    port: address.port,
    backends,
    proxyErrors,
    waitUntilUp: (backend) =>
      backend.up ? Promise.resolve() : new Promise((done) => waiting.add({ backend, done })),
    async close() {
      checking = false;
      await Promise.all(watchers);
      agent.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
