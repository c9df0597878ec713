import { usageBatchResponseSchema } from '../shared/api/usage.js';
import { API_BASE_PATH, pathWith } from '../shared/routes.js';
import { apiPaths } from '../shared/api-paths.js';
import type { FetchLike } from './licensing-api.js';
import type { QueuedEvent, UploadOutcome } from './usage-queue.js';

export interface UsageApiOptions {
  serverUrl: string;
  apiKey: string;
  fetch?: FetchLike | undefined;
  timeoutMs: number;
}

/**
 * POST /licenses/{id}/usage/events for this machine (its hardware id as `machine`, so it may use
 * what its lease holds), signed in as the user. Anything but an answer with every event's outcome
 * leaves the events queued.
 */
export function createUsageApi(options: UsageApiOptions) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    async send(
      batch: { licenseId: string; hardwareId: string; accessToken: string },
      events: QueuedEvent[],
    ): Promise<UploadOutcome> {
      let response: Response;
      try {
        response = await fetchImpl(
          `${options.serverUrl}${API_BASE_PATH}${pathWith(apiPaths.licenses.usageEvents, { id: batch.licenseId })}`,
          {
            method: 'POST',
            headers: {
              accept: 'application/json',
              'content-type': 'application/json',
              'x-api-key': options.apiKey,
              authorization: `Bearer ${batch.accessToken}`,
            },
            body: JSON.stringify({ events, machine: batch.hardwareId }),
            signal: AbortSignal.timeout(options.timeoutMs),
          },
        );
      } catch {
        return { kind: 'not_sent', reason: 'the license server could not be reached' };
      }
      const body: unknown = await response.json().catch(() => undefined);
      if (!response.ok) {
        const message = (body as { message?: unknown } | undefined)?.message;
        return {
          kind: 'not_sent',
          reason: `the license server answered ${response.status}${typeof message === 'string' ? `: ${message}` : ''}`,
        };
      }
      const answer = usageBatchResponseSchema.safeParse(body);
      return answer.success
        ? { kind: 'answered', results: answer.data.results }
        : { kind: 'not_sent', reason: 'the license server sent an answer this app cannot read' };
    },
  };
}
