import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_BASE_PATH } from '../../../shared/routes.js';
import { apiPaths } from '../../../shared/api-paths.js';

/** The notification preferences an optional mail belongs to (`preferences.notifications`). */
export const NOTIFICATION_PREFERENCES = ['billing', 'security_alerts', 'product_updates'] as const;
export type NotificationPreference = (typeof NOTIFICATION_PREFERENCES)[number];

export interface UnsubscribeRequest {
  userId: string;
  preference: NotificationPreference;
}

/**
 * Unsubscribe links: a token naming the user and the preference, signed with a key of its own
 * derived from the server's secret. It does not expire (a mail read months later must still
 * work) and does nothing but turn one preference off, which the user can turn on again.
 */
export interface UnsubscribeLinks {
  /** The link for the mail body and the `List-Unsubscribe` header. */
  url(userId: string, preference: NotificationPreference): string;
  /** What a token asks for, or null when it was not made by this server. */
  read(token: string): UnsubscribeRequest | null;
}

const TOKEN_VERSION = 'u1';

export function createUnsubscribeLinks(serverSecret: Uint8Array, publicUrl: string): UnsubscribeLinks {
  // A key for this use only: an unsubscribe signature can never pass for an access token's.
  const key = createHmac('sha256', serverSecret).update('mail-unsubscribe-v1').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest();

  return {
    url(userId, preference) {
      const payload = Buffer.from(`${TOKEN_VERSION}.${userId}.${preference}`).toString('base64url');
      const token = `${payload}.${sign(payload).toString('base64url')}`;
      return `${publicUrl}${API_BASE_PATH}${apiPaths.notifications.unsubscribe}?token=${token}`;
    },
    read(token) {
      const [payload, signature, ...rest] = token.split('.');
      if (!payload || !signature || rest.length > 0) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const [version, userId, preference] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
      if (version !== TOKEN_VERSION || !userId) return null;
      if (!NOTIFICATION_PREFERENCES.includes(preference as NotificationPreference)) return null;
      return { userId, preference: preference as NotificationPreference };
    },
  };
}
