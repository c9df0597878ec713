import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { emailOnlyRequestSchema } from '../../../../../shared/api/auth';
import { CheckIcon } from '../../../components/brand/icons';
import { EmailField } from '../../../components/forms/email-field';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useAppDispatch } from '../../../lib/store-hooks';
import { resendVerification } from '../auth-calls';

/** A new link is offered again only after this pause, so an impatient click does not spam the inbox. */
const RESEND_COOLDOWN_SECONDS = 30;

/**
 * Sends the confirmation link again. With a known `email` it is one button; without, it asks for
 * the address first. The answer is the server's neutral message either way.
 */
export function ResendVerification({ email }: { email?: string }) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [sent, setSent] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [cooldown, setCooldown] = useState(0);
  const form = useForm({
    initialValues: { email: email ?? '' },
    validate: schemaResolver(emailOnlyRequestSchema),
    validateInputOnBlur: true,
  });

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    try {
      setSent(await resendVerification(dispatch, emailOnlyRequestSchema.parse(values).email));
      setCooldown(RESEND_COOLDOWN_SECONDS);
    } catch (error) {
      setFailure(toSubmitFailure(error, t`Could not send a new link. Try again in a moment.`).message);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {sent && (
          <Alert color="teal" variant="light" icon={<CheckIcon size={20} />} role="status">
            {sent}
          </Alert>
        )}
        {failure && <FormAlert>{failure}</FormAlert>}
        {email === undefined && <EmailField {...form.getInputProps('email')} />}
        <Button type="submit" variant="light" loading={form.submitting} disabled={cooldown > 0}>
          {cooldown > 0 ? t`Send again in ${cooldown} s` : t`Send a new confirmation link`}
        </Button>
      </Stack>
    </form>
  );
}

/** After a sign-in refused because `email` is not confirmed yet: a new link for it, in one click. */
export function ResendAfterUnconfirmedSignIn({ email }: { email: string }) {
  return (
    <>
      <Text size="sm">
        <Trans>
          No link in your inbox? We can send a new one to <strong>{email}</strong>.
        </Trans>
      </Text>
      <ResendVerification email={email} />
    </>
  );
}
