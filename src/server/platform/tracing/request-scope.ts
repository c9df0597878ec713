import { AsyncLocalStorage } from 'node:async_hooks';
import { currentTraceparent } from './tracing.js';

/** What work queued while serving a request remembers of it: its id, and its trace when traced. */
export interface RequestOrigin {
  request_id: string | null;
  traceparent: string | null;
}

const requestIds = new AsyncLocalStorage<string>();

/** Runs `work` (a request's next step) as part of the request `requestId`. */
export const inRequest = <T>(requestId: string, work: () => T): T => requestIds.run(requestId, work);

/**
 * The request the code running now serves, for the rows it queues (mail, webhook events): their
 * delivery carries the same request id and continues the same trace. Both null off a request (the
 * scheduler's work).
 */
export const requestOrigin = (): RequestOrigin => ({
  request_id: requestIds.getStore() ?? null,
  traceparent: currentTraceparent(),
});
