import type { Release } from '../../../../shared/api/licenses';
import { API_BASE_PATH } from '../../../../shared/routes';
import { isHttpError, toApiRequestError } from '../../lib/api-errors';
import { getServices, type Services } from '../../lib/services';
import { getDownloads } from './license-api';

// The fallbacks of the download calls, shown when the server gives no message.
export const downloadMessages = {
  fetchReleasesFailed: 'Failed to fetch downloads',
  downloadFailed: 'The download failed. Try again.',
  checksumUnavailable: 'This browser cannot compute checksums here (Web Crypto needs HTTPS).',
} as const;

/** `GET /licenses/{id}/download`: the newest installer of each platform, with signed links. */
export async function fetchReleases(
  licenseId: string,
  services: Services = getServices(),
): Promise<Release[]> {
  try {
    const answer = await getDownloads(services.client.http, licenseId);
    return Array.isArray(answer?.releases) ? answer.releases : [];
  } catch (error) {
    const failure = toApiRequestError(error, downloadMessages.fetchReleasesFailed);
    // Nothing published yet is an empty list, not a failure.
    if (failure.code === 'release_not_found') return [];
    throw failure;
  }
}

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

/**
 * Downloads an installer through its signed link, reporting progress. The link carries its own
 * authority (no bearer token is sent), and there is no 30 s API timeout: an installer may take
 * minutes on a slow line.
 */
export async function downloadInstaller(
  release: Pick<Release, 'url' | 'size_bytes'>,
  options: { onProgress?: (progress: DownloadProgress) => void; signal?: AbortSignal } = {},
  services: Services = getServices(),
): Promise<ArrayBuffer> {
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
    const message = messageOfBytes(error);
    throw toApiRequestError(
      error,
      message ?? downloadMessages.downloadFailed,
      (_error, fallback) => fallback,
    );
  }
}

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
