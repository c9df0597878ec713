import { Box, type BoxProps, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Skeletons standing in for content that is loading: marked busy, with the words a screen reader
 * announces ("Loading your licenses") instead of the shapes.
 */
export function LoadingBlock({ label, children, ...props }: BoxProps & { label: string; children: ReactNode }) {
  return (
    <Box role="status" aria-busy="true" {...props}>
      <VisuallyHidden>{label}</VisuallyHidden>
      <div aria-hidden="true">{children}</div>
    </Box>
  );
}
