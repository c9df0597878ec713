import { formatDate, formatDateTime } from '../../../lib/format-date';
import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Code, Group, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { AdminApiToken, ApiToken } from '../../../../../shared/api/api-tokens';
import { ApiTokenList, tokenHint } from '../../../components/api-tokens/api-token-list';
import { CreateApiTokenDialog } from '../../../components/api-tokens/create-api-token-dialog';
import { LoadingBlock } from '../../../components/data/loading-block';
import { StatusBadge } from '../../../components/data/status-badge';
import type { Column } from '../../../components/data-table/data-table';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { SectionCard } from '../../../components/layout/section-card';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectCurrentUser } from '../../auth';
import {
  adminApiTokenMessages,
  useCreatePlatformApiTokenMutation,
  useListAllApiTokensQuery,
  useRevokeAnyApiTokenMutation,
  adminApiTokensApi,
} from '../api-tokens/admin-api-tokens-endpoints';
import { pagedResult, pagesOf } from '../query-answer';
import type { CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<'kind' | 'status'> = {
  sortFields: ['created_at', 'last_used_at', 'expires_at'],
  defaultSort: '-created_at',
  filters: ['kind', 'status'],
};

const KIND_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`Personal and platform` },
  { value: 'personal', label: msg`Personal` },
  { value: 'platform', label: msg`Platform` },
];
const STATUS_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`Active` },
  { value: 'inactive', label: msg`Revoked or expired` },
  { value: 'all', label: msg`All` },
];

/** The administrator's own platform tokens: made here, revoked here. */
function MyPlatformTokens({ revoke }: { revoke: (token: ApiToken) => Promise<void> }) {
  const me = useAppSelector(selectCurrentUser);
  const mine = useListAllApiTokensQuery(
    { user_id: me?.id ?? '', kind: 'platform', status: 'active', perPage: 100 },
    { skip: !me?.id },
  );
  const [create] = useCreatePlatformApiTokenMutation();
  const [creating, setCreating] = useState(false);
  const tokens = mine.data?.data ?? [];
  const { t } = useLingui();
  return (
    <SectionCard
      headingId="platform-tokens-title"
      title={t`Your platform tokens`}
      description={t`Tokens that act as you, an administrator, in the areas you choose (admin and webhooks included). They stop working if you stop being an administrator.`}
      actions={
        <Button onClick={() => setCreating(true)}>
          <Trans>New platform token</Trans>
        </Button>
      }
    >
      {mine.isLoading ? (
        <LoadingBlock label={t`Loading your platform tokens`}>
          <Skeleton height={100} radius="md" />
        </LoadingBlock>
      ) : tokens.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>You have no active platform token.</Trans>
        </Text>
      ) : (
        <ApiTokenList tokens={tokens} revoke={revoke} />
      )}
      <CreateApiTokenDialog
        opened={creating}
        onClose={() => setCreating(false)}
        kind="platform"
        create={(body) => create(body).unwrap()}
      />
    </SectionCard>
  );
}

/** The API tokens as a CSV file (their prefix and last four only, never a token). */
const TOKENS_CSV: CsvColumn<AdminApiToken>[] = [
  { header: 'Name', value: (token) => token.name },
  { header: 'Owner', value: (token) => token.owner_email },
  { header: 'Kind', value: (token) => token.kind },
  { header: 'Token', value: (token) => `${token.prefix}…${token.last_four}` },
  { header: 'Scopes', value: (token) => token.scopes.join('; ') },
  { header: 'Status', value: (token) => token.status },
  { header: 'Created', value: (token) => token.created_at },
  { header: 'Expires', value: (token) => token.expires_at },
  { header: 'Last used', value: (token) => token.last_used_at },
  { header: 'Last used from', value: (token) => token.last_used_ip },
  { header: 'ID', value: (token) => token.id },
];

