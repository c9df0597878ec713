import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../platform/crypto.js';

/** What a short-lived link of this area grants: two records by id (the second may be absent) until a time. */
export interface TokenGrant {
  first: string;
  second: string | null;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NONE = Buffer.alloc(16);
const PAYLOAD_BYTES = 16 + 16 + 4;

function uuidBytes(id: string): Buffer {
  if (!UUID_PATTERN.test(id)) throw new Error(`Signed links name records by UUID, not ${id}`);
  return Buffer.from(id.replaceAll('-', ''), 'hex');
}

const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/**
 * Signs and checks the tokens of download and update-feed links (`payload.signature`, base64url,
 * HMAC-SHA256 under a key derived from the server secret for `purpose`, so instances sharing
 * JWT_SECRET accept each other's links and one kind of link is never taken for another). The
 * payload is binary (two UUIDs of 16 bytes, the expiry as 32-bit seconds), so a token is 92
 * characters: the router answers 414 to a path parameter over 100 characters.
 */
export function createSignedTokens(serverSecret: Uint8Array, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, new Uint8Array(0), purpose, 32));
  const signature = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

  return {
    sign(grant: TokenGrant): string {
      const bytes = Buffer.alloc(PAYLOAD_BYTES);
      uuidBytes(grant.first).copy(bytes, 0);
      (grant.second === null ? NONE : uuidBytes(grant.second)).copy(bytes, 16);
      bytes.writeUInt32BE(grant.expiresAt, 32);
      const payload = bytes.toString('base64url');
      return `${payload}.${signature(payload)}`;
    },

    /** The grant of a genuine, unexpired token; undefined for anything else. */
    verify(token: string, nowSeconds: number): TokenGrant | undefined {
      const [payload, presented, extra] = token.split('.');
      if (!payload || !presented || extra !== undefined) return undefined;
      if (!constantTimeEqual(signature(payload), presented)) return undefined;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length !== PAYLOAD_BYTES) return undefined;
      const expiresAt = bytes.readUInt32BE(32);
      if (expiresAt <= nowSeconds) return undefined;
      const second = bytes.subarray(16, 32);
      return {
        first: uuidText(bytes.subarray(0, 16)),
        second: second.equals(NONE) ? null : uuidText(second),
        expiresAt,
      };
    },
  };
}
