import { Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AdminApiToken, ApiToken } from '../../../../shared/api/api-tokens';
import { type StatusTone, StatusBadge } from '../data/status-badge';
import { ConfirmDialog } from '../forms/confirm-dialog';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const at = (format: Intl.DateTimeFormat, iso: string) => (
  <time dateTime={iso}>{format.format(new Date(iso))}</time>
);

const STATUS: Record<ApiToken['status'], { tone: StatusTone; label: string }> = {
  active: { tone: 'positive', label: 'Active' },
  expired: { tone: 'neutral', label: 'Expired' },
  revoked: { tone: 'negative', label: 'Revoked' },
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
  return (
    <>
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="API tokens">
        {tokens.map((token) => (
          <Paper key={token.id} component="li" withBorder radius="md" p="md">
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {token.name}
                  </Text>
                  <StatusBadge tone={STATUS[token.status].tone} size="md">
                    {STATUS[token.status].label}
                  </StatusBadge>
                  {token.kind === 'platform' && (
                    <Badge variant="light" color="iris" tt="none">
                      Platform
                    </Badge>
                  )}
                </Group>
                {token.status === 'active' && (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    onClick={() => setRevoking(token)}
                    aria-label={`Revoke ${token.name}`}
                  >
                    Revoke
                  </Button>
                )}
              </Group>
              <Code w="fit-content">{tokenHint(token)}</Code>
              <Group gap={6} wrap="wrap" aria-label="Scopes">
                {token.scopes.map((scope) => (
                  <Badge key={scope} variant="default" tt="none" fw={500}>
                    {scope}
                  </Badge>
                ))}
              </Group>
              <SimpleGrid cols={{ base: 2, sm: hasOwner(token) ? 5 : 4 }} spacing="sm">
                {hasOwner(token) && <Fact label="Owner">{token.owner_email}</Fact>}
                <Fact label="Created">{at(date, token.created_at)}</Fact>
                <Fact label={token.status === 'expired' ? 'Expired' : 'Expires'}>
                  {at(date, token.expires_at)}
                </Fact>
                <Fact label="Last used">
                  {token.last_used_at ? at(dateTime, token.last_used_at) : 'Never'}
                </Fact>
                <Fact label="From address">{token.last_used_ip ?? '—'}</Fact>
              </SimpleGrid>
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ConfirmDialog
        opened={revoking !== null}
        title={`Revoke ${revoking?.name ?? 'token'}?`}
        confirmLabel="Revoke token"
        failureTitle="Could not revoke the token"
        fallback="Could not revoke the token"
        centered
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await revoke(revoking);
          setRevoking(null);
        }}
      >
        <Text size="sm">
          Every call made with {revoking ? <Code>{tokenHint(revoking)}</Code> : 'it'} is refused from now on.
          This cannot be undone: whatever uses it needs a new token.
        </Text>
      </ConfirmDialog>
    </>
  );
}