export default function AdminApiTokensPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const tokens = pagedResult(useListAllApiTokensQuery(list.params));
  const [readTokens] = adminApiTokensApi.endpoints.listAllApiTokens.useLazyQuery();
  const [revokeToken] = useRevokeAnyApiTokenMutation();
  const [revoking, setRevoking] = useState<AdminApiToken | null>(null);
  const hint = revoking ? tokenHint(revoking) : '';
  const owner = revoking?.owner_email;

  const revoke = async (token: ApiToken) => {
    await revokeToken(token.id).unwrap();
    notifications.show({
      color: 'teal',
      title: t`Token revoked`,
      message: t`${ph({ name: token.name })} no longer works.`,
    });
  };

  const columns: Column<AdminApiToken>[] = [
    {
      key: 'token',
      header: t`Token`,
      render: (token) => (
        <Stack gap={2}>
          <Text span size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {token.name}
          </Text>
          <Code fz="xs" w="fit-content" style={{ whiteSpace: 'nowrap' }}>
            {tokenHint(token)}
          </Code>
        </Stack>
      ),
    },
    {
      key: 'owner',
      header: t`Owner`,
      render: (token) => (
        <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
          {token.owner_email}
        </Text>
      ),
    },
    {
      key: 'kind',
      header: t`Kind`,
      render: (token) =>
        token.kind === 'platform' ? (
          <Badge variant="light" color="iris" tt="none">
            <Trans>Platform</Trans>
          </Badge>
        ) : (
          t`Personal`
        ),
    },
    {
      key: 'scopes',
      header: t`Scopes`,
      render: (token) => (
        <Text span size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {token.scopes.join(' ')}
        </Text>
      ),
    },
    {
      key: 'last_used',
      header: t`Last used`,
      sortField: 'last_used_at',
      render: (token) =>
        token.last_used_at ? (
          <Text span size="sm">
            <time dateTime={token.last_used_at}>{formatDateTime(token.last_used_at)}</time>
            {token.last_used_ip ? ` · ${token.last_used_ip}` : ''}
          </Text>
        ) : (
          t`Never`
        ),
    },
    {
      key: 'expires',
      header: t`Expires`,
      sortField: 'expires_at',
      render: (token) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={token.expires_at}>{formatDate(token.expires_at)}</time>
        </Text>
      ),
    },
    {
      key: 'status',
      header: t`State`,
      render: (token) => (
        <StatusBadge
          tone={token.status === 'active' ? 'positive' : token.status === 'revoked' ? 'negative' : 'neutral'}
          size="md"
        >
          {token.status === 'active' ? t`Active` : token.status === 'revoked' ? t`Revoked` : t`Expired`}
        </StatusBadge>
      ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      render: (token) =>
        token.status === 'active' ? (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={() => setRevoking(token)}
              aria-label={t`Revoke ${ph({ name: token.name })} of ${ph({ ownerEmail: token.owner_email })}`}
            >
              <Trans>Revoke</Trans>
            </Button>
          </Group>
        ) : null,
    },
  ];

  return (
    <ListPage
      title={t`API tokens`}
      description={t`Every account's API tokens. Revoke one that leaked: calls made with it are refused at once, and each call made with a token is in the security log.`}
      header={<MyPlatformTokens revoke={revoke} />}
      list={list}
      result={tokens}
      noun={t`API tokens`}
      searchPlaceholder={t`Name, aap_… characters or owner e-mail`}
      filters={
        <>
          <FilterSelect
            list={list}
            filter="kind"
            label={t`Kind`}
            data={optionsIn(i18n, KIND_OPTIONS)}
            style={{ flex: '1 1 170px' }}
          />
          <FilterSelect
            list={list}
            filter="status"
            label={t`State`}
            data={optionsIn(i18n, STATUS_OPTIONS)}
            style={{ flex: '1 1 170px' }}
          />
        </>
      }
      noMatchesHint={t`Check the name or e-mail, or clear the filters.`}
      empty={{
        title: t`No active API tokens`,
        text: t`Tokens appear here when a customer creates one on their Security page or an administrator creates a platform token.`,
      }}
      csv={{ name: 'api-tokens', columns: TOKENS_CSV, fetchPage: pagesOf(readTokens, list.params) }}
      table={{
        columns,
        rowKey: (token) => token.id,
        skeletonRows: Math.min(list.query.perPage, 10),
      }}
    >
      <ConfirmDialog
        opened={revoking !== null}
        title={revoking ? t`Revoke ${ph({ name: revoking.name })}?` : t`Revoke token?`}
        confirmLabel={t`Revoke token`}
        failureTitle={t`Could not revoke the token`}
        fallback={adminApiTokenMessages.revokeFailed}
        centered
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await revoke(revoking);
          setRevoking(null);
        }}
      >
        <Text size="sm">
          {revoking ? (
            <Trans>
              <Code>{hint}</Code> of {owner} stops working at once. The owner needs a new token for whatever
              used it.
            </Trans>
          ) : (
            <Trans>
              The token of {owner} stops working at once. The owner needs a new token for whatever used it.
            </Trans>
          )}
        </Text>
      </ConfirmDialog>
    </ListPage>
  );
}
