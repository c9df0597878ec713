import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loggableUrl } from '../http/request-log.js';
import { inRequest } from './request-scope.js';
import { contextOf, type Tracing } from './tracing.js';

interface RequestTrace {
  span: Span;
  context: Context;
}

/**
 * Every request runs as part of its request id (what it queues remembers it) and, with tracing on,
 * in a span of its own, continuing the caller's `traceparent` when it sent one. The span is made
 * current twice: when the request arrives (the hooks that run before its body is read) and again
 * once the body is read, since the body's data arrives in the socket's context rather than ours.
 */
export function traceRequests(app: FastifyInstance, tracing: Tracing): void {
  const traces = new WeakMap<FastifyRequest, RequestTrace>();

  const continueRequest = (request: FastifyRequest, next: () => void) => {
    const current = traces.get(request);
    inRequest(request.id, current ? () => context.with(current.context, next) : next);
  };

  app.addHook('onRequest', (request, _reply, done) => {
    if (tracing.enabled) {
      const route = request.routeOptions.url;
      const parent = contextOf(request.headers);
      const span = tracing.tracer.startSpan(
        route ? `${request.method} ${route}` : request.method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            ...(route ? { 'http.route': route } : {}),
            // Masked as the log masks it: no license key or token leaves in a trace either.
            'url.path': loggableUrl(request),
            'http.request.id': request.id,
          },
        },
        parent,
      );
      traces.set(request, { span, context: trace.setSpan(parent, span) });
    }
    continueRequest(request, done);
  });

  app.addHook('preValidation', (request, _reply, done) => continueRequest(request, done));

  if (!tracing.enabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    const current = traces.get(request);
    traces.delete(request);
    current?.span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) current?.span.setStatus({ code: SpanStatusCode.ERROR });
    current?.span.end();
    done();
  });
  // A caller that hangs up gets no response: its span ends here instead.
  app.addHook('onRequestAbort', (request, done) => {
    traces.get(request)?.span.setStatus({ code: SpanStatusCode.ERROR, message: 'aborted by the client' });
    traces.get(request)?.span.end();
    traces.delete(request);
    done();
  });
}
