import { useMantineColorScheme } from '@mantine/core';
import { useCallback } from 'react';
import type { Preferences } from '../../../../shared/api/users';

/** The portal's theme preference as Mantine's colour-scheme manager knows it ('system' is 'auto'). */
export function useApplyTheme(): (theme: Preferences['theme']) => void {
  const { setColorScheme } = useMantineColorScheme();
  return useCallback((theme) => setColorScheme(theme === 'system' ? 'auto' : theme), [setColorScheme]);
}
