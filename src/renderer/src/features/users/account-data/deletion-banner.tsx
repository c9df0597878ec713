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
  const dueAt = useAppSelector(selectUserProfile)?.deletion_due_at;
  // Subscribed to the live profile, so a cancellation (which invalidates it) takes the banner away.
  useFetchMyProfileQuery();
  const { cancelDeletion, cancelling } = useCancelDeletion();
  if (!dueAt) return null;
  return (
    <Box component="section" aria-label="Account deletion" mb="lg">
      <Alert color="red" icon={<AlertIcon />} title="Your account is to be deleted">
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            It will be erased on {formatDate(dueAt)}, with its licenses and subscriptions. Changed your mind?
          </Text>
          <Button size="xs" variant="default" onClick={() => void cancelDeletion()} loading={cancelling}>
            Cancel deletion
          </Button>
        </Group>
      </Alert>
    </Box>
  );
}

export default DeletionBanner;
