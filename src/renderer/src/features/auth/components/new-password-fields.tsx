import type { GetInputPropsReturnType } from '@mantine/form';
import { PasswordField } from '../../../components/forms/password-field';
import { PasswordStrengthMeter } from './password-strength-meter';

export interface NewPasswordFieldsProps {
  /** "Password" or "New password"; the second field is "Confirm" and this, in lower case after it. */
  label: 'Password' | 'New password';
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
  return (
    <>
      <div>
        <PasswordField
          label={label}
          autoComplete="new-password"
          required
          autoFocus={autoFocus}
          {...password}
        />
        <PasswordStrengthMeter password={password.value as string} email={email} />
      </div>
      <PasswordField
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        required
        {...confirmation}
      />
    </>
  );
}
