import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Group, Radio, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import {
  type OrganisationSaml,
  type OrganisationSamlBody,
  type OrganisationSsoAnswer,
  organisationSamlBodySchema,
} from '../../../../../shared/api/organisation-sso';
import type { Organisation } from '../../../../../shared/api/organisations';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { formatDateTime } from '../organisation-format';
import { organisationSsoMessages, useSetOrganisationSamlMutation } from '../organisation-sso-endpoints';
import { CopyableValue } from './copyable-value';
import { RequireSsoSwitch, type RoleRule, RoleRules, SsoActions, type SubmitHandlerRef } from './sso-parts';
import { knownText } from '../../../lib/i18n/portal-i18n';

type MetadataSource = 'xml' | 'url';

interface SamlFormValues {
  source: MetadataSource;
  metadata_xml: string;
  metadata_url: string;
  group_attribute: string;
  role_mapping: RoleRule[];
  require_sso: boolean;
}

const FIELDS = ['metadata_xml', 'metadata_url', 'group_attribute'] as const;

const valuesOf = (saml: OrganisationSaml | null): SamlFormValues => ({
  source: saml?.metadata_url ? 'url' : 'xml',
  metadata_xml: '',
  metadata_url: saml?.metadata_url ?? '',
  group_attribute: saml?.group_attribute ?? '',
  role_mapping: saml?.role_mapping.map((rule) => ({ ...rule })) ?? [],
  require_sso: saml?.require_sso ?? false,
});

/**
 * The body the server takes: the metadata of the chosen source when given; none keeps the saved
 * provider (its URL is read again when saved with it); an empty attribute is none.
 */
const bodyOf = (values: SamlFormValues): OrganisationSamlBody => {
  const xml = values.metadata_xml.trim();
  const url = values.metadata_url.trim();
  return {
    ...(values.source === 'xml' && xml ? { metadata_xml: xml } : {}),
    ...(values.source === 'url' && url ? { metadata_url: url } : {}),
    group_attribute: values.group_attribute.trim() || null,
    role_mapping: values.role_mapping.map((rule) => ({ group: rule.group.trim(), role: rule.role })),
    require_sso: values.require_sso,
  };
};

/** The shared body schema's rules by form path, and the metadata required until a provider is saved. */
function validate(values: SamlFormValues, configured: boolean): Record<string, string> {
  const parsed = organisationSamlBodySchema.safeParse(bodyOf(values));
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= knownText(issue.message);
  const body = bodyOf(values);
  if (!configured && body.metadata_xml === undefined && body.metadata_url === undefined) {
    if (values.source === 'xml') errors['metadata_xml'] = i18n._(msg`Paste the identity provider’s metadata`);
    else errors['metadata_url'] = i18n._(msg`Give the URL of the identity provider’s metadata`);
  }
  return errors;
}

