import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Group, Text } from '@mantine/core';
import { AlertIcon } from '../../../components/brand/icons';
import { formatDate } from '../../../lib/format-date';
import { useAppSelector } from '../../../lib/store-hooks';
import { useFetchMyProfileQuery } from '../users-endpoints';
import { selectUserProfile } from '../user-slice';
import { useCancelDeletion } from './delete-account-card';

/**
 * Over every signed-in page while the account waits to be deleted: the first thing seen after
 * signing in during the grace period, with the way to keep the account.
 */
export function DeletionBanner() {
  const { t } = useLingui();
  const dueAt = useAppSelector(selectUserProfile)?.deletion_due_at;
  // Subscribed to the live profile, so a cancellation (which invalidates it) takes the banner away.
  useFetchMyProfileQuery();
  const { cancelDeletion, cancelling } = useCancelDeletion();
  if (!dueAt) return null;
  const day = formatDate(dueAt);
  return (
    <Box component="section" aria-label={t`Account deletion`} mb="lg">
      <Alert color="red" icon={<AlertIcon />} title={t`Your account is to be deleted`}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            <Trans>It will be erased on {day}, with its licenses and subscriptions. Changed your mind?</Trans>
          </Text>
          <Button size="xs" variant="default" onClick={() => void cancelDeletion()} loading={cancelling}>
            <Trans>Cancel deletion</Trans>
          </Button>
        </Group>
      </Alert>
    </Box>
  );
}

export default DeletionBanner;
