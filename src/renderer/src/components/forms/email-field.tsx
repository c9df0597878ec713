import { useLingui } from '@lingui/react/macro';
import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * A required e-mail address: the e-mail keyboard on phones, and the browser's saved address offered
 * (an admin typing someone else's address passes `autoComplete="off"`).
 */
export function EmailField(props: TextInputProps) {
  const { t } = useLingui();
  return (
    <TextInput label={t`E-mail`} type="email" autoComplete="email" inputMode="email" required {...props} />
  );
}
