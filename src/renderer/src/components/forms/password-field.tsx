import { useLingui } from '@lingui/react/macro';
import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * Mantine's PasswordInput with what it leaves out: aria-invalid on its inner input, and a
 * visibility toggle in the Tab order (Mantine takes it out) named for what it does; its pressed
 * state says whether the password shows.
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useLingui();
  return (
    <PasswordInput
      aria-invalid={props.error ? true : undefined}
      visibilityToggleFocusable
      {...props}
      visibilityToggleButtonProps={{
        'aria-label': t`Show password`,
        ...props.visibilityToggleButtonProps,
      }}
    />
  );
}
