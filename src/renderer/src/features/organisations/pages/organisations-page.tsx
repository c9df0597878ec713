import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Organisation } from '../../../../../shared/api/organisations';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { PlusIcon, UsersIcon } from '../../../components/brand/icons';
import { EmptyStateCard } from '../../../components/data/empty-state-card';
import { LoadingBlock } from '../../../components/data/loading-block';
import { RetryNotice } from '../../../components/data/retry-notice';
import { PageHeader } from '../../../components/layout/page-header';
import { failureMessage } from '../../../lib/api-errors';
import { CreateOrganisationDialog } from '../components/create-organisation-dialog';
import { membersText, pendingText, ROLE_LABELS, seatsUsedText } from '../organisation-format';
import { organisationMessages, useGetOrganisationsQuery } from '../organisations-endpoints';

function OrganisationCard({ organisation }: { organisation: Organisation }) {
  const { i18n } = useLingui();
  const headingId = `organisation-${organisation.id}`;
  const pending = pendingText(organisation.seats);
  return (
    <Card withBorder padding="lg" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            <Anchor
              component={Link}
              to={pathWith(portalPaths.organisationDetail, { organisationId: organisation.id })}
              inherit
            >
              {organisation.name}
            </Anchor>
          </Title>
          {organisation.role ? (
            <Badge variant="light" color="iris" tt="none" style={{ flexShrink: 0 }}>
              {i18n._(ROLE_LABELS[organisation.role])}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" data-testid="organisation-seats">
          {seatsUsedText(organisation.seats)}
          {pending ? ` · ${pending}` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          {membersText(organisation.members_count)}
        </Text>
      </Stack>
    </Card>
  );
}

/** /organisations: the organisations the customer belongs to, and creating one. */
export default function OrganisationsPage() {
  const { t } = useLingui();
  const list = useGetOrganisationsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [creating, setCreating] = useState(false);
  const organisations = list.currentData;

  const create = (
    <Button leftSection={<PlusIcon size={18} />} onClick={() => setCreating(true)}>
      <Trans>Create organization</Trans>
    </Button>
  );

  return (
    <Stack gap="xl" maw={1080}>
      <PageHeader
        title={t`Organizations`}
        description={t`Teams you belong to: their members, seats and invitations. A team buys the Business plan for its people, one named seat each.`}
        actions={organisations && organisations.length > 0 ? create : undefined}
      />
      {list.isError && organisations === undefined ? (
        <RetryNotice
          title={t`Your organizations could not be loaded`}
          message={failureMessage(list.error, organisationMessages.fetchListFailed)}
          onRetry={() => void list.refetch()}
        />
      ) : organisations === undefined ? (
        <LoadingBlock label={t`Loading your organizations`}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {[0, 1].map((item) => (
              <Card key={item} withBorder padding="lg">
                <Stack gap="sm">
                  <Skeleton height={22} width="50%" />
                  <Skeleton height={14} width="40%" />
                  <Skeleton height={14} width="30%" />
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </LoadingBlock>
      ) : organisations.length === 0 ? (
        <EmptyStateCard
          title={t`No organization yet`}
          icon={<UsersIcon size={28} />}
          description={t`Create one to buy seats for your team and invite its people by e-mail. An invitation you receive brings you into someone else’s.`}
          actions={create}
        />
      ) : (
        <section aria-label={t`Your organizations`}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {organisations.map((organisation) => (
              <OrganisationCard key={organisation.id} organisation={organisation} />
            ))}
          </SimpleGrid>
        </section>
      )}
      <CreateOrganisationDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
