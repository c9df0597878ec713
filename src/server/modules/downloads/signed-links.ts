import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../../crypto.js';

/** A download link works for ten minutes: long enough to start, too short to be worth sharing. */
export const DOWNLOAD_LINK_TTL_SECONDS = 10 * 60;

export interface DownloadGrant {
  releaseId: string;
  userId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * Signs and checks download tokens (`payload.signature`, base64url, HMAC-SHA256). The key is
 * derived from the server secret, so instances that share JWT_SECRET accept each other's links.
 */
export function createDownloadLinks(serverSecret: Uint8Array) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, new Uint8Array(0), 'download-links', 32));
  const signature = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

  return {
    sign(grant: DownloadGrant): string {
      const payload = Buffer.from(JSON.stringify([grant.releaseId, grant.userId, grant.expiresAt])).toString(
        'base64url',
      );
      return `${payload}.${signature(payload)}`;
    },

    /** The grant of a genuine, unexpired token; undefined for anything else. */
    verify(token: string, nowSeconds: number): DownloadGrant | undefined {
      const [payload, presented, extra] = token.split('.');
      if (!payload || !presented || extra !== undefined) return undefined;
      if (!constantTimeEqual(signature(payload), presented)) return undefined;
      try {
        const [releaseId, userId, expiresAt] = JSON.parse(
          Buffer.from(payload, 'base64url').toString('utf8'),
        ) as unknown[];
        if (typeof releaseId !== 'string' || typeof userId !== 'string' || typeof expiresAt !== 'number')
          return undefined;
        return expiresAt > nowSeconds ? { releaseId, userId, expiresAt } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
