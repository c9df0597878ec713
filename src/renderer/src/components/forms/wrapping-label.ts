/**
 * Spread on a Mantine `Button` whose label may be longer than the button is wide (a plan's or an
 * organisation's name, on a phone): the label wraps onto more lines instead of being cut off.
 */
export const wrappingLabel = {
  h: 'auto',
  mih: 36,
  py: 6,
  styles: { label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } },
} as const;
