import { apiErrorSchema } from '../shared/api/errors.js';
import { API_BASE_PATH } from '../shared/routes.js';
import type { FetchLike } from './licensing-api.js';

export interface ServerPostOptions {
  serverUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  timeoutMs: number;
}

/**
 * What a JSON POST to the license server came to: no answer (the network failed, the request
 * timed out, or the server could not answer: 5xx, 429), or an answer with its status and its body
 * (undefined when it was not JSON).
 */
export type ServerPostResult =
  { reached: false; reason: string } | { reached: true; ok: boolean; body: unknown };

export const unreadableAnswer = 'The license server sent an answer this app cannot read';

/** POSTs `body` to `path` under the API with the desktop's key (and an account's token when given). */
export async function postToServer(
  options: ServerPostOptions,
  path: string,
  body: unknown,
  accessToken?: string,
): Promise<ServerPostResult> {
  let response: Response;
  let answer: unknown;
  try {
    response = await (options.fetch ?? globalThis.fetch)(`${options.serverUrl}${API_BASE_PATH}${path}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-api-key': options.apiKey,
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    answer = await response.json().catch(() => undefined);
  } catch {
    return { reached: false, reason: 'the license server could not be reached' };
  }
  if (response.status >= 500 || response.status === 429)
    return { reached: false, reason: `the license server answered ${response.status}` };
  return { reached: true, ok: response.ok, body: answer };
}

/** The server's refusal in its error body (code and words), or undefined when the body is not one. */
export function refusalIn(body: unknown): { code: string; message: string } | undefined {
  const refusal = apiErrorSchema.safeParse(body);
  return refusal.success ? { code: refusal.data.code, message: refusal.data.message } : undefined;
}
