import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  type OrganisationOidc,
  type OrganisationSsoAnswer,
  type OrganisationSsoBody,
  organisationSsoBodySchema,
} from '../../../../../shared/api/organisation-sso';
import type { AssignableOrganisationRole, Organisation } from '../../../../../shared/api/organisations';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { PasswordField } from '../../../components/forms/password-field';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { organisationSsoMessages, useSetOrganisationSsoMutation } from '../organisation-sso-endpoints';
import { CopyableValue } from './copyable-value';
import { SamlForm } from './saml-settings-form';
import {
  ProtocolChoice,
  RequireSsoSwitch,
  RoleRules,
  ssoDescription,
  type SsoProtocol,
  SsoActions,
  type SubmitHandlerRef,
} from './sso-parts';
import { knownText } from '../../../lib/i18n/portal-i18n';

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
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= knownText(issue.message);
  if (!keepSecret && values.client_secret === '')
    errors['client_secret'] = i18n._(msg`Give the client secret the provider issued`);
  return errors;
}

/** The form of the settings; its check reads whether the stored secret is kept when it runs. */
const useSsoForm = (sso: OrganisationOidc | null, keeping: { current: boolean }) =>
  useForm<SsoFormValues>({
    initialValues: valuesOf(sso),
    validate: (values) => validate(values, keeping.current),
  });

function OidcForm({
  organisation,
  answer,
  hasVerifiedDomain,
  testReturn,
  submitter,
}: {
  organisation: Organisation;
  answer: OrganisationSsoAnswer;
  hasVerifiedDomain: boolean;
  testReturn: boolean;
  submitter: SubmitHandlerRef;
}) {
  const { t } = useLingui();
  const organisationId = organisation.id;
  const organisationName = organisation.name;
  const sso = answer.sso?.protocol === 'oidc' ? answer.sso : null;
  const [save] = useSetOrganisationSsoMutation();
  const [failure, setFailure] = useState<string>();
  const [replacingSecret, setReplacingSecret] = useState(sso === null);
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
          title: t`Single sign-on saved`,
          message:
            saved.sso?.protocol === 'oidc' && saved.sso.require_sso
              ? t`People of ${organisationName}’s domains now sign in through ${ph({ issuer: saved.sso.issuer })} only.`
              : t`Test the sign-in to check it works.`,
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

  // The section's form (SsoSection's) submits through the protocol shown.
  submitter.current = submit;
  return (
    <>
      {answer.sso?.protocol === 'saml' ? (
        <Notice tone="warning" title={t`Saving replaces the SAML identity provider`}>
          <Trans>
            {organisationName} signs in through SAML now; saving these settings switches it to OpenID Connect.
          </Trans>
        </Notice>
      ) : null}
      <CopyableValue label={t`Redirect URI (register it with your provider)`} value={answer.redirect_uri} />
      {failure ? <FormAlert title={t`Single sign-on was not saved`}>{failure}</FormAlert> : null}
      <TextInput
        label={t`Issuer`}
        description={t`The provider’s issuer URL; its discovery document is read when you save.`}
        placeholder={t`https://login.example.com`}
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
        {...form.getInputProps('issuer')}
      />
      <Group align="flex-start" gap="md" wrap="wrap" grow preventGrowOverflow={false}>
        <TextInput
          label={t`Client ID`}
          required
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          miw="14rem"
          {...form.getInputProps('client_id')}
        />
        {keepSecret ? (
          <Input.Wrapper label={t`Client secret`} miw="14rem" data-testid="sso-secret-set">
            <Group gap="xs" wrap="wrap" mih={36} align="center">
              <Text size="sm">
                <Trans>Set (kept encrypted, never shown)</Trans>
              </Text>
              <Button
                size="xs"
                variant="light"
                onClick={() => {
                  setReplacingSecret(true);
                  // The field appears on this render: focus it on the next.
                  setTimeout(() => form.getInputNode('client_secret')?.focus(), 0);
                }}
              >
                <Trans>Replace secret</Trans>
              </Button>
            </Group>
          </Input.Wrapper>
        ) : (
          <Stack gap={4} miw="14rem">
            <PasswordField
              label={sso ? t`New client secret` : t`Client secret`}
              visibilityToggleButtonProps={{ 'aria-label': t`Show the secret` }}
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
                  <Trans>Keep the current secret</Trans>
                </Button>
              </Group>
            ) : null}
          </Stack>
        )}
      </Group>
      <Group align="flex-start" gap="md" wrap="wrap" grow preventGrowOverflow={false}>
        <TextInput
          label={t`Scopes`}
          description={t`Separated by spaces; openid is required.`}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          miw="14rem"
          {...form.getInputProps('scopes')}
        />
        <TextInput
          label={t`Group claim`}
          description={t`The ID token claim listing the person’s groups, e.g. groups.`}
          placeholder={t`groups`}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          miw="14rem"
          {...form.getInputProps('group_claim')}
        />
      </Group>
      <RoleRules form={form} />
      <RequireSsoSwitch form={form} hasVerifiedDomain={hasVerifiedDomain} />
      <SsoActions
        organisation={organisation}
        configured={sso !== null}
        dirty={form.isDirty()}
        submitting={form.submitting}
        lastTest={sso?.last_test ?? null}
        testReturn={testReturn}
      />
    </>
  );
}

/**
 * Single sign-on through the organisation's provider, OpenID Connect or SAML 2.0: its owner and
 * admins choose the protocol, set the provider (an issuer and client, or a SAML provider's
 * metadata) and the roles groups give, require it of the verified domains, and test a sign-in
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
  const { t } = useLingui();
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
  const [protocol, setProtocol] = useState<SsoProtocol>(answer.sso?.protocol ?? 'oidc');
  const submitter: SubmitHandlerRef = useRef(undefined);
  const props = { organisation, answer, hasVerifiedDomain, testReturn, submitter };
  // One card and one form whichever protocol is shown, so choosing the other keeps focus where it is.
  return (
    <SectionCard
      headingId="sso-title"
      title={t`Single sign-on`}
      description={ssoDescription(organisation, i18n)}

      onSubmit={(event) => submitter.current?.(event)}
    >
      <ProtocolChoice value={protocol} onChange={setProtocol} />
      {protocol === 'saml' ? <SamlForm {...props} /> : <OidcForm {...props} />}
    </SectionCard>
  );
}
