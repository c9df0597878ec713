import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { DialectName, ObservedQuery } from '../db/database.js';
import type { Tracing } from './tracing.js';

/**
 * A span for each statement, told when it has finished (Kysely's log hook), so it is made with its
 * start put back by the time it took; its parent is whatever span was current when it ran (the
 * request's, a worker's). Statements' text has placeholders, never the values.
 */
export function traceQueries(
  tracing: Tracing,
  dialect: DialectName,
): ((query: ObservedQuery) => void) | undefined {
  if (!tracing.enabled) return undefined;
  const system = dialect === 'postgres' ? 'postgresql' : 'sqlite';
  return ({ statement, durationMs, failed, sql }) => {
    const endTime = Date.now();
    const span = tracing.tracer.startSpan(`db ${statement}`, {
      kind: SpanKind.CLIENT,
      startTime: endTime - durationMs,
      attributes: { 'db.system.name': system, 'db.operation.name': statement, 'db.query.text': sql },
    });
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(endTime);
  };
}
