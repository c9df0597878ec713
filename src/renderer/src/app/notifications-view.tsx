import '@mantine/notifications/styles.layer.css';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';

/** Phones: the width where a toast spans the screen (Mantine's `xs` breakpoint, 576 px). */
const PHONE = '(max-width: 36em)';

/**
 * Mantine's notification stack where it hides no control: never at the top, where the header's
 * account menu and a drawer's title and close button are. On a desktop it is the bottom-left
 * corner (drawers open on the right, dialogs in the middle); on a phone, where a toast is as wide
 * as the screen, the bottom edge. Loaded by {@link NotificationsHost} when first needed.
 */
export default function NotificationsView() {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  return <Notifications position={phone ? 'bottom-center' : 'bottom-left'} />;
}
