import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { MoonIcon, SunIcon } from '../brand/scheme-icons';

/**
 * Switches between light and dark. Without `onChange` the choice stays in this browser (Mantine's
 * colour-scheme manager); signed in, `onChange` applies it and saves it to the account.
 */
export function ColorSchemeToggle({ onChange }: { onChange?: (scheme: 'light' | 'dark') => void }) {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} mode`;
  return (
    <ActionIcon
      variant="default"
      size="lg"
      radius="md"
      aria-label={label}
      title={label}
      onClick={() => (onChange ? onChange(next) : setColorScheme(next))}
    >
      {computed === 'dark' ? <SunIcon size={18} /> : <MoonIcon size={18} />}
    </ActionIcon>
  );
}
