import { Button, Group, Input, NativeSelect, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  MAX_SSO_ROLE_RULES,
  type OrganisationOidc,
  type OrganisationSsoAnswer,
  type OrganisationSsoBody,
  organisationSsoBodySchema,
  type SsoTestResult,
} from '../../../../../shared/api/organisation-sso';
import type { AssignableOrganisationRole, Organisation } from '../../../../../shared/api/organisations';
import { PlusIcon, TrashIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { PasswordField } from '../../../components/forms/password-field';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDateTime, ROLE_LABELS } from '../organisation-format';
import {
  organisationSsoMessages,
  useRemoveOrganisationSsoMutation,
  useSetOrganisationSsoMutation,
  useTestOrganisationSsoMutation,
} from '../organisation-sso-endpoints';
import { CopyableValue } from './copyable-value';

interface SsoFormValues {
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  group_claim: string;
  role_mapping: { group: string; role: AssignableOrganisationRole }[];
  require_sso: boolean;
}

const FIELDS = ['issuer', 'client_id', 'client_secret', 'scopes', 'group_claim'] as const;
const ROLE_CHOICES = [
  { value: 'member', label: ROLE_LABELS.member },
  { value: 'admin', label: ROLE_LABELS.admin },
];

const valuesOf = (sso: OrganisationOidc | null): SsoFormValues => ({
  issuer: sso?.issuer ?? '',
  client_id: sso?.client_id ?? '',
  client_secret: '',
  scopes: sso?.scopes ?? 'openid email profile',
  group_claim: sso?.group_claim ?? '',
  role_mapping: sso?.role_mapping.map((rule) => ({ ...rule })) ?? [],
  require_sso: sso?.require_sso ?? false,
});

/** The body the server takes: an empty secret keeps the stored one, an empty claim is none. */
const bodyOf = (values: SsoFormValues, keepSecret: boolean): OrganisationSsoBody => ({
  issuer: values.issuer.trim(),
  client_id: values.client_id.trim(),
  ...(keepSecret ? {} : { client_secret: values.client_secret }),
  scopes: values.scopes.trim(),
  group_claim: values.group_claim.trim() || null,
  role_mapping: values.role_mapping.map((rule) => ({ group: rule.group.trim(), role: rule.role })),
  require_sso: values.require_sso,
});

/** The shared body schema's rules, by form path (`role_mapping.0.group`), so the form checks what the server would. */
function validate(values: SsoFormValues, keepSecret: boolean): Record<string, string> {
  const parsed = organisationSsoBodySchema.safeParse(bodyOf(values, keepSecret));
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  if (!keepSecret && values.client_secret === '')
    errors['client_secret'] = 'Give the client secret the provider issued';
  return errors;
}

