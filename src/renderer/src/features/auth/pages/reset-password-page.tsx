import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { resetPasswordRequestSchema } from '../../../../../shared/api/auth';
import { opaqueTokenSchema } from '../../../../../shared/api/common';
import { portalPaths } from '../../../../../shared/routes';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useAppDispatch } from '../../../lib/store-hooks';
import { resetPassword } from '../auth-calls';
import { AuthForm } from '../components/auth-form';
import { AuthOutcome, SignInButton } from '../components/auth-outcome';
import { NewPasswordFields } from '../components/new-password-fields';

const always = { when: () => true };
// The form's own messages are functions, so they are written in the language shown when the form checks.
const resetFormSchema = z
  .object({
    password: resetPasswordRequestSchema.shape.new_password,
    confirmPassword: z.string().min(1, { error: () => t`Type the password again` }),
  })
  .refine((values) => values.confirmPassword === '' || values.password === values.confirmPassword, {
    ...always,
    error: () => t`The passwords do not match`,
    path: ['confirmPassword'],
  });
const FIELDS = ['password', 'confirmPassword'] as const;
/** Server codes that mean the link itself is no good: asking for a new one is the only way on. */
const DEAD_LINK_CODES = new Set(['invalid_reset_token']);

function LinkProblem({ message }: { message: string }) {
  const { t } = useLingui();
  return (
    <AuthOutcome title={t`This reset link does not work`} tone="problem" message={message}>
      <Button component={Link} to={portalPaths.forgotPassword}>
        <Trans>Ask for a new link</Trans>
      </Button>
      <Anchor component={Link} to={portalPaths.login} size="sm" ta="center">
        <Trans>Back to sign in</Trans>
      </Anchor>
    </AuthOutcome>
  );
}

export default function ResetPasswordPage() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [failure, setFailure] = useState<string>();
  const [deadLink, setDeadLink] = useState<string>();
  const [done, setDone] = useState<string>();
  const form = useForm({
    initialValues: { password: '', confirmPassword: '' },
    validate: schemaResolver(resetFormSchema),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        setDone(await resetPassword(dispatch, { token, newPassword: values.password }));
      } catch (error) {
        const { message, fieldErrors, code } = toSubmitFailure(
          error,
          t`Could not reset the password. Try again in a moment.`,
          { new_password: 'password' },
          FIELDS,
        );
        if (code && DEAD_LINK_CODES.has(code)) {
          setDeadLink(message);
          return;
        }
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  if (!opaqueTokenSchema.safeParse(token).success) {
    return (
      <LinkProblem
        message={t`The link is missing its code or was cut short. Open the link from the e-mail again, or ask for a new one.`}
      />
    );
  }
  if (deadLink) return <LinkProblem message={deadLink} />;
  if (done) {
    return (
      <AuthOutcome title={t`Password changed`} tone="done" message={done}>
        <SignInButton />
      </AuthOutcome>
    );
  }

  return (
    <AuthForm
      title={t`Choose a new password`}
      description={t`After the change, every device signed in to your account is signed out.`}
      onSubmit={submit}
      submitting={form.submitting}
      submitLabel={t`Set new password`}
      failure={failure}
      failureTitle={t`Could not reset the password`}
    >
      <NewPasswordFields
        label="New password"
        password={form.getInputProps('password')}
        confirmation={form.getInputProps('confirmPassword')}
        autoFocus
      />
    </AuthForm>
  );
}
