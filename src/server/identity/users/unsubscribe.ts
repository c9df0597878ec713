import type { UnsubscribeAnswer } from '../../../shared/api/notifications.js';
import { badRequest, notFound } from '../../platform/http-error.js';
import type { NotificationPreference, UnsubscribeLinks } from '../../platform/mail/unsubscribe.js';
import { readPreferences } from './profile.js';
import { findUserById } from './repository.js';
import type { UsersService } from './service.js';
import type { Db } from '../../platform/db/database.js';

/** What each preference stops, as the answer and the page say it. */
export const preferenceNames: Record<NotificationPreference, string> = {
  billing: 'billing reminders',
  security_alerts: 'security alerts',
  product_updates: 'product news',
};

const invalidLink = () =>
  badRequest(
    'invalid_unsubscribe_link',
    'This unsubscribe link is not valid. Change your notification preferences in your profile instead.',
  );

/**
 * The unsubscribe link of optional mail. Opening it only shows what it would do (mail scanners
 * open links); posting to it (the confirmation button, or a mail provider's one-click
 * unsubscribe) turns the preference off, through the same merge as the profile's own save.
 */
export function createUnsubscribeService(deps: { db: Db; links: UnsubscribeLinks; users: UsersService }) {
  async function accountOf(token: string) {
    const request = deps.links.read(token);
    if (!request) throw invalidLink();
    const user = await findUserById(deps.db, request.userId);
    if (!user) throw notFound('user_not_found', 'The account this link was sent to no longer exists.');
    return { user, preference: request.preference };
  }

  return {
    /** What the link would do, changing nothing. */
    async preview(token: string): Promise<UnsubscribeAnswer> {
      const { user, preference } = await accountOf(token);
      const subscribed = readPreferences(user.preferences).notifications[preference];
      return {
        preference,
        subscribed,
        message: subscribed
          ? `Stop sending ${preferenceNames[preference]} to ${user.email}?`
          : `${user.email} already receives no ${preferenceNames[preference]}.`,
      };
    },

    /** Turns the preference off; doing it again answers the same. */
    async unsubscribe(token: string): Promise<UnsubscribeAnswer> {
      const { user, preference } = await accountOf(token);
      const preferences = await deps.users.updatePreferences(user, {
        notifications: { [preference]: false },
      });
      return {
        preference,
        subscribed: preferences.notifications[preference],
        message: `You will no longer receive ${preferenceNames[preference]}. You can turn them back on in your profile.`,
      };
    },
  };
}

export type UnsubscribeService = ReturnType<typeof createUnsubscribeService>;
