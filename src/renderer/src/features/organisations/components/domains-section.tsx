import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { domainNameSchema, type OrganisationDomain } from '../../../../../shared/api/organisation-domains';
import type { Organisation } from '../../../../../shared/api/organisations';
import { PlusIcon, TrashIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/notice';
import { StatusBadge } from '../../../components/data/status-badge';
import { showToast } from '../../../components/data/toast';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate, formatDateTime } from '../organisation-format';
import { CopyableValue as RecordValue } from './copyable-value';
import {
  organisationDomainMessages,
  useAddOrganisationDomainMutation,
  useRemoveOrganisationDomainMutation,
  useVerifyOrganisationDomainMutation,
} from '../organisation-domains-endpoints';

const FIELDS = ['domain'] as const;
const addFormSchema = z.object({ domain: domainNameSchema });

function AddDomainForm({ organisationId }: { organisationId: string }) {
  const { t } = useLingui();
  const [addDomain] = useAddOrganisationDomainMutation();
  const [failure, setFailure] = useState<string>();
  const form = useForm<{ domain: string }>({
    initialValues: { domain: '' },
    validate: schemaResolver(addFormSchema),
  });
  const submit = form.onSubmit(
    async ({ domain }) => {
      setFailure(undefined);
      try {
        const added = (await addDomain({ organisationId, domain }).unwrap()).domain;
        showToast({
          title: t`Domain added`,
          message: t`Publish its TXT record, then check DNS to verify ${added}.`,
        });
        form.reset();
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(
          error,
          organisationDomainMessages.addFailed,
          {},
          FIELDS,
        );
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );
  return (
    <form onSubmit={submit} noValidate aria-label={t`Add a domain`}>
      <Stack gap="sm">
        {failure ? <FormAlert title={t`The domain was not added`}>{failure}</FormAlert> : null}
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t`Domain`}
            placeholder={t`example.com`}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            style={{ flex: '1 1 16rem' }}
            {...form.getInputProps('domain')}
          />
          <Button
            type="submit"
            loading={form.submitting}
            mt={{ base: 0, xs: 25 }}
            leftSection={<PlusIcon size={16} />}
          >
            <Trans>Add domain</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DomainCard({
  organisationId,
  domain,
  owner,
  onRemove,
}: {
  organisationId: string;
  domain: OrganisationDomain;
  owner: boolean;
  onRemove(domain: OrganisationDomain): void;
}) {
  const { t } = useLingui();
  const [verify, verifying] = useVerifyOrganisationDomainMutation();
  const name = domain.domain;
  const verifiedOn = formatDate(domain.verified_at ?? domain.created_at);
  const [problem, setProblem] = useState<string | null>(null);
  const verified = domain.status === 'verified';

  const check = async () => {
    setProblem(null);
    try {
      const checked = await verify({ organisationId, domainId: domain.id }).unwrap();
      const checkedName = checked.domain;
      if (checked.status === 'verified')
        showToast({ title: t`Domain verified`, message: t`${checkedName} is proven to be yours.` });
    } catch (error) {
      setProblem(failureMessage(error, organisationDomainMessages.verifyFailed));
    }
  };

  return (
    <Card withBorder padding="md" data-testid="organisation-domain">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="wrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {domain.domain}
            </Text>
            <StatusBadge tone={verified ? 'positive' : 'caution'} size="md">
              {verified ? t`Verified` : t`Waiting for DNS`}
            </StatusBadge>
          </Group>
          {owner ? (
            <Group gap="xs">
              {verified ? null : (
                <Button size="xs" onClick={() => void check()} loading={verifying.isLoading}>
                  <Trans>Check DNS</Trans>
                </Button>
              )}
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<TrashIcon size={14} />}
                onClick={() => onRemove(domain)}
                aria-label={t`Remove ${name}`}
              >
                <Trans>Remove</Trans>
              </Button>
            </Group>
          ) : null}
        </Group>
        {verified ? (
          <Text size="sm" c="dimmed">
            <Trans>
              Verified on {verifiedOn}. You may delete the TXT record now; removing the domain here gives up
              the claim.
            </Trans>
          </Text>
        ) : (
          <>
            <Text size="sm">
              <Trans>
                Add this TXT record at your DNS provider, then check DNS. Changes can take a few minutes to be
                seen.
              </Trans>
            </Text>
            <RecordValue label={t`Record name`} value={domain.record_name} />
            <RecordValue label={t`Record value`} value={domain.record_value} />
            {domain.checked_at && domain.check_failure ? (
              <Text size="sm" c="dimmed" role="status" data-testid="domain-check-result">
                {t`Last checked ${ph({ checked: formatDateTime(domain.checked_at) })}: ${ph({ failure: domain.check_failure })}.`}
              </Text>
            ) : null}
          </>
        )}
        {problem ? (
          <Notice tone="danger" title={t`DNS was not checked`}>
            {problem}
          </Notice>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * The organisation's mail domains, the first step of single sign-on: the owner claims a domain
 * and proves it with a TXT record; admins see the claims.
 */
export function DomainsSection({
  organisation,
  domains,
}: {
  organisation: Organisation;
  domains: OrganisationDomain[];
}) {
  const owner = organisation.role === 'owner' || organisation.role === null;
  const { t } = useLingui();
  const [removeDomain] = useRemoveOrganisationDomainMutation();
  const organisationName = organisation.name;
  const [removing, setRemoving] = useState<OrganisationDomain | null>(null);

  return (
    <SectionCard
      headingId="domains-title"
      title={t`Sign-in domains`}
      description={t`Prove that ${organisationName} owns its mail domains. Verified domains are where single sign-on starts: people with those addresses will be sent to your identity provider.`}
    >
      {owner ? <AddDomainForm organisationId={organisation.id} /> : null}
      {domains.length === 0 ? (
        <Text size="sm" c="dimmed">
          {owner
            ? t`No domains yet. Add your company’s mail domain above.`
            : t`The owner has not added any domains.`}
        </Text>
      ) : (
        <Stack gap="sm">
          {domains.map((domain) => (
            <DomainCard
              key={domain.id}
              organisationId={organisation.id}
              domain={domain}
              owner={owner}
              onRemove={setRemoving}
            />
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={removing ? t`Remove ${ph({ domain: removing.domain })}?` : t`Remove the domain?`}
        confirmLabel={t`Remove domain`}
        failureTitle={t`The domain is still claimed`}
        fallback={organisationDomainMessages.removeFailed}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await removeDomain({ organisationId: organisation.id, domainId: removing.id }).unwrap();
          showToast({
            title: t`Domain removed`,
            message: t`${organisationName} no longer claims ${ph({ domain: removing.domain })}.`,
          });
          setRemoving(null);
        }}
      >
        <Text size="sm">
          <Trans>
            Another organization may then claim and verify it. To claim it again you publish a new TXT record.
          </Trans>
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
