import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { HeaderedPage } from '../../../components/layout/page-header';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { useAppSelector } from '../../../lib/store-hooks';
import { loadDesktopUpdatesCard } from '../../distribution';
import { DataExportCard } from '../account-data/data-export-card';
import { DeleteAccountCard } from '../account-data/delete-account-card';
import { ChangePasswordCard } from '../components/change-password-card';
import { PreferencesCard } from '../components/preferences-card';
import { ProfileDetailsCard } from '../components/profile-details-card';
import { SessionsCard } from '../components/sessions-card';
import { useFetchMyProfileQuery } from '../users-endpoints';
import { selectPreferences, selectUserError, selectUserProfile } from '../user-slice';

const PASSWORD_SECTION_ID = 'change-password';

// Shown in the desktop app only (the card renders nothing on the web).
const DesktopUpdatesCard = lazy(() =>
  loadDesktopUpdatesCard().then((module) => ({ default: module.DesktopUpdatesCard })),
);

/** The way to /profile/security: two-factor sign-in, passkeys and API tokens have a page of their own. */
function SecurityLinkCard() {
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>
          <Trans>Two-factor sign-in, passkeys and API tokens</Trans>
        </Text>
        <Text size="sm" c="dimmed">
          <Trans>Protect your account with a second step at sign-in, and manage what may act for you.</Trans>
        </Text>
        <Button component={Link} to={portalPaths.profileSecurity} variant="light">
          <Trans>Security settings</Trans>
        </Button>
      </Stack>
    </Card>
  );
}

function CardSkeleton({ lines }: { lines: number }) {
  return (
    <Card withBorder padding="lg" aria-hidden="true">
      <Stack gap="md">
        <Skeleton height={22} width="40%" />
        {Array.from({ length: lines }, (_, index) => (
          <Skeleton key={index} height={36} />
        ))}
      </Stack>
    </Card>
  );
}

export default function ProfilePage() {
  const { t } = useLingui();
  const profile = useAppSelector(selectUserProfile);
  const preferences = useAppSelector(selectPreferences);
  const error = useAppSelector(selectUserError);

  // The session brought a copy of the profile; read the live one (another device may have changed it).
  // The user slice takes the answer, and keeps the message of a failed read.
  const { refetch } = useFetchMyProfileQuery(undefined, { refetchOnMountOrArgChange: true });

  return (
    <HeaderedPage
      size="lg"
      title={t`Profile`}
      description={t`Your details, how the portal looks and what we e-mail you, and the security of your account.`}
    >
      {!profile && error ? (
        <ErrorAlert title={t`Your profile could not be loaded`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error}</Text>
            <Button size="xs" variant="white" color="red" onClick={() => void refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Stack>
        </ErrorAlert>
      ) : null}
      {profile ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
          <Stack gap="lg">
            {/* A different live profile (another device changed it) starts the form again. */}
            <ProfileDetailsCard
              key={`${profile.id}:${profile.updated_at}:${profile.full_name ?? ''}:${profile.company ?? ''}`}
              profile={profile}
            />
            <PreferencesCard preferences={preferences} />
            <Suspense fallback={null}>
              <DesktopUpdatesCard />
            </Suspense>
          </Stack>
          <Stack gap="lg">
            <ChangePasswordCard email={profile.email} id={PASSWORD_SECTION_ID} />
            <SecurityLinkCard />
            <SessionsCard />
            <DataExportCard />
            <DeleteAccountCard deletionDueAt={profile.deletion_due_at} />
          </Stack>
        </SimpleGrid>
      ) : !error ? (
        <SimpleGrid
          cols={{ base: 1, md: 2 }}
          spacing="lg"
          aria-busy="true"
          aria-label={t`Loading your profile`}
        >
          <CardSkeleton lines={3} />
          <CardSkeleton lines={3} />
        </SimpleGrid>
      ) : null}
    </HeaderedPage>
  );
}
