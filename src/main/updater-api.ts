import { type UpdateCheckRequest, updateCheckResponseSchema } from '../shared/api/distribution.js';
import { API_BASE_PATH } from '../shared/routes.js';
import { apiPaths } from '../shared/api-paths.js';
import type { FetchLike } from './licensing-api.js';

/** What one update check with the server came to. */
export type UpdateCheckOutcome =
  /** The machine may update: electron-updater's generic provider reads this feed until it expires. */
  | { kind: 'feed'; feedUrl: string }
  /** The server refused this key or machine (no license, revoked, not activated…), with its reason. */
  | { kind: 'refused'; message: string }
  /** No answer: the network failed, the request timed out, or the server could not answer (5xx, 429). */
  | { kind: 'unreachable'; reason: string }
  /** An answer this app cannot read. */
  | { kind: 'failed'; message: string };

export interface UpdateCheckApi {
  check(request: UpdateCheckRequest): Promise<UpdateCheckOutcome>;
}

export interface UpdateCheckApiOptions {
  serverUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  timeoutMs: number;
}

const describeNetworkError = (error: unknown): string => {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'the update server did not answer in time';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code
    ? `the update server could not be reached (${cause.code})`
    : 'the update server could not be reached';
};

/**
 * POST /updates/check with the desktop's API key, the license key and hardware id main holds:
 * the server counts the version this app runs and answers a short-lived signed feed URL.
 */
export function createUpdateCheckApi(options: UpdateCheckApiOptions): UpdateCheckApi {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    async check(request) {
      let response: Response;
      let body: unknown;
      try {
        response = await fetchImpl(`${options.serverUrl}${API_BASE_PATH}${apiPaths.updates.check}`, {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            'x-api-key': options.apiKey,
          },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        body = await response.json().catch(() => undefined);
      } catch (error) {
        return { kind: 'unreachable', reason: describeNetworkError(error) };
      }
      if (response.status >= 500 || response.status === 429)
        return { kind: 'unreachable', reason: `the update server answered ${response.status}` };
      if (response.ok) {
        const answer = updateCheckResponseSchema.safeParse(body);
        return answer.success
          ? { kind: 'feed', feedUrl: answer.data.feed_url }
          : { kind: 'failed', message: 'The update server sent an answer this app cannot read' };
      }
      const message = (body as { message?: unknown } | undefined)?.message;
      return typeof message === 'string' && message
        ? { kind: 'refused', message }
        : { kind: 'failed', message: `The update server refused the check (${response.status})` };
    },
  };
}
