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

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAYLOAD_BYTES = 16 + 16 + 4;

function uuidBytes(id: string): Buffer {
  if (!UUID_PATTERN.test(id)) throw new Error(`Download links name releases and users by UUID, not ${id}`);
  return Buffer.from(id.replaceAll('-', ''), 'hex');
}

const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/**
 * Signs and checks download tokens (`payload.signature`, base64url, HMAC-SHA256). The key is
 * derived from the server secret, so instances that share JWT_SECRET accept each other's links.
 * The payload is binary (release id and user id as 16 bytes each, expiry as 32-bit seconds), so a
 * token is 92 characters: the router answers 414 to a path parameter over 100 characters.
 */
export function createDownloadLinks(serverSecret: Uint8Array) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, new Uint8Array(0), 'download-links', 32));
  const signature = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

  return {
    sign(grant: DownloadGrant): string {
      const bytes = Buffer.alloc(PAYLOAD_BYTES);
      uuidBytes(grant.releaseId).copy(bytes, 0);
      uuidBytes(grant.userId).copy(bytes, 16);
      bytes.writeUInt32BE(grant.expiresAt, 32);
      const payload = bytes.toString('base64url');
      return `${payload}.${signature(payload)}`;
    },

    /** The grant of a genuine, unexpired token; undefined for anything else. */
    verify(token: string, nowSeconds: number): DownloadGrant | undefined {
      const [payload, presented, extra] = token.split('.');
      if (!payload || !presented || extra !== undefined) return undefined;
      if (!constantTimeEqual(signature(payload), presented)) return undefined;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length !== PAYLOAD_BYTES) return undefined;
      const expiresAt = bytes.readUInt32BE(32);
      if (expiresAt <= nowSeconds) return undefined;
      return {
        releaseId: uuidText(bytes.subarray(0, 16)),
        userId: uuidText(bytes.subarray(16, 32)),
        expiresAt,
      };
    },
  };
}

export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
