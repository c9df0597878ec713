import { Alert, type AlertProps } from '@mantine/core';

/**
 * Mantine's light Alert with its title in the text colour: the coloured light-variant title
 * (orange, yellow, red on their tints) falls under WCAG AA contrast; the tint and icon carry the tone.
 * Any Alert's props (colour, icon, role); `notice.tsx` beside it is the one with fixed tones.
 */
export function Notice({ styles, ...props }: AlertProps) {
  return (
    <Alert
      variant="light"
      {...props}
      styles={{ ...(styles as object | undefined), title: { color: 'var(--mantine-color-bright)' } }}
    />
  );
}