/** What the saved metadata said: the provider's entity id, sign-in URL and certificates. */
function IdentityProvider({ saml }: { saml: OrganisationSaml }) {
  const { t } = useLingui();
  const several = saml.idp_certificates.length > 1;
  return (
    <Stack gap="xs" data-testid="saml-identity-provider">
      <Title order={3} size="h5">
        <Trans>Identity provider</Trans>
      </Title>
      <CopyableValue label={t`Its entity ID`} value={saml.idp_entity_id} />
      <CopyableValue label={t`Its sign-in URL`} value={saml.idp_sso_url} />
      {saml.idp_certificates.map((certificate, index) => (
        <Stack key={certificate.sha256_fingerprint} gap={2}>
          <Text size="xs" fw={600} c="dimmed">
            {several ? t`Signing certificate ${ph({ number: index + 1 })}` : t`Signing certificate`}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t`${ph({ subject: certificate.subject })} · expires ${ph({ expires: formatDateTime(certificate.not_after) })}`}
          </Text>
          <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            SHA-256 {certificate.sha256_fingerprint}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * The organisation's SAML 2.0 identity provider: what to enter there (our entity ID, ACS and
 * metadata URL), its metadata pasted or read from a URL when saved, the roles its groups give,
 * the requirement, and the test sign-in.
 */
export function SamlForm({
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
  const saml = answer.sso?.protocol === 'saml' ? answer.sso : null;
  const [save] = useSetOrganisationSamlMutation();
  const [failure, setFailure] = useState<string>();
  // Read by the form's check, which is made once.
  const configured = useRef(saml !== null);
  configured.current = saml !== null;
  const form = useForm<SamlFormValues>({
    initialValues: valuesOf(saml),
    validate: (values) => validate(values, configured.current),
  });
  // After each save or removal the form holds what the server kept.
  const kept = saml?.updated_at ?? null;
  const seen = useRef(kept);
  useEffect(() => {
    if (seen.current === kept) return;
    seen.current = kept;
    form.setInitialValues(valuesOf(saml));
    form.reset();
  }, [kept, saml, form]);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        const saved = await save({ organisationId, body: bodyOf(values) }).unwrap();
        showToast({
          title: t`Single sign-on saved`,
          message:
            saved.sso?.protocol === 'saml' && saved.sso.require_sso
              ? t`People of ${organisationName}’s domains now sign in through ${ph({ issuer: saved.sso.idp_entity_id })} only.`
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

  const source = form.values.source;

  // The section's form (SsoSection's) submits through the protocol shown.
  submitter.current = submit;
  return (
    <>
      {answer.sso?.protocol === 'oidc' ? (
        <Notice tone="warning" title={t`Saving replaces the OpenID Connect provider`}>
          <Trans>
            {organisationName} signs in through OpenID Connect now; saving these settings switches it to SAML.
          </Trans>
        </Notice>
      ) : null}
      <Stack gap="xs">
        <Title order={3} size="h5">
          <Trans>Enter these at your identity provider</Trans>
        </Title>
        <CopyableValue label={t`Entity ID (audience)`} value={answer.saml.entity_id} />
        <CopyableValue label={t`Assertion Consumer Service URL (HTTP-POST)`} value={answer.saml.acs_url} />
        <CopyableValue label={t`Our metadata URL`} value={answer.saml.metadata_url} />
        <Text size="sm" c="dimmed">
          <Trans>
            Assertions must be signed, and the address must come as an <code>email</code> attribute or an
            e-mail NameID.
          </Trans>
        </Text>
      </Stack>
      {failure ? <FormAlert title={t`Single sign-on was not saved`}>{failure}</FormAlert> : null}
      {saml ? <IdentityProvider saml={saml} /> : null}
      <Radio.Group
        label={saml ? t`Replace the metadata` : t`The identity provider’s metadata`}
        value={source}
        onChange={(chosen) => form.setFieldValue('source', chosen as MetadataSource)}
      >
        <Group gap="lg" mt={6}>
          <Radio value="xml" label={t`Paste XML`} />
          <Radio value="url" label={t`From a URL`} />
        </Group>
      </Radio.Group>
      {source === 'xml' ? (
        <Textarea
          label={t`Metadata XML`}
          description={
            saml
              ? t`The EntityDescriptor your identity provider publishes. Leave it empty to keep the provider shown above.`
              : t`The EntityDescriptor your identity provider publishes.`
          }
          placeholder='<md:EntityDescriptor entityID="https://idp.example.com/…">'
          rows={6}
          resize="vertical"
          spellCheck={false}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
          {...form.getInputProps('metadata_xml')}
        />
      ) : (
        <TextInput
          label={t`Metadata URL`}
          description={
            saml
              ? t`Read once, when you save. Leave it empty to keep the provider shown above.`
              : t`Read once, when you save.`
          }

          placeholder={t`https://idp.example.com/metadata`}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="url"
          {...form.getInputProps('metadata_url')}
        />
      )}
      <Group align="flex-start" gap="md" wrap="wrap" grow preventGrowOverflow={false}>
        <TextInput
          label={t`Group attribute`}
          description={t`The assertion’s attribute listing the person’s groups, e.g. groups.`}
          placeholder={t`groups`}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          miw="14rem"
          {...form.getInputProps('group_attribute')}
        />
      </Group>
      <RoleRules form={form} />
      <RequireSsoSwitch form={form} hasVerifiedDomain={hasVerifiedDomain} />
      <SsoActions
        organisation={organisation}
        configured={saml !== null}
        dirty={form.isDirty()}
        submitting={form.submitting}
        lastTest={saml?.last_test ?? null}
        testReturn={testReturn}
      />
    </>
  );
}
