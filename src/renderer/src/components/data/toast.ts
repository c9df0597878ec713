import { t } from '@lingui/core/macro';
import { notifications } from '@mantine/notifications';

/** A toast after a completed action; its close button has a name (Mantine's has none by default). */
export function showToast({
  title,
  message,
  tone = 'success',
}: {
  title: string;
  message: string;
  tone?: 'success' | 'error';
}): void {
  notifications.show({
    title,
    message,
    color: tone === 'success' ? 'teal' : 'red',
    closeButtonProps: { 'aria-label': t`Dismiss notification` },
    // Mantine's grey description is under 4.5:1 on the white toast.
    styles: { description: { color: 'var(--mantine-color-text)' } },
  });
}
