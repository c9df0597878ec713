import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { sendFrameworkError, writeClientError, registerErrorHandler } from './error-handler.js';
import { addPathRules, MAX_PATH_SEGMENT_LENGTH } from './path-rules.js';
import { traceRequests } from '../tracing/request-spans.js';
import { TRACING_OFF, type Tracing } from '../tracing/tracing.js';
import { logEveryRequest, logSerializers, REDACTED, REDACTED_LOG_PATHS, requestIdOf } from './request-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's traces (OpenTelemetry), a tracer that records nothing when they are off. */
    tracing: Tracing;
  }
}

export interface ServerOptions {
  logger?: boolean;
  /** Where the log goes instead of standard output (tests read what the server logged). */
  logStream?: { write(line: string): void };
  /** Requests logged at debug level only (the desktops' background license checks). */
  quietUrl?: (url: string) => boolean;
  /** Where the spans go (`createTracing`); none when not given. */
  tracing?: Tracing;
}

/** The Fastify instance every context registers on: logging, limits, validation and errors set once. */
export function createServer(config: Config, options: ServerOptions = {}): FastifyInstance {
  const quietUrl = options.quietUrl ?? (() => false);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: { paths: REDACTED_LOG_PATHS, censor: REDACTED },
            serializers: logSerializers,
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    // The request id: the caller's X-Request-Id when sane, else made here (request-log.ts).
    genReqId: requestIdOf,
    // One line per request is written by logEveryRequest instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    // A request that reaches a closing server on a keep-alive connection is served like any other
    // (the database closes only after the last connection): Fastify's own 503 has a body of its
    // own shape, and a balancer that does not retry would count it as lost.
    return503OnClosing: false,
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: writeClientError,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH },
  });
  // The API reads JSON (and one form route): a text/plain body gets 415 like any other type
  // instead of reaching the schemas as a string.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Every desktop checks its license in the background: a line per check would drown the rest at
  // info level (a check that fails with a server error is still logged by the error handler).
  logEveryRequest(app, quietUrl);
  const tracing = options.tracing ?? TRACING_OFF;
  app.decorate('tracing', tracing);
  traceRequests(app, tracing);
  // Registered first, so run last: the spans of the app's closing work are sent too.
  app.addHook('onClose', () => tracing.shutdown());
  // Before every route and plugin, so malformed paths are refused alike everywhere.
  addPathRules(app);
  return app;
}
