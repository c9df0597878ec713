import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { Release } from '../../../../shared/api/licenses';
import { API_BASE_PATH } from '../../../../shared/routes';
import { isHttpError, toApiFailure } from '../../lib/api-errors';
import type { Services } from '../../lib/services';
import { downloadMessages } from './licenses-endpoints';

/**
 * The signed link's path under the API base. The link is absolute (the server's public URL), but
 * the portal reaches the API through its own base (the same origin on the web, the configured
 * server in the desktop app), so the file is fetched from there.
 */
export function releasePath(url: string): string {
  const { pathname, search } = new URL(url, 'http://portal.invalid');
  const at = pathname.indexOf(`${API_BASE_PATH}/`);
  return at >= 0 ? `${pathname.slice(at + API_BASE_PATH.length)}${search}` : url;
}

/** An error body sent for an `arraybuffer` request arrives as bytes: read its message. */
function messageOfBytes(error: unknown): string | undefined {
  if (!isHttpError(error)) return undefined;
  const data: unknown = error.response?.data;
  if (Object.prototype.toString.call(data) !== '[object ArrayBuffer]') return undefined;
  try {
    const body = JSON.parse(new TextDecoder().decode(new Uint8Array(data as ArrayBuffer))) as {
      message?: unknown;
      detail?: unknown;
    };
    const message = body.message ?? body.detail;
    return typeof message === 'string' && message ? message : undefined;
  } catch {
    return undefined;
  }
}

export interface DownloadProgress {
  loaded: number;
  total: number;
}

/** A download stopped on purpose (the user cancelled, or left the page). */
export const isCancel = (error: unknown) =>
  (error instanceof Error && error.name === 'CanceledError') ||
  (isHttpError(error) && error.code === 'ERR_CANCELED');

/**
 * Downloads an installer through its signed link, reporting progress. The link carries its own
 * authority (no bearer token is sent), and there is no 30 s API timeout: an installer may take
 * minutes on a slow line. Not an endpoint: the bytes and the progress callback are no cached
 * answer and do not belong in the store, so this dispatches nothing and only borrows the client.
 * A failure is an `ApiFailure` (a cancel is passed on as it is).
 */
export const downloadInstaller =
  (
    release: Pick<Release, 'url' | 'size_bytes'>,
    options: { onProgress?: (progress: DownloadProgress) => void; signal?: AbortSignal } = {},
  ): ThunkAction<Promise<ArrayBuffer>, unknown, Services, UnknownAction> =>
  async (_dispatch, _getState, services) => {
    try {
      const response = await services.client.http.get<ArrayBuffer>(releasePath(release.url), {
        responseType: 'arraybuffer',
        skipAuth: true,
        timeout: 0,
        signal: options.signal,
        onDownloadProgress: (event) =>
          options.onProgress?.({ loaded: event.loaded, total: event.total || release.size_bytes }),
      });
      return response.data;
    } catch (error) {
      if (isCancel(error)) throw error;
      const message = messageOfBytes(error);
      throw toApiFailure(error, {
        fallback: message ?? downloadMessages.downloadFailed,
        pickMessage: (_error, fallback) => fallback,
      });
    }
  };

/** The SHA-256 of the bytes as lower-case hex (Web Crypto). */
export async function sha256Hex(data: ArrayBuffer): Promise<string> {
  if (!globalThis.crypto?.subtle) throw new Error(downloadMessages.checksumUnavailable);
  // A view of the bytes: accepted whichever realm made the buffer (an XHR's may be the page's own).
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new Uint8Array(data));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Hands the file to the browser's downloads through an object URL (released a minute later). */
export function saveFile(data: Blob, fileName: string): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the save in some browsers; a minute is ample to start it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
