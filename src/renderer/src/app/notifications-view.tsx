import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/** Mantine's notification stack where the portal shows it; loaded by {@link NotificationsHost} when first needed. */
export default function NotificationsView() {
  return <Notifications position="top-right" />;
}