/** The outcome of the last test sign-in, told as a success or a failure with what came back. */
function LastTest({ result, focus }: { result: SsoTestResult; focus: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Focus brings it into view and has a screen reader read it.
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div ref={ref} tabIndex={-1} style={{ outlineOffset: 2 }}>
      <Notice
        tone={result.ok ? 'success' : 'danger'}
        title={result.ok ? 'Test sign-in succeeded' : 'Test sign-in failed'}
        data-testid="sso-test-result"
      >
        <Stack gap={4}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {result.message}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {[
              result.email ? `Address: ${result.email}` : null,
              `Groups: ${result.groups.length > 0 ? result.groups.join(', ') : 'none'}`,
              result.role ? `Role it gives: ${ROLE_LABELS[result.role]}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <Text size="xs">Tested {formatDateTime(result.at)}</Text>
        </Stack>
      </Notice>
    </div>
  );
}

/** The form of the settings; its check reads whether the stored secret is kept when it runs. */
const useSsoForm = (sso: OrganisationOidc | null, keeping: { current: boolean }) =>
  useForm<SsoFormValues>({
    initialValues: valuesOf(sso),
    validate: (values) => validate(values, keeping.current),
  });
type SsoFormApi = ReturnType<typeof useSsoForm>;

function RoleRules({ form }: { form: SsoFormApi }) {
  const rules = form.values.role_mapping;
  return (
    <Stack gap="xs">
      <div>
        <Title order={3} size="h5">
          Groups and roles
        </Title>
        <Text size="sm" c="dimmed">
          The first rule whose group a person is in gives their role, at each sign-in. Nobody matched is a
          member.
        </Text>
      </div>
      {rules.map((rule, index) => (
        <Group key={index} align="flex-start" gap="xs" wrap="wrap" data-testid="sso-role-rule">
          <TextInput
            label={`Group ${index + 1}`}
            placeholder="portal-admins"
            autoComplete="off"
            spellCheck={false}
            style={{ flex: '1 1 12rem' }}
            {...form.getInputProps(`role_mapping.${index}.group`)}
          />
          <NativeSelect
            label={`Role ${index + 1}`}
            data={ROLE_CHOICES}
            style={{ flex: '0 1 9rem' }}
            {...form.getInputProps(`role_mapping.${index}.role`)}
          />
          <Button
            variant="subtle"
            color="red"
            mt={25}
            leftSection={<TrashIcon size={14} />}
            aria-label={`Remove rule ${index + 1}${rule.group ? ` (${rule.group})` : ''}`}
            onClick={() => form.removeListItem('role_mapping', index)}
          >
            Remove
          </Button>
        </Group>
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<PlusIcon size={14} />}
          disabled={rules.length >= MAX_SSO_ROLE_RULES}
          onClick={() => form.insertListItem('role_mapping', { group: '', role: 'admin' })}
        >
          Add a rule
        </Button>
      </Group>
    </Stack>
  );
}

function SsoForm({
  organisation,
  answer,
  hasVerifiedDomain,
  testReturn,
}: {
  organisation: Organisation;
  answer: OrganisationSsoAnswer;
  hasVerifiedDomain: boolean;
  testReturn: boolean;
}) {
  const organisationId = organisation.id;
  const sso = answer.sso?.protocol === 'oidc' ? answer.sso : null;
  const [save] = useSetOrganisationSsoMutation();
  const [remove] = useRemoveOrganisationSsoMutation();
  const [startTest, testing] = useTestOrganisationSsoMutation();
  const [failure, setFailure] = useState<string>();
  const [testProblem, setTestProblem] = useState<string | null>(null);
  const [replacingSecret, setReplacingSecret] = useState(sso === null);
  const [removing, setRemoving] = useState(false);
  const keepSecret = sso !== null && !replacingSecret;
  // Read by the form's check, which is made once.
  const keeping = useRef(keepSecret);
  keeping.current = keepSecret;
  const form = useSsoForm(sso, keeping);
  // After each save or removal the form holds what the server kept (the section stays, and focus with it).
  const kept = sso?.updated_at ?? null;
  const seen = useRef(kept);
  useEffect(() => {
    if (seen.current === kept) return;
    seen.current = kept;
    form.setInitialValues(valuesOf(sso));
    form.reset();
    setReplacingSecret(sso === null);
  }, [kept, sso, form]);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        const saved = await save({ organisationId, body: bodyOf(values, keepSecret) }).unwrap();
        showToast({
          title: 'Single sign-on saved',
          message:
            saved.sso?.protocol === 'oidc' && saved.sso.require_sso
              ? `People of ${organisation.name}’s domains now sign in through ${saved.sso.issuer} only.`
              : 'Test the sign-in to check it works.',
        });
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(error, organisationSsoMessages.saveFailed, {}, [
          ...FIELDS,
          ...values.role_mapping.map((_, index) => `role_mapping.${index}.group`),
        ]);
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  const test = async () => {
    setTestProblem(null);
    try {
      const { authorization_url } = await startTest({ organisationId }).unwrap();
      window.location.assign(authorization_url);
    } catch (error) {
      setTestProblem(failureMessage(error, organisationSsoMessages.testFailed));
    }
  };

  return (
    <SectionCard
      headingId="sso-title"
      title="Single sign-on"
      description={`Sign ${organisation.name}’s people in through your identity provider with OpenID Connect. People of the verified domains are sent there; their first sign-in makes their account and gives them a seat while one is free.`}
      onSubmit={submit}
    >
      <CopyableValue label="Redirect URI (register it with your provider)" value={answer.redirect_uri} />
      {failure ? <FormAlert title="Single sign-on was not saved">{failure}</FormAlert> : null}
      <TextInput
        label="Issuer"
        description="The provider’s issuer URL; its discovery document is read when you save."
        placeholder="https://login.example.com"
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
        {...form.getInputProps('issuer')}
      />
      <Group align="flex-start" gap="md" wrap="wrap" grow preventGrowOverflow={false}>
        <TextInput
          label="Client ID"
          required
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          miw="14rem"
          {...form.getInputProps('client_id')}
        />
        {keepSecret ? (
          <Input.Wrapper label="Client secret" miw="14rem" data-testid="sso-secret-set">
            <Group gap="xs" wrap="wrap" mih={36} align="center">
              <Text size="sm">Set (kept encrypted, never shown)</Text>
              <Button
                size="xs"
                variant="light"
                onClick={() => {
                  setReplacingSecret(true);
                  // The field appears on this render: focus it on the next.
                  setTimeout(() => form.getInputNode('client_secret')?.focus(), 0);
                }}
              >
                Replace secret
              </Button>
            </Group>
          </Input.Wrapper>
        ) : (
          <Stack gap={4} miw="14rem">
            <PasswordField
              label={sso ? 'New client secret' : 'Client secret'}
              visibilityToggleButtonProps={{ 'aria-label': 'Show the secret' }}
              required
              autoComplete="new-password"
              {...form.getInputProps('client_secret')}
            />
            {sso ? (
              <Group>
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => {
                    setReplacingSecret(false);
                    form.setFieldValue('client_secret', '');
                    form.clearFieldError('client_secret');
                  }}
                >
                  Keep the current secret
                </Button>
              </Group>
            ) : null}
          </Stack>
        )}
      </Group>
      <Group align="flex-start" gap="md" wrap="wrap" grow preventGrowOverflow={false}>
        <TextInput
          label="Scopes"
          description="Separated by spaces; openid is required."
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          miw="14rem"
          {...form.getInputProps('scopes')}
        />
        <TextInput
          label="Group claim"
          description="The ID token claim listing the person’s groups, e.g. groups."
          placeholder="groups"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          miw="14rem"
          {...form.getInputProps('group_claim')}
        />
      </Group>
      <RoleRules form={form} />
      <Switch
        label="Require single sign-on"
        description={
          hasVerifiedDomain
            ? 'People of the verified domains can no longer sign in with a password or a passkey, nor reset a password. Platform administrators keep a logged way in.'
            : 'Verify a domain under Sign-in domains first: single sign-on can be required only of verified domains.'
        }
        disabled={!hasVerifiedDomain}
        {...form.getInputProps('require_sso', { type: 'checkbox' })}
      />
      <Group gap="sm" wrap="wrap">
        <Button type="submit" loading={form.submitting}>
          Save
        </Button>
        {sso ? (
          <>
            <Button
              variant="light"
              loading={testing.isLoading}
              disabled={form.isDirty()}
              onClick={() => void test()}
            >
              Test sign-in
            </Button>
            <Button
              variant="subtle"
              color="red"
              leftSection={<TrashIcon size={14} />}
              onClick={() => setRemoving(true)}
            >
              Remove
            </Button>
          </>
        ) : null}
      </Group>
      {sso ? (
        <Text size="sm" c="dimmed">
          {form.isDirty()
            ? 'Save your changes to test them.'
            : 'Test sign-in takes you to your provider with the saved settings and back here; it signs nobody in.'}
        </Text>
      ) : null}
      {testProblem ? (
        <Notice tone="danger" title="The test sign-in did not start">
          {testProblem}
        </Notice>
      ) : null}
      {sso?.last_test ? <LastTest result={sso.last_test} focus={testReturn} /> : null}
      <ConfirmDialog
        opened={removing}
        title="Remove single sign-on?"
        confirmLabel="Remove single sign-on"
        failureTitle="Single sign-on is still set up"
        fallback={organisationSsoMessages.removeFailed}
        onClose={() => setRemoving(false)}
        onConfirm={async () => {
          await remove({ organisationId }).unwrap();
          showToast({
            title: 'Single sign-on removed',
            message: `${organisation.name}’s people sign in with their passwords again.`,
          });
          setRemoving(false);
        }}
      >
        <Text size="sm">
          People of your domains sign in with their passwords again; those who never set one reset it from the
          sign-in page. Their memberships and seats stay.
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}

/**
 * Single sign-on through the organisation's OpenID Connect provider: its owner and admins set the
 * issuer, client and the roles groups give, require it of the verified domains, and test a sign-in
 * (the provider sends the browser back here with `#sso_test=…`, and the result is shown).
 */
export function SsoSection({
  organisation,
  answer,
  hasVerifiedDomain,
}: {
  organisation: Organisation;
  answer: OrganisationSsoAnswer;
  hasVerifiedDomain: boolean;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const [testReturn] = useState(() => /(^#|&)sso_test=/.test(location.hash));
  const cleared = useRef(false);
  useEffect(() => {
    // Back from a test sign-in: the fragment has said so once; the result below tells the rest.
    if (!testReturn || cleared.current) return;
    cleared.current = true;
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [testReturn, navigate, location.pathname, location.search]);
  return (
    <SsoForm
      organisation={organisation}
      answer={answer}
      hasVerifiedDomain={hasVerifiedDomain}
      testReturn={testReturn}
    />
  );
}
