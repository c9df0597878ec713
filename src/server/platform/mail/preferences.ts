import type { NotificationPreference } from './unsubscribe.js';

/** The sentence under an optional mail saying why it came. */
export const unsubscribeReasons: Record<NotificationPreference, string> = {
  billing: 'You receive billing reminders because they are on in your notification preferences.',
  security_alerts: 'You receive security alerts because they are on in your notification preferences.',
  product_updates: 'You receive product news because it is on in your notification preferences.',
};
