import { Trans, useLingui } from '@lingui/react/macro';
import { msg, ph, plural } from '@lingui/core/macro';
import { Button, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { Organisation } from '../../../../../shared/api/organisations';
import type { ProvisioningSettings, ScimTokenCreated } from '../../../../../shared/api/scim';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDateTime } from '../organisation-format';
import {
  provisioningMessages,
  useCreateProvisioningTokenMutation,
  useMapProvisioningGroupMutation,
  useRevokeProvisioningTokenMutation,
  useRotateProvisioningTokenMutation,
} from '../provisioning-endpoints';
import { CopyableValue } from './copyable-value';

const ROLE_CHOICES = [
  { value: '', label: msg`No role change` },
  { value: 'member', label: msg`Member` },
  { value: 'admin', label: msg`Admin` },
];

/** The token as the server answered it once: shown until the owner says it is stored. */
function NewToken({ created, onDone }: { created: ScimTokenCreated; onDone(): void }) {
  const { t } = useLingui();
  return (
    <Notice tone="success" title={t`Copy the token now`} data-testid="scim-token-shown">
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            This is the only time it is shown: paste it as the Secret Token in Entra ID (or the API token in
            Okta). We keep only a fingerprint of it.
          </Trans>
        </Text>
        <CopyableValue label={t`SCIM token`} value={created.token} onColour />
        <Group>
          <Button size="xs" variant="light" onClick={onDone}>
            <Trans>I have stored it</Trans>
          </Button>
        </Group>
      </Stack>
    </Notice>
  );
}

function GroupRoles({
  organisationId,
  groups,
  owner,
}: {
  organisationId: string;
  groups: ProvisioningSettings['groups'];
  owner: boolean;
}) {
  const { t, i18n } = useLingui();
  const [mapGroup] = useMapProvisioningGroupMutation();
  const roleChoices = ROLE_CHOICES.map((choice) => ({ value: choice.value, label: i18n._(choice.label) }));
  const [problem, setProblem] = useState<string | null>(null);
  if (groups.length === 0)
    return (
      <Text size="sm" c="dimmed">
        <Trans>
          No groups pushed yet. Assign groups to the app in your identity provider to map them to roles here.
        </Trans>
      </Text>
    );
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={320}>
        <Table verticalSpacing="xs" aria-label={t`Pushed groups and the role each gives`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Group</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>People</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Role it gives</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.map((group) => (
              <Table.Tr key={group.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{group.display_name}</Table.Td>
                <Table.Td>{group.members}</Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={t`Role for ${ph({ group: group.display_name })}`}
                    data={roleChoices}
                    value={group.role ?? ''}
                    disabled={!owner}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setProblem(null);
                      mapGroup({
                        organisationId,
                        groupId: group.id,
                        role: value === 'admin' || value === 'member' ? value : null,
                      })
                        .unwrap()
                        .then(() =>
                          showToast({
                            title: t`Role saved`,
                            message: t`${ph({ group: group.display_name })}’s members follow it now.`,
                          }),
                        )
                        .catch((error: unknown) =>
                          setProblem(failureMessage(error, provisioningMessages.mapFailed)),
                        );
                    }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {problem ? (
        <Notice tone="danger" title={t`The role was not changed`}>
          {problem}
        </Notice>
      ) : null}
    </Stack>
  );
}

/**
 * SCIM provisioning: the base URL and the token an identity provider (Entra ID, Okta) adds and
 * removes people with, moving seats; the owner creates, rotates and revokes the token (shown once)
 * and maps pushed groups to roles. Admins see it.
 */
export function ProvisioningSection({
  organisation,
  settings,
}: {
  organisation: Organisation;
  settings: ProvisioningSettings;
}) {
  const { t } = useLingui();
  const owner = organisation.role === 'owner' || organisation.role === null;
  const organisationName = organisation.name;
  const organisationId = organisation.id;
  const [createToken, creating] = useCreateProvisioningTokenMutation();
  const [rotateToken] = useRotateProvisioningTokenMutation();
  const [revokeToken] = useRevokeProvisioningTokenMutation();
  const [shown, setShown] = useState<ScimTokenCreated | null>(null);
  const [confirming, setConfirming] = useState<'rotate' | 'revoke' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const token = settings.token;
  const users = settings.users;

  const create = async () => {
    setProblem(null);
    try {
      setShown(await createToken({ organisationId }).unwrap());
    } catch (error) {
      setProblem(failureMessage(error, provisioningMessages.createFailed));
    }
  };

  return (
    <SectionCard
      headingId="provisioning-title"
      title={t`Provisioning`}
      description={t`Let your identity provider add and remove ${organisationName}’s people with SCIM 2.0: a person assigned to the app is invited and given a seat; a person unassigned or deactivated loses the seat, and their machines stop at their next license check.`}
    >
      <CopyableValue label={t`SCIM base URL (Tenant URL)`} value={settings.base_url} />
      {shown ? <NewToken created={shown} onDone={() => setShown(null)} /> : null}
      {token ? (
        <Group justify="space-between" wrap="wrap" gap="sm" data-testid="scim-token-summary">
          <Stack gap={2}>
            <Text fw={600}>{t`Token ending in …${ph({ lastFour: token.last_four })}`}</Text>
            <Text size="sm" c="dimmed">
              {token.last_used_at
                ? t`Created ${ph({ created: formatDateTime(token.created_at) })} · last used ${ph({ lastUsed: formatDateTime(token.last_used_at) })}`
                : t`Created ${ph({ created: formatDateTime(token.created_at) })} · not used yet`}
            </Text>
          </Stack>
          {owner ? (
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={() => setConfirming('rotate')}>
                <Trans>Rotate token</Trans>
              </Button>
              <Button size="xs" variant="subtle" color="red" onClick={() => setConfirming('revoke')}>
                <Trans>Revoke</Trans>
              </Button>
            </Group>
          ) : null}
        </Group>
      ) : owner ? (
        <Group>
          <Button onClick={() => void create()} loading={creating.isLoading}>
            <Trans>Create token</Trans>
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          <Trans>The owner has not set up provisioning.</Trans>
        </Text>
      )}
      {problem ? (
        <Notice tone="danger" title={t`Nothing changed`}>
          {problem}
        </Notice>
      ) : null}
      <Text size="sm" data-testid="scim-user-counts">
        {settings.users === 0
          ? t`Nobody provisioned yet.`
          : t`${plural(users, { one: '# person provisioned', other: '# people provisioned' })}, ${ph({ active: settings.active_users })} active.`}
      </Text>
      <GroupRoles organisationId={organisationId} groups={settings.groups} owner={owner} />
      <ConfirmDialog
        opened={confirming !== null}
        title={confirming === 'rotate' ? t`Rotate the SCIM token?` : t`Revoke the SCIM token?`}
        confirmLabel={confirming === 'rotate' ? t`Rotate token` : t`Revoke token`}
        failureTitle={t`The token was not changed`}
        fallback={
          confirming === 'rotate' ? provisioningMessages.rotateFailed : provisioningMessages.revokeFailed
        }
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          if (confirming === 'rotate') setShown(await rotateToken({ organisationId }).unwrap());
          else {
            await revokeToken({ organisationId }).unwrap();
            setShown(null);
            showToast({
              title: t`Token revoked`,
              message: t`Provisioning stops until you create a new token.`,
            });
          }
          setConfirming(null);
        }}
      >
        <Text size="sm">
          {confirming === 'rotate'
            ? t`The current token stops working at once: paste the new one into your identity provider.`
            : t`Your identity provider can no longer add or remove people. People already provisioned keep their seats.`}
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
