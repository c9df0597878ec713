import { adminMessage, toApiRequestError } from '../../../lib/api-errors';
import { getServices, type Services } from '../../../lib/services';

/**
 * One cached admin read (kept 60 s), under the same cache keys as the admin thunks, so an
 * admin write (which forgets every `admin:` entry) makes the next read fresh. Rejects with an
 * {@link ApiRequestError} carrying the server's message, else the fallback.
 */
export async function adminRead<T>(
  path: string,
  params: object | undefined,
  fallback: string,
  services: Services = getServices(),
): Promise<T> {
  const key = `admin:${path}?${JSON.stringify(params ?? {})}`;
  try {
    return await services.cache.get(
      key,
      async () => (await services.client.http.get<T>(path, { params })).data,
    );
  } catch (error) {
    throw toApiRequestError(error, fallback, adminMessage);
  }
}
