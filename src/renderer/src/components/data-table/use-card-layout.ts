import { useMediaQuery } from '@mantine/hooks';

/** Below Mantine's `sm` breakpoint (48em): too narrow for a table, so lists become cards. */
export const CARD_LAYOUT_QUERY = '(max-width: 47.99em)';

/** Lists show their rows as cards (read at the first render: no table flashes on a phone). */
export function useCardLayout(): boolean {
  return useMediaQuery(CARD_LAYOUT_QUERY, false, { getInitialValueInEffect: false });
}
