import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Skeleton, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { API_TOKEN_PREFIX } from '../../../../../shared/api/api-tokens';
import { ApiTokenList } from '../../../components/api-tokens/api-token-list';
import { CreateApiTokenDialog } from '../../../components/api-tokens/create-api-token-dialog';
import { LoadingBlock } from '../../../components/data/loading-block';
import { RetryNotice } from '../../../components/data/retry-notice';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import {
  apiTokenMessages,
  useCreateApiTokenMutation,
  useListApiTokensQuery,
  useRevokeApiTokenMutation,
} from './api-tokens-endpoints';

/** The Security page's personal API tokens: for scripts reaching the account's own licences and machines. */
export function ApiTokensSection() {
  const { t } = useLingui();
  const tokens = useListApiTokensQuery();
  const [create] = useCreateApiTokenMutation();
  const [revoke] = useRevokeApiTokenMutation();
  const [creating, setCreating] = useState(false);

  return (
    <SectionCard
      id="api-tokens"
      headingId="api-tokens-title"
      title={t`API tokens`}
      description={
        <Trans>
          Let a script or tool use the API as you, only in the areas you choose. Send the token as{' '}
          <Code>Authorization: Bearer aap_…</Code>. Every call made with a token is in your security log.
        </Trans>
      }
      actions={
        <Button onClick={() => setCreating(true)}>
          <Trans>New token</Trans>
        </Button>
      }
    >
      {tokens.isLoading ? (
        <LoadingBlock label={t`Loading your API tokens`}>
          <Skeleton height={120} radius="md" />
        </LoadingBlock>
      ) : tokens.isError ? (
        <RetryNotice
          title={apiTokenMessages.listFailed}
          message={failureMessage(tokens.error, apiTokenMessages.listFailed)}
          onRetry={() => void tokens.refetch()}
        />
      ) : (tokens.data ?? []).length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>
            No tokens yet. Every token starts with <Code>{API_TOKEN_PREFIX}</Code> and ends with a checksum,
            so secret scanners can spot one that leaked.
          </Trans>
        </Text>
      ) : (
        <ApiTokenList
          tokens={tokens.data ?? []}
          revoke={async (token) => {
            await revoke(token.id).unwrap();
            const name = token.name;
            notifications.show({
              color: 'teal',
              title: t`Token revoked`,
              message: t`${name} no longer works.`,
            });
          }}
        />
      )}
      <CreateApiTokenDialog
        opened={creating}
        onClose={() => setCreating(false)}
        kind="personal"
        create={(body) => create(body).unwrap()}
      />
    </SectionCard>
  );
}
