import { Trans, useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { type InvitationPreview, invitationSignUpBodySchema } from '../../../../../shared/api/organisations';
import { passwordContainsEmail } from '../../../../../shared/password-email-rule';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { LoadingBlock } from '../../../components/data/loading-block';
import { wrappingLabel } from '../../../components/forms/wrapping-label';
import { Notice } from '../../../components/data/notice';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { PasswordField } from '../../../components/forms/password-field';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { failureMessage } from '../../../lib/api-errors';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import {
  PasswordStrengthMeter,
  selectCurrentUser,
  selectIsAuthenticated,
  signOut,
  tokensRefreshed,
} from '../../auth';
import { formatDate } from '../organisation-format';
import {
  organisationMessages,
  organisationsApi,
  useAcceptInvitationMutation,
  useInvitationSignUpMutation,
  usePreviewInvitationQuery,
} from '../organisations-endpoints';

/** The link's token: in the fragment (`#token=…`), which never reaches a server's log. */
const tokenOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function InvitationCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size={520} px="md" py={{ base: 'xl', sm: 64 }}>
      <Paper withBorder shadow="md" p={{ base: 'lg', xs: 'xl' }}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 24, xs: 28 }} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}

/** Who invites whom, to what, until when. */
function InvitationFacts({ preview }: { preview: InvitationPreview }) {
  const { t } = useLingui();
  const inviter = preview.invited_by ?? t`An administrator of the organization`;
  const email = preview.email;
  const organisationName = preview.organisation_name;
  const until = formatDate(preview.expires_at);
  return (
    <Text size="sm" data-testid="invitation-facts">
      {preview.role === 'admin' ? (
        <Trans>
          {inviter} invited <strong style={{ overflowWrap: 'anywhere' }}>{email}</strong> to join{' '}
          <strong>{organisationName}</strong> as an admin, with a seat. The link works until {until}.
        </Trans>
      ) : (
        <Trans>
          {inviter} invited <strong style={{ overflowWrap: 'anywhere' }}>{email}</strong> to join{' '}
          <strong>{organisationName}</strong> as a member, with a seat. The link works until {until}.
        </Trans>
      )}
    </Text>
  );
}

const signUpFormSchema = (i18n: I18n) =>
  z
    .object({
      full_name: z.string().max(100, i18n._(msg`At most 100 characters`)),
      password: invitationSignUpBodySchema.shape.password,
      confirmPassword: z.string().min(1, i18n._(msg`Type the password again`)),
      email: z.string(),
    })
    .refine((values) => !passwordContainsEmail(values.password, values.email), {
      when: () => true,
      message: i18n._(msg`Choose a password that does not contain your e-mail address`),
      path: ['password'],
    })
    .refine((values) => values.confirmPassword === '' || values.password === values.confirmPassword, {
      when: () => true,
      message: i18n._(msg`The passwords do not match`),
      path: ['confirmPassword'],
    });
const SIGN_UP_FIELDS = ['full_name', 'password', 'confirmPassword'] as const;

/**
 * An invitee without an account creates one here: the link proves the address, so there is no
 * confirmation mail. The answer is a sign-in: the session starts as the sign-in form's does, and
 * the new member lands on the organisation's page.
 */
function SignUpForm({ token, preview }: { token: string; preview: InvitationPreview }) {
  const { t, i18n } = useLingui();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [signUp] = useInvitationSignUpMutation();
  const email = preview.email;
  const organisationName = preview.organisation_name;
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: { full_name: '', password: '', confirmPassword: '', email: preview.email },
    validate: schemaResolver(signUpFormSchema(i18n)),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async ({ full_name, password }) => {
      setFailure(undefined);
      try {
        const name = full_name.trim();
        const identity = await signUp({ token, password, ...(name ? { full_name: name } : {}) }).unwrap();
        dispatch(tokensRefreshed(identity));
        // A new account belongs to one organisation: the one it just joined.
        const joined = await dispatch(organisationsApi.endpoints.getOrganisations.initiate()).unwrap();
        const organisation =
          joined.find((item) => item.name === preview.organisation_name) ?? joined[0] ?? null;
        void navigate(
          organisation
            ? pathWith(portalPaths.organisationDetail, { organisationId: organisation.id })
            : portalPaths.organisations,
          { replace: true },
        );
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(
          error,
          organisationMessages.signUpFailed,
          {},
          SIGN_UP_FIELDS,
        );
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, SIGN_UP_FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, SIGN_UP_FIELDS),
  );

  return (
    <form onSubmit={submit} noValidate aria-label={t`Create your account`}>
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            Create your account for <strong style={{ overflowWrap: 'anywhere' }}>{email}</strong> to join.
            This link proves the address, so you are signed in straight away.
          </Trans>
        </Text>
        {failure ? <FormAlert title={t`The account was not created`}>{failure}</FormAlert> : null}
        <TextInput
          label={t`Full name`}
          description={t`Optional; the organization’s members see it.`}
          autoComplete="name"
          {...form.getInputProps('full_name')}
        />
        <div>
          <PasswordField
            label={t`Password`}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <PasswordStrengthMeter password={form.values.password} email={preview.email} />
        </div>
        <PasswordField
          label={t`Confirm password`}
          autoComplete="new-password"
          required
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" size="md" fullWidth loading={form.submitting} {...wrappingLabel}>
          <Trans>Create account and join {organisationName}</Trans>
        </Button>
      </Stack>
    </form>
  );
}

