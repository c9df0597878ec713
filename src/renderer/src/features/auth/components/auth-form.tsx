import { Trans } from '@lingui/react/macro';
import { Button, Stack, Text } from '@mantine/core';
import { type FormEventHandler, type ReactNode, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { FormAlert } from '../../../components/forms/form-alert';
import { useHydrated } from '../../../lib/use-hydrated';
import { useAppSelector } from '../../../lib/store-hooks';
import { homeFor, selectIsAuthenticated, selectUserRole } from '../auth-slice';
import { destinationAfterSignIn, forgetReturnPath } from '../return-path';
import { AuthCard } from './auth-card';

interface AuthFormProps {
  title: string;
  description?: ReactNode;
  /** Links under the card. */
  footer?: ReactNode;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
  submitLabel: string;
  /** The server's refusal of the last submit, shown above the fields. */
  failure?: string;
  failureTitle: string;
  /** The fields. */
  children: ReactNode;
  /** A line under the submit button. */
  note?: ReactNode;
  /** Right under the form, inside the card: what to do about the last refusal (a form of its own). */
  followUp?: ReactNode;
  /** Under the form, inside the card: another way in that is not part of the form (a passkey). */
  aside?: ReactNode;
  /** The first field takes focus when the form can be used, as its `autoFocus` asks. */
  focusFirstField?: boolean;
}

/** The fieldset's own frame, which the card already draws. */
const PLAIN_FIELDSET = { border: 0, margin: 0, padding: 0, minWidth: 0 } as const;

/**
 * A sign-in, registration or recovery form: the card, the refusal alert, the fields and one submit button.
 *
 * Rendered ahead of time, its fields and button stay disabled until the page is hydrated: before
 * that the browser would send the form itself, the password in the address. `method="post"` keeps
 * it out of the address should anything ever send it natively.
 */
export function AuthForm(props: AuthFormProps) {
  const { title, description, footer, onSubmit, submitting, submitLabel, failure, failureTitle } = props;
  const hydrated = useHydrated();
  const fields = useRef<HTMLFieldSetElement>(null);
  const { focusFirstField } = props;
  useEffect(() => {
    // A page rendered ahead of time is hydrated with its fields disabled, so their `autoFocus`
    // finds nothing to focus: the first field takes it once enabled, unless the visitor moved on.
    if (focusFirstField && hydrated && document.activeElement === document.body)
      fields.current?.querySelector('input')?.focus();
  }, [focusFirstField, hydrated]);
  return (
    <AuthCard title={title} description={description} footer={footer}>
      <form onSubmit={onSubmit} method="post" noValidate>
        <fieldset ref={fields} disabled={!hydrated} style={PLAIN_FIELDSET}>
          <Stack gap="md">
            {failure && <FormAlert title={failureTitle}>{failure}</FormAlert>}
            {props.children}
            <Button type="submit" size="md" fullWidth loading={submitting}>
              {submitLabel}
            </Button>
            {props.note}
          </Stack>
        </fieldset>
      </form>
      {props.followUp ? <Stack mt="md">{props.followUp}</Stack> : null}
      {props.aside && (
        <Stack gap="md" mt="md">
          {/* Plain text, not Mantine's Divider: the sign-in page's first download is on a budget. */}
          <Text size="sm" c="dimmed" ta="center">
            <Trans>or</Trans>
          </Text>
          {props.aside}
        </Stack>
      )}
    </AuthCard>
  );
}

/**
 * A signed-in visitor of a sign-in page, or one who just signed in, goes on: where they were going
 * (see `destinationAfterSignIn`), else their home screen.
 */
export function useGoHomeWhenSignedIn(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  useEffect(() => {
    if (!isAuthenticated) return;
    const destination = destinationAfterSignIn(location, homeFor(role));
    forgetReturnPath();
    void navigate(destination, { replace: true });
  }, [isAuthenticated, role, navigate, location]);
}
