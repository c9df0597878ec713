import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AdminApiToken, ApiToken } from '../../../../shared/api/api-tokens';
import { type StatusTone, StatusBadge } from '../data/status-badge';
import { formatDate, formatDateTime } from '../../lib/format-date';
import { ConfirmDialog } from '../forms/confirm-dialog';

const at = (format: (iso: string) => string, iso: string) => <time dateTime={iso}>{format(iso)}</time>;

const STATUS: Record<ApiToken['status'], { tone: StatusTone; label: MessageDescriptor }> = {
  active: { tone: 'positive', label: msg`Active` },
  expired: { tone: 'neutral', label: msg`Expired` },
  revoked: { tone: 'negative', label: msg`Revoked` },
};

/** `aap_Ab3d…x9Qz`: enough to recognise a token, nothing to use. */
export const tokenHint = (token: ApiToken) => `${token.prefix}…${token.last_four}`;

const hasOwner = (token: ApiToken): token is AdminApiToken => 'owner_email' in token;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

export interface ApiTokenListProps {
  tokens: readonly ApiToken[];
  /** Revokes one token; rejects with the server's refusal, shown in the confirmation. */
  revoke: (token: ApiToken) => Promise<void>;
}

/** Tokens as cards (one column on a phone): name, state, hint, scopes, dates, last use; revoke with a confirmation. */
export function ApiTokenList({ tokens, revoke }: ApiTokenListProps) {
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const { i18n, t } = useLingui();
  const revokingName = revoking?.name;
  const revokingHint = revoking ? tokenHint(revoking) : '';
  return (
    <>
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t`API tokens`}>
        {tokens.map((token) => (
          <Paper key={token.id} component="li" withBorder radius="md" p="md">
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {token.name}
                  </Text>
                  <StatusBadge tone={STATUS[token.status].tone} size="md">
                    {i18n._(STATUS[token.status].label)}
                  </StatusBadge>
                  {token.kind === 'platform' && (
                    <Badge variant="light" color="iris" tt="none">
                      <Trans>Platform</Trans>
                    </Badge>
                  )}
                </Group>
                {token.status === 'active' && (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    onClick={() => setRevoking(token)}
                    aria-label={t`Revoke ${{ name: token.name }}`}
                  >
                    <Trans>Revoke</Trans>
                  </Button>
                )}
              </Group>
              <Code w="fit-content">{tokenHint(token)}</Code>
              <Group gap={6} wrap="wrap" aria-label={t`Scopes`}>
                {token.scopes.map((scope) => (
                  <Badge key={scope} variant="default" tt="none" fw={500}>
                    {scope}
                  </Badge>
                ))}
              </Group>
              <SimpleGrid cols={{ base: 2, sm: hasOwner(token) ? 5 : 4 }} spacing="sm">
                {hasOwner(token) && <Fact label={t`Owner`}>{token.owner_email}</Fact>}
                <Fact label={t`Created`}>{at(formatDate, token.created_at)}</Fact>
                <Fact label={token.status === 'expired' ? t`Expired` : t`Expires`}>
                  {at(formatDate, token.expires_at)}
                </Fact>
                <Fact label={t`Last used`}>
                  {token.last_used_at ? at(formatDateTime, token.last_used_at) : t`Never`}
                </Fact>
                <Fact label={t`From address`}>{token.last_used_ip ?? '—'}</Fact>
              </SimpleGrid>
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ConfirmDialog
        opened={revoking !== null}
        title={revokingName ? t`Revoke ${revokingName}?` : t`Revoke token?`}
        confirmLabel={t`Revoke token`}
        failureTitle={t`Could not revoke the token`}
        fallback={t`Could not revoke the token`}
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
              Every call made with <Code>{revokingHint}</Code> is refused from now on. This cannot be undone:
              whatever uses it needs a new token.
            </Trans>
          ) : (
            <Trans>
              Every call made with it is refused from now on. This cannot be undone: whatever uses it needs a
              new token.
            </Trans>
          )}
        </Text>
      </ConfirmDialog>
    </>
  );
}
