import type { DotColors } from './dot-painter';

/** Quiet dots that light up in the brand colour near the pointer; brighter accent on dark. */
const COLORS: Record<'light' | 'dark', DotColors> = {
  light: { base: [140, 148, 190, 0.32], active: [75, 87, 214, 0.95] },
  dark: { base: [104, 110, 150, 0.3], active: [147, 158, 243, 0.95] },
};

export const dotGridColors = (scheme: 'light' | 'dark'): DotColors => COLORS[scheme];
