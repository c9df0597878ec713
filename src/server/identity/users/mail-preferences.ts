import type { UserRow } from '../../platform/db/tables.js';
import type { NotificationPreference } from '../../platform/mail/unsubscribe.js';
import { readPreferences } from './profile.js';

/**
 * Whether the user wants optional mail of this kind (renewal reminders and expiry notices:
 * `billing`; new sign-ins: `security_alerts`; news: `product_updates`). Transactional mail
 * (receipts, failed payments, suspensions, revocations) is sent whatever this says. The
 * preferences are the account's, so identity answers: the platform's mail only sends.
 */
export function wantsMail(user: Pick<UserRow, 'preferences'>, preference: NotificationPreference): boolean {
  return readPreferences(user.preferences).notifications[preference];
}

/**
 * The language the account's mail is written in: its `preferences.language` (the templates write
 * English for one the portal does not speak). Read when the mail is queued, so a change of language
 * applies to the next mail.
 */
export function mailLanguage(user: Pick<UserRow, 'preferences'>): string {
  return readPreferences(user.preferences).language;
}
