import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { GetInputPropsReturnType } from '@mantine/form';
import { PasswordField } from '../../../components/forms/password-field';
import { PasswordStrengthMeter } from './password-strength-meter';

/** Each kind of new password's two labels: the field's, and the field's that repeats it. */
const LABELS = {
  Password: { password: msg`Password`, confirmation: msg`Confirm password` },
  'New password': { password: msg`New password`, confirmation: msg`Confirm new password` },
} as const;

export interface NewPasswordFieldsProps {
  /** "Password" or "New password"; the second field is "Confirm" and this, in lower case after it. */
  label: keyof typeof LABELS;
  password: GetInputPropsReturnType;
  confirmation: GetInputPropsReturnType;
  /** The address the password must not contain, for the meter. */
  email?: string;
  autoFocus?: boolean;
}

/** A new password with its strength meter, and the same password typed again. */
export function NewPasswordFields({
  label,
  password,
  confirmation,
  email,
  autoFocus,
}: NewPasswordFieldsProps) {
  const { t } = useLingui();
  const labels = LABELS[label];
  return (
    <>
      <div>
        <PasswordField
          label={t(labels.password)}
          autoComplete="new-password"
          required
          autoFocus={autoFocus}
          {...password}
        />
        <PasswordStrengthMeter password={password.value as string} email={email} />
      </div>
      <PasswordField label={t(labels.confirmation)} autoComplete="new-password" required {...confirmation} />
    </>
  );
}
