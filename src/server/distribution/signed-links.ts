import { createSignedTokens } from './signed-tokens.js';

/** A download link works for ten minutes: long enough to start, too short to be worth sharing. */
export const DOWNLOAD_LINK_TTL_SECONDS = 10 * 60;

export interface DownloadGrant {
  releaseId: string;
  userId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/** Signs and checks download links: the release and the user it was given to, until it expires. */
export function createDownloadLinks(serverSecret: Uint8Array) {
  const tokens = createSignedTokens(serverSecret, 'download-links');
  return {
    sign: ({ releaseId, userId, expiresAt }: DownloadGrant): string =>
      tokens.sign({ first: releaseId, second: userId, expiresAt }),

    /** The grant of a genuine, unexpired token; undefined for anything else. */
    verify(token: string, nowSeconds: number): DownloadGrant | undefined {
      const grant = tokens.verify(token, nowSeconds);
      return grant?.second
        ? { releaseId: grant.first, userId: grant.second, expiresAt: grant.expiresAt }
        : undefined;
    },
  };
}

export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
