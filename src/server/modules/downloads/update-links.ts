import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../../crypto.js';

/**
 * An update feed URL works for an hour: the app asks for a fresh one before each check, and a
 * download it starts within the hour runs to its end.
 */
export const UPDATE_FEED_TTL_SECONDS = 60 * 60;

export interface UpdateGrant {
  /** The machine's activation: the feed checks it (and its license) again on every request. */
  activationId: string;
  /** The release the machine reported running, if it is one the server published. */
  currentReleaseId: string | null;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NO_RELEASE = Buffer.alloc(16);
const PAYLOAD_BYTES = 16 + 16 + 4;

function uuidBytes(id: string): Buffer {
  if (!UUID_PATTERN.test(id)) throw new Error(`Update feed links name records by UUID, not ${id}`);
  return Buffer.from(id.replaceAll('-', ''), 'hex');
}

const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/**
 * Signs and checks update feed tokens (`payload.signature`, base64url, HMAC-SHA256 under a key of
 * their own derived from the server secret). Binary like the download links, so a token is 92
 * characters and fits the router's 100-character limit on a path parameter: electron-updater keeps
 * a feed URL's path, not its query, when it resolves the files a channel file names.
 */
export function createUpdateLinks(serverSecret: Uint8Array) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, new Uint8Array(0), 'update-feed', 32));
  const signature = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

  return {
    sign(grant: UpdateGrant): string {
      const bytes = Buffer.alloc(PAYLOAD_BYTES);
      uuidBytes(grant.activationId).copy(bytes, 0);
      (grant.currentReleaseId ? uuidBytes(grant.currentReleaseId) : NO_RELEASE).copy(bytes, 16);
      bytes.writeUInt32BE(grant.expiresAt, 32);
      const payload = bytes.toString('base64url');
      return `${payload}.${signature(payload)}`;
    },

    /** The grant of a genuine, unexpired token; undefined for anything else. */
    verify(token: string, nowSeconds: number): UpdateGrant | undefined {
      const [payload, presented, extra] = token.split('.');
      if (!payload || !presented || extra !== undefined) return undefined;
      if (!constantTimeEqual(signature(payload), presented)) return undefined;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length !== PAYLOAD_BYTES) return undefined;
      const expiresAt = bytes.readUInt32BE(32);
      if (expiresAt <= nowSeconds) return undefined;
      const current = bytes.subarray(16, 32);
      return {
        activationId: uuidText(bytes.subarray(0, 16)),
        currentReleaseId: current.equals(NO_RELEASE) ? null : uuidText(current),
        expiresAt,
      };
    },
  };
}

export type UpdateLinks = ReturnType<typeof createUpdateLinks>;
