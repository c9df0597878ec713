import type { MailI18n } from './mail-i18n.js';
import type { NotificationPreference } from './unsubscribe.js';

/** The sentence under an optional mail saying why it came, in the recipient's language. */
export function unsubscribeReason(i18n: MailI18n, preference: NotificationPreference): string {
  switch (preference) {
    case 'billing':
      return i18n._({
        id: 'mail.unsubscribe.billing',
        message: 'You receive billing reminders because they are on in your notification preferences.',
      });
    case 'security_alerts':
      return i18n._({
        id: 'mail.unsubscribe.securityAlerts',
        message: 'You receive security alerts because they are on in your notification preferences.',
      });
    case 'product_updates':
      return i18n._({
        id: 'mail.unsubscribe.productUpdates',
        message: 'You receive product news because it is on in your notification preferences.',
      });
  }
}
