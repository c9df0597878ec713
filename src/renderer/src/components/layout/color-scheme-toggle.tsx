import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Box, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { MoonIcon, SunIcon } from '../brand/scheme-icons';

/**
 * Switches between light and dark. Without `onChange` the choice stays in this browser (Mantine's
 * colour-scheme manager); signed in, `onChange` applies it and saves it to the account.
 *
 * Both icons are in the markup and the scheme's stylesheet shows one, so a page rendered at build
 * time (which knows no scheme) paints the right icon at once; the label follows once hydrated.
 */
export function ColorSchemeToggle({ onChange }: { onChange?: (scheme: 'light' | 'dark') => void }) {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const next = computed === 'dark' ? 'light' : 'dark';
  const { t } = useLingui();
  const label = next === 'dark' ? t`Switch to dark mode` : t`Switch to light mode`;
  return (
    <ActionIcon
      variant="default"
      size="lg"
      radius="md"
      aria-label={label}
      title={label}
      onClick={() => (onChange ? onChange(next) : setColorScheme(next))}
    >
      <Box component="span" darkHidden>
        <MoonIcon size={18} />
      </Box>
      <Box component="span" lightHidden>
        <SunIcon size={18} />
      </Box>
    </ActionIcon>
  );
}
