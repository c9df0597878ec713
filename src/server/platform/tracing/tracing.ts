import {
  type Context,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Config } from '../config.js';
import { appVersion } from '../version.js';

/** This app's traces: spans made with `tracer` go to the collector, or nowhere when tracing is off. */
export interface Tracing {
  enabled: boolean;
  tracer: Tracer;
  /** Sends the spans buffered so far (the batch is otherwise sent every few seconds). */
  flush(): Promise<void>;
  /** Sends the spans still buffered and stops; the app's last step on close. */
  shutdown(): Promise<void>;
}

const propagator = new W3CTraceContextPropagator();

let contextManagerInstalled = false;

/**
 * One context manager per process, whichever app installs it first: it carries the current span
 * through the awaits of a request, so a query's span finds the request's as its parent.
 */
function installContextManager(): void {
  if (contextManagerInstalled) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerInstalled = true;
}

/** Tracing off: its tracer's spans record nothing, so a span costs a function call. */
export const TRACING_OFF: Tracing = {
  enabled: false,
  tracer: trace.getTracer('off'),
  flush: async () => undefined,
  shutdown: async () => undefined,
};

/**
 * OpenTelemetry's SDK, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` names a collector: spans are
 * batched and sent over OTLP/HTTP to `<endpoint>/v1/traces`, as the OTLP specification puts the
 * generic endpoint's traces.
 */
export async function createTracing(settings: Config['tracing']): Promise<Tracing> {
  if (!settings) return TRACING_OFF;
  // The SDK and exporter load only here: a server with tracing off never pays for them.
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }] =
    await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
    ]);
  installContextManager();
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': appVersion }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  return {
    enabled: true,
    tracer: provider.getTracer('desktop-ai-portal', appVersion),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** The W3C `traceparent` of the span current here, to be picked up by work done later (the outbox). */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagator.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier.traceparent ?? null;
}

/** The context a `traceparent` (a request's header, an outbox row's column) continues. */
export function contextOf(carrier: Record<string, unknown>): Context {
  return propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}

/**
 * Runs `work` in a span continuing `traceparent` (the request that queued the work), ending it
 * when the work settles, with an error status when it throws.
 */
export async function inSpan<T>(
  tracer: Tracer,
  name: string,
  options: { traceparent: string | null; attributes?: Record<string, string | number> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.traceparent ? contextOf({ traceparent: options.traceparent }) : ROOT_CONTEXT;
  return tracer.startActiveSpan(
    name,
    { kind: SpanKind.CONSUMER, ...(options.attributes ? { attributes: options.attributes } : {}) },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Marks the span as failed with `error` (the work's own outcome, where it catches its errors). */
export function failSpan(span: Span | undefined, error: unknown): void {
  span?.recordException(error instanceof Error ? error : String(error));
  span?.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}