/** Signed in with the invited address: join with one click. */
function JoinButton({ token, preview }: { token: string; preview: InvitationPreview }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  const organisationName = preview.organisation_name;
  const [failure, setFailure] = useState<string | null>(null);
  const join = async () => {
    setFailure(null);
    try {
      const { organisation } = await accept(token).unwrap();
      void navigate(pathWith(portalPaths.organisationDetail, { organisationId: organisation.id }), {
        replace: true,
      });
    } catch (error) {
      setFailure(failureMessage(error, organisationMessages.acceptFailed));
    }
  };
  return (
    <Stack gap="md">
      {failure ? <FormAlert title={t`You did not join`}>{failure}</FormAlert> : null}
      <Button size="md" onClick={() => void join()} loading={isLoading} data-autofocus {...wrappingLabel}>
        <Trans>Join {organisationName}</Trans>
      </Button>
    </Stack>
  );
}

/**
 * /invitations/accept#token=…: what the invitation offers, and the way in for whoever opened it:
 * join (signed in with the invited address), sign out (signed in as someone else), sign in and
 * come back (the address has an account), or create the account here.
 */
export default function AcceptInvitationPage() {
  const { t } = useLingui();
  const location = useLocation();
  const dispatch = useAppDispatch();
  const token = tokenOf(location.hash);
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const user = useAppSelector(selectCurrentUser);
  const preview = usePreviewInvitationQuery(token, { skip: !token });
  const [signingOut, setSigningOut] = useState(false);

  if (!token)
    return (
      <InvitationCard title={t`This link is incomplete`}>
        <Notice tone="danger" title={t`No invitation in this link`} urgent>
          <Trans>
            Open the link from the invitation e-mail again, whole; or ask whoever invited you to send it
            again.
          </Trans>
        </Notice>
      </InvitationCard>
    );

  if (preview.isError)
    return (
      <InvitationCard title={t`This invitation cannot be used`}>
        <Notice tone="danger" title={t`The link does not work`} urgent>
          <Text size="sm" data-testid="invitation-refusal">
            {failureMessage(preview.error, organisationMessages.previewFailed)}
          </Text>
        </Notice>
        <Text size="sm">
          <Trans>Ask the organization’s owner or an admin to send you a new invitation.</Trans>{' '}
          {isAuthenticated ? (
            <Anchor component={Link} to={portalPaths.organisations}>
              <Trans>Your organizations</Trans>
            </Anchor>
          ) : null}
        </Text>
      </InvitationCard>
    );

  const invitation = preview.currentData;
  if (!invitation)
    return (
      <InvitationCard title={t`Invitation`}>
        <LoadingBlock label={t`Reading the invitation`}>
          <Stack gap="sm">
            <Skeleton height={16} />
            <Skeleton height={16} width="70%" />
            <Skeleton height={42} />
          </Stack>
        </LoadingBlock>
      </InvitationCard>
    );

  const organisationName = invitation.organisation_name;
  const invitedEmail = invitation.email;
  const signedInEmail = user?.email;
  const title = t`Join ${organisationName}`;
  const returnHere = { returnTo: `${location.pathname}${location.hash}` };

  if (isAuthenticated && user && sameAddress(user.email, invitation.email))
    return (
      <InvitationCard title={title}>
        <InvitationFacts preview={invitation} />
        <JoinButton token={token} preview={invitation} />
      </InvitationCard>
    );

  if (isAuthenticated)
    return (
      <InvitationCard title={title}>
        <InvitationFacts preview={invitation} />
        <Notice tone="warning" title={t`This invitation is for another account`} urgent>
          <Trans>
            You are signed in as <strong style={{ overflowWrap: 'anywhere' }}>{signedInEmail}</strong>, and
            the invitation is for <strong style={{ overflowWrap: 'anywhere' }}>{invitedEmail}</strong>. Sign
            out, then open the link again to join with that address.
          </Trans>
        </Notice>
        <Group>
          <Button
            variant="default"
            loading={signingOut}
            onClick={() => {
              setSigningOut(true);
              void signOut(dispatch).finally(() => setSigningOut(false));
            }}
          >
            <Trans>Sign out</Trans>
          </Button>
        </Group>
      </InvitationCard>
    );

  if (invitation.account_exists)
    return (
      <InvitationCard title={title}>
        <InvitationFacts preview={invitation} />
        <Text size="sm">
          <Trans>
            Sign in as <strong style={{ overflowWrap: 'anywhere' }}>{invitedEmail}</strong> to accept; you
            come back here to join.
          </Trans>
        </Text>
        <Button component={Link} to={portalPaths.login} state={returnHere} size="md">
          <Trans>Sign in to join</Trans>
        </Button>
      </InvitationCard>
    );

  return (
    <InvitationCard title={title}>
      <InvitationFacts preview={invitation} />
      <SignUpForm token={token} preview={invitation} />
    </InvitationCard>
  );
}
