import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** Mantine's PasswordInput (9.7) leaves aria-invalid off its inner input; screen readers need it. */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput aria-invalid={props.error ? true : undefined} {...props} />;
}
