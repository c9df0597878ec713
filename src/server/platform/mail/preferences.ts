import type { UserRow } from '../db/tables.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { readPreferences } from '../../identity/users/profile.js';
import type { NotificationPreference } from './unsubscribe.js';

/**
 * Whether the user wants optional mail of this kind (renewal reminders and expiry notices:
 * `billing`; new sign-ins: `security_alerts`; news: `product_updates`). Transactional mail
 * (receipts, failed payments, suspensions, revocations) is sent whatever this says.
 */
export function wantsMail(user: Pick<UserRow, 'preferences'>, preference: NotificationPreference): boolean {
  return readPreferences(user.preferences).notifications[preference];
}

/** The sentence under an optional mail saying why it came. */
export const unsubscribeReasons: Record<NotificationPreference, string> = {
  billing: 'You receive billing reminders because they are on in your notification preferences.',
  security_alerts: 'You receive security alerts because they are on in your notification preferences.',
  product_updates: 'You receive product news because it is on in your notification preferences.',
};
