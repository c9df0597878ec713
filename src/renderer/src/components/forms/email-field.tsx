import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * A required email address: the email keyboard on phones, and the browser's saved address offered
 * (an admin typing someone else's address passes `autoComplete="off"`).
 */
export function EmailField(props: TextInputProps) {
  return <TextInput label="Email" type="email" autoComplete="email" inputMode="email" required {...props} />;
}
