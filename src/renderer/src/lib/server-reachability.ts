import { API_BASE_PATH, healthApiPaths } from '../../../shared/routes';

/**
 * Whether a failure means the server never answered: no connection, the server down, a timeout,
 * or one of the portal's own files (a lazily loaded screen) that could not be downloaded. An
 * answer of any status, even an error page, is not this.
 */
export function isUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const failure = error as { isAxiosError?: unknown; response?: unknown; code?: unknown; message?: unknown };
  if (failure.isAxiosError === true) return failure.response === undefined && failure.code !== 'ERR_CANCELED';
  const message = typeof failure.message === 'string' ? failure.message : '';
  // fetch() without an answer rejects with a TypeError; a dynamic import() that could not download
  // its module says so in each browser's words; Vite's preload says it about a screen's styles.
  return (
    (error instanceof TypeError && /fetch|network|load failed/i.test(message)) ||
    /dynamically imported module|importing a module script failed|unable to preload css/i.test(message)
  );
}

/** Whether the server answers its health check now (any failure counts as no). */
export async function serverAnswers(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetchImpl(`${API_BASE_PATH}${healthApiPaths.health}`, { cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}
