import { notificationsStore, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// The stack (transitions, drag and scroll handling) is its own chunk: notifications only follow a
// user's action, so the first download of /landing and /login does without it.
const NotificationsView = lazy(() => import('./notifications-view'));

/**
 * Mounts the notification stack once the first notification is shown (`notifications.show()` works
 * as usual: the store is here from the start, and the stack shows what is in it when it arrives),
 * and keeps it mounted afterwards so later ones animate in and out normally.
 */
export function NotificationsHost() {
  const { notifications, queue } = useNotifications(notificationsStore);
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsView />
    </Suspense>
  );
}
