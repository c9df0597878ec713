import { Trans, useLingui } from '@lingui/react/macro';
import { plural } from '@lingui/core/macro';
import { Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AccountSession } from '../../../../../shared/api/auth';
import { DeviceIcon } from '../../../components/brand/icons';
import { showToast } from '../../../components/data/toast';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDateTime, formatRelative } from '../../licenses';
import { useDeviceName } from './device-name';
import {
  sessionMessages,
  useListMySessionsQuery,
  useRevokeMySessionMutation,
  useSignOutOtherSessionsMutation,
} from './sessions-endpoints';

function SessionRow({
  session,
  onRevoke,
  revoking,
  disabled,
}: {
  session: AccountSession;
  onRevoke: (session: AccountSession) => void;
  revoking: boolean;
  disabled: boolean;
}) {
  const { t } = useLingui();
  const device = useDeviceName()(session.device);
  const ip = session.ip;
  const lastActive = (
    <time dateTime={session.last_active_at} title={formatDateTime(session.last_active_at)}>
      {formatRelative(session.last_active_at)}
    </time>
  );
  const signedIn = (
    <time dateTime={session.signed_in_at} title={formatDateTime(session.signed_in_at)}>
      {formatDateTime(session.signed_in_at)}
    </time>
  );
  return (
    <Paper component="li" withBorder p="sm" radius="md">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="nowrap" miw={0} align="flex-start">
          <DeviceIcon size={20} aria-hidden="true" />
          <Stack gap={2} miw={0}>
            <Group gap={6}>
              <Text fw={600} size="sm">
                {device}
              </Text>
              {session.current ? (
                <Badge variant="light" color="iris" tt="none" size="sm">
                  <Trans>This device</Trans>
                </Badge>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {ip ? (
                <Trans>
                  {ip} · Last active {lastActive} · Signed in {signedIn}
                </Trans>
              ) : (
                <Trans>
                  Last active {lastActive} · Signed in {signedIn}
                </Trans>
              )}
            </Text>
          </Stack>
        </Group>
        {session.current ? null : (
          <Button
            variant="default"
            size="xs"
            onClick={() => onRevoke(session)}
            loading={revoking}
            disabled={disabled}
            aria-label={ip ? t`Sign out ${device} (${ip})` : t`Sign out ${device}`}
          >
            <Trans>Sign out</Trans>
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/**
 * Where the account is signed in: each live session with its browser and system, address and last
 * activity; any other one can be signed out, or all of them but this one at once.
 */
export function ActiveSessionsSection() {
  const { t } = useLingui();
  const answer = useListMySessionsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [revoke] = useRevokeMySessionMutation();
  const [revokeOthers, othersState] = useSignOutOtherSessionsMutation();
  const [revoking, setRevoking] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const deviceName = useDeviceName();
  const sessions = answer.data;
  const others = sessions?.filter((session) => !session.current).length ?? 0;

  const endOne = async (session: AccountSession) => {
    setFailure(null);
    setRevoking(session.id);
    try {
      await revoke(session.id).unwrap();
      const device = deviceName(session.device);
      showToast({ title: t`Signed out`, message: t`${device} must sign in again.` });
    } catch (error) {
      setFailure(failureMessage(error, sessionMessages.revokeFailed));
    } finally {
      setRevoking(null);
    }
  };

  const endOthers = async () => {
    setFailure(null);
    try {
      const result = await revokeOthers().unwrap();
      const ended = result.ended;
      showToast({
        title: result.message,
        message:
          result.ended === 0
            ? t`Only this device is signed in.`
            : t`${plural(ended, { one: '# other session must sign in again.', other: '# other sessions must sign in again.' })}`,
      });
    } catch (error) {
      setFailure(failureMessage(error, sessionMessages.revokeOthersFailed));
    }
  };

  return (
    <SectionCard
      headingId="active-sessions-title"
      title={t`Where you are signed in`}
      description={t`Each browser and desktop app signed in to your account. Sign out any you do not recognize; its licenses stay activated.`}
      actions={
        <Button
          variant="light"
          color="red"
          onClick={() => void endOthers()}
          loading={othersState.isLoading}
          disabled={others === 0 || revoking !== null}
        >
          <Trans>Sign out everywhere else</Trans>
        </Button>
      }
    >
      {failure ? (
        <ErrorAlert title={failure}>
          <Trans>Nothing was changed. Try again in a moment.</Trans>
        </ErrorAlert>
      ) : null}
      {answer.error && !sessions ? (
        <ErrorAlert title={failureMessage(answer.error, sessionMessages.fetchFailed)}>
          <Button size="xs" variant="white" color="red" onClick={() => void answer.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </ErrorAlert>
      ) : !sessions ? (
        <Stack gap="xs" aria-busy="true" aria-label={t`Loading your sessions`}>
          <Skeleton height={56} radius="md" />
          <Skeleton height={56} radius="md" />
        </Stack>
      ) : (
        <Stack
          gap="xs"
          component="ul"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={t`Signed-in sessions`}
        >
          {sessions.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              onRevoke={(target) => void endOne(target)}
              revoking={revoking === session.id}
              disabled={(revoking !== null && revoking !== session.id) || othersState.isLoading}
            />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
