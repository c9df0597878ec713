import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A caller's (or its proxy's) request id is kept so one id follows a request through every hop;
 * anything that could forge log lines or bloat them (spaces, quotes, control characters, over 128
 * characters) is replaced with a fresh id.
 */
const ACCEPTABLE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** Fastify's `genReqId`: the caller's X-Request-Id when sane, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Route parameters and query fields whose values are credentials: never written to the log. */
const SECRET_NAME = /(token|key|secret|password|signature)$|^code$/i;
export const REDACTED = '[redacted]';

/**
 * The URL as the log may show it: the route's pattern filled with its parameters (a download
 * token masked), and the query with the values of credential fields masked (a license check's
 * `license_key`, an unsubscribe `token`). Unmatched URLs (portal pages) keep their path.
 */
export function loggableUrl(request: FastifyRequest): string {
  const [rawPath = '', query] = request.url.split('?', 2);
  const pattern = request.routeOptions.url;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const path =
    pattern && !pattern.includes('*')
      ? pattern.replace(/:(\w+)/g, (_, name: string) =>
          SECRET_NAME.test(name) ? REDACTED : encodeURIComponent(String(params[name] ?? '')),
        )
      : rawPath.replace(/\/update-feed\/[^/]+/, `/update-feed/${REDACTED}`);
  if (!query) return path;
  const fields = new URLSearchParams(query);
  for (const name of new Set(fields.keys())) if (SECRET_NAME.test(name)) fields.set(name, REDACTED);
  return `${path}?${fields.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}`;
}

/**
 * One JSON line per request, when its answer is sent, with the request id (also sent back as
 * X-Request-Id), the route, the masked URL, the status and the time taken. Fastify's own two lines
 * per request are off (see server.ts); no header is logged, so no cookie or token can be.
 * `quiet` requests (the desktops' background license checks) are logged at debug level only.
 */
export function logEveryRequest(app: FastifyInstance, quiet: (url: string) => boolean): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const level = quiet(request.url) ? 'debug' : 'info';
    // Not even the line's fields are made for a level that is off (the license checks' path).
    if (!isLevelEnabled(app.log, level)) return done();
    app.log[level](
      {
        reqId: request.id,
        req: {
          method: request.method,
          route: request.routeOptions.url,
          url: loggableUrl(request),
          remoteAddress: request.ip,
        },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
    done();
  });
}

/**
 * Pino's serializer of `req`, in place of Fastify's (whose has the raw URL, a license key in its
 * query): a request object is reduced to its method and masked URL; the request line's plain
 * object passes as it is. (Fastify's `res` serializer keeps only the status.)
 */
export const logSerializers = {
  // Typed as Fastify declares them; what reaches them at run time is checked.
  req(given: FastifyRequest): Record<string, unknown> {
    const value: unknown = given;
    if (value && typeof value === 'object' && 'routeOptions' in value)
      return { method: given.method, url: loggableUrl(given) };
    if (value && typeof value === 'object' && 'socket' in value) {
      const raw = value as IncomingMessage;
      return { method: raw.method, url: (raw.url ?? '').split('?')[0] };
    }
    return value as Record<string, unknown>;
  },
};

/** Pino's level check; Fastify's stand-in logger (logging off) has none and logs nothing. */
function isLevelEnabled(log: FastifyBaseLogger, level: string): boolean {
  const check = (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check === 'function' && check.call(log, level);
}

/**
 * Paths pino masks in every log line, whatever logged it: the credential headers if a request or
 * response object is ever logged, and fields named as credentials one level into any object.
 */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...[
    'password',
    'new_password',
    'current_password',
    'token',
    'access_token',
    'refresh_token',
    'license_key',
    'secret',
    'api_key',
    'authorization',
    'cookie',
  ].flatMap((field) => [field, `*.${field}`]),
];
