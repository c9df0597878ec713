import { Trans, useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Button, Group, NativeSelect, Radio, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type FormEventHandler, useEffect, useRef, useState } from 'react';
import { MAX_SSO_ROLE_RULES, type SsoTestResult } from '../../../../../shared/api/organisation-sso';
import type { AssignableOrganisationRole, Organisation } from '../../../../../shared/api/organisations';
import { PlusIcon, TrashIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { failureMessage } from '../../../lib/api-errors';
import { formatDateTime, ROLE_LABELS } from '../organisation-format';
import {
  organisationSsoMessages,
  useRemoveOrganisationSsoMutation,
  useTestOrganisationSsoMutation,
} from '../organisation-sso-endpoints';

// What the OpenID Connect and SAML settings show alike: the protocol's choice, the rules that
// give roles from groups, the requirement, and the test sign-in, its result and the removal.

export type SsoProtocol = 'oidc' | 'saml';

/** Where the protocol's form puts its submit handler, for the section's one form to call. */
export type SubmitHandlerRef = { current: FormEventHandler<HTMLFormElement> | undefined };

/** The line under the section's heading. */
export function ssoDescription(organisation: Organisation, i18n: I18n): string {
  const name = organisation.name;
  return i18n._(
    msg`Sign ${name}’s people in through your identity provider, with OpenID Connect or SAML 2.0. People of the verified domains are sent there; their first sign-in makes their account and gives them a seat while one is free.`,
  );
}
export type RoleRule = { group: string; role: AssignableOrganisationRole };

const ROLE_CHOICES = [
  { value: 'member', label: ROLE_LABELS.member },
  { value: 'admin', label: ROLE_LABELS.admin },
];

/** Which protocol the organisation's provider speaks; changing it shows the other's settings. */
export function ProtocolChoice({
  value,
  onChange,
}: {
  value: SsoProtocol;
  onChange: (protocol: SsoProtocol) => void;
}) {
  const { t } = useLingui();
  return (
    <Radio.Group label={t`Protocol`} value={value} onChange={(chosen) => onChange(chosen as SsoProtocol)}>
      <Group gap="lg" mt={6}>
        <Radio value="oidc" label={t`OpenID Connect`} />
        <Radio value="saml" label={t`SAML 2.0`} />
      </Group>
    </Radio.Group>
  );
}

/** The outcome of the last test sign-in, told as a success or a failure with what came back. */
export function LastTest({ result, focus }: { result: SsoTestResult; focus: boolean }) {
  const { t, i18n } = useLingui();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Focus brings it into view and has a screen reader read it.
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div ref={ref} tabIndex={-1} style={{ outlineOffset: 2 }}>
      <Notice
        tone={result.ok ? 'success' : 'danger'}
        title={result.ok ? t`Test sign-in succeeded` : t`Test sign-in failed`}
        data-testid="sso-test-result"
      >
        <Stack gap={4}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {result.message}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {[
              result.email ? t`Address: ${ph({ email: result.email })}` : null,
              result.groups.length > 0
                ? t`Groups: ${ph({ groups: result.groups.join(', ') })}`
                : t`Groups: none`,
              result.role ? t`Role it gives: ${ph({ role: i18n._(ROLE_LABELS[result.role]) })}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <Text size="xs">{t`Tested ${ph({ at: formatDateTime(result.at) })}`}</Text>
        </Stack>
      </Notice>
    </div>
  );
}

/** The group → role rules of either form (both keep them under `role_mapping`). */
export function RoleRules<Values extends { role_mapping: RoleRule[] }>({
  form,
}: {
  form: UseFormReturnType<Values>;
}) {
  const { t, i18n } = useLingui();
  const rules = form.values.role_mapping;
  const roleChoices = ROLE_CHOICES.map((choice) => ({ value: choice.value, label: i18n._(choice.label) }));
  return (
    <Stack gap="xs">
      <div>
        <Title order={3} size="h5">
          <Trans>Groups and roles</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>
            The first rule whose group a person is in gives their role, at each sign-in. Nobody matched is a
            member.
          </Trans>
        </Text>
      </div>
      {rules.map((rule, index) => (
        <Group key={index} align="flex-start" gap="xs" wrap="wrap" data-testid="sso-role-rule">
          <TextInput
            label={t`Group ${ph({ number: index + 1 })}`}
            placeholder={t`portal-admins`}
            autoComplete="off"
            spellCheck={false}
            style={{ flex: '1 1 12rem' }}
            {...form.getInputProps(`role_mapping.${index}.group`)}
          />
          <NativeSelect
            label={t`Role ${ph({ number: index + 1 })}`}
            data={roleChoices}
            style={{ flex: '0 1 9rem' }}
            {...form.getInputProps(`role_mapping.${index}.role`)}
          />
          <Button
            variant="subtle"
            color="red"
            mt={25}
            leftSection={<TrashIcon size={14} />}
            aria-label={
              rule.group
                ? t`Remove rule ${ph({ number: index + 1 })} (${ph({ group: rule.group })})`
                : t`Remove rule ${ph({ number: index + 1 })}`
            }
            onClick={() => form.removeListItem('role_mapping', index)}
          >
            <Trans>Remove</Trans>
          </Button>
        </Group>
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<PlusIcon size={14} />}
          disabled={rules.length >= MAX_SSO_ROLE_RULES}
          onClick={() =>
            // Values' role_mapping is RoleRule[]: the generic keeps TypeScript from seeing so.
            form.insertListItem('role_mapping', { group: '', role: 'admin' } as never)
          }
        >
          <Trans>Add a rule</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

/** Whether the verified domains' people must sign in through the provider. */
export function RequireSsoSwitch<Values extends { require_sso: boolean }>({
  form,
  hasVerifiedDomain,
}: {
  form: UseFormReturnType<Values>;
  hasVerifiedDomain: boolean;
}) {
  const { t } = useLingui();
  return (
    <Switch
      label={t`Require single sign-on`}
      description={
        hasVerifiedDomain
          ? t`People of the verified domains can no longer sign in with a password or a passkey, nor reset a password. Platform administrators keep a logged way in.`
          : t`Verify a domain under Sign-in domains first: single sign-on can be required only of verified domains.`
      }
      disabled={!hasVerifiedDomain}
      {...form.getInputProps('require_sso', { type: 'checkbox' })}
    />
  );
}

/**
 * Save, and once a provider is saved: Test sign-in (to the provider and back, signing nobody in),
 * Remove (confirmed), what the test needs said, and the last test's result.
 */
export function SsoActions({
  organisation,
  configured,
  dirty,
  submitting,
  lastTest,
  testReturn,
}: {
  organisation: Organisation;
  configured: boolean;
  dirty: boolean;
  submitting: boolean;
  lastTest: SsoTestResult | null;
  testReturn: boolean;
}) {
  const { t } = useLingui();
  const organisationId = organisation.id;
  const organisationName = organisation.name;
  const [remove] = useRemoveOrganisationSsoMutation();
  const [startTest, testing] = useTestOrganisationSsoMutation();
  const [testProblem, setTestProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);

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
    <>
      <Group gap="sm" wrap="wrap">
        <Button type="submit" loading={submitting}>
          <Trans>Save</Trans>
        </Button>
        {configured ? (
          <>
            <Button variant="light" loading={testing.isLoading} disabled={dirty} onClick={() => void test()}>
              <Trans>Test sign-in</Trans>
            </Button>
            <Button
              variant="subtle"
              color="red"
              leftSection={<TrashIcon size={14} />}
              onClick={() => setRemoving(true)}
            >
              <Trans>Remove</Trans>
            </Button>
          </>
        ) : null}
      </Group>
      {configured ? (
        <Text size="sm" c="dimmed">
          {dirty
            ? t`Save your changes to test them.`
            : t`Test sign-in takes you to your provider with the saved settings and back here; it signs nobody in.`}
        </Text>
      ) : null}
      {testProblem ? (
        <Notice tone="danger" title={t`The test sign-in did not start`}>
          {testProblem}
        </Notice>
      ) : null}
      {lastTest ? <LastTest result={lastTest} focus={testReturn} /> : null}
      <ConfirmDialog
        opened={removing}
        title={t`Remove single sign-on?`}
        confirmLabel={t`Remove single sign-on`}
        failureTitle={t`Single sign-on is still set up`}
        fallback={organisationSsoMessages.removeFailed}
        onClose={() => setRemoving(false)}
        onConfirm={async () => {
          await remove({ organisationId }).unwrap();
          showToast({
            title: t`Single sign-on removed`,
            message: t`${organisationName}’s people sign in with their passwords again.`,
          });
          setRemoving(false);
        }}
      >
        <Text size="sm">
          <Trans>
            People of your domains sign in with their passwords again; those who never set one reset it from
            the sign-in page. Their memberships and seats stay.
          </Trans>
        </Text>
      </ConfirmDialog>
    </>
  );
}
