import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Organisation } from '../../../../../shared/api/organisations';
import { portalPaths } from '../../../../../shared/routes';
import { ArrowLeftIcon, CartIcon, PlusIcon } from '../../../components/brand/icons';
import { LoadingBlock } from '../../../components/data/loading-block';
import { Notice } from '../../../components/data/notice';
import { RetryNotice } from '../../../components/data/retry-notice';
import { failureMessage } from '../../../lib/api-errors';
import { BillingDetailsCard } from '../../invoices';
import { FloatingSeatsSection } from '../../licenses';
import { checkoutPath } from '../../plans';
import { BuySeatsDialog } from '../components/buy-seats-dialog';
import { DomainsSection } from '../components/domains-section';
import { ProvisioningSection } from '../components/provisioning-section';
import { SsoSection } from '../components/sso-section';
import { InvitationsSection } from '../components/invitations-section';
import { LeaveSection } from '../components/leave-section';
import { MembersSection } from '../components/members-section';
import { canManage, membersText, pendingText, ROLE_LABELS, seatsUsedText } from '../organisation-format';
import {
  organisationMessages,
  useGetInvitationsQuery,
  useGetMembersQuery,
  useGetOrganisationQuery,
  useUpdateOrganisationMutation,
} from '../organisations-endpoints';
import {
  organisationDomainMessages,
  useGetOrganisationDomainsQuery,
} from '../organisation-domains-endpoints';
import { organisationSsoMessages, useGetOrganisationSsoQuery } from '../organisation-sso-endpoints';
import { provisioningMessages, useGetProvisioningQuery } from '../provisioning-endpoints';

function Header({ organisation, onBuySeats }: { organisation: Organisation; onBuySeats(): void }) {
  const { i18n } = useLingui();
  const pending = pendingText(organisation.seats);
  const manage = canManage(organisation);

  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
      <Stack gap={4} maw={720}>
        <Anchor component={Link} to={portalPaths.organisations} size="sm">
          <Group gap={4} component="span" wrap="nowrap">
            <ArrowLeftIcon size={14} />
            <Trans>Organizations</Trans>
          </Group>
        </Anchor>
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={1} fz={{ base: 26, sm: 32 }} style={{ overflowWrap: 'anywhere' }}>
            {organisation.name}
          </Title>
          {organisation.role ? (
            <Badge variant="light" color="iris" tt="none">
              {i18n._(ROLE_LABELS[organisation.role])}
            </Badge>
          ) : null}
        </Group>
        <Text c="dimmed" data-testid="organisation-summary">
          <Text span fw={600} c="var(--mantine-color-text)" data-testid="organisation-seats">
            {seatsUsedText(organisation.seats)}
          </Text>
          {pending ? ` · ${pending}` : ''} · {membersText(organisation.members_count)}
        </Text>
      </Stack>
      {manage && organisation.license_id !== null ? (
        <Button leftSection={<PlusIcon size={18} />} onClick={onBuySeats}>
          <Trans>Buy more seats</Trans>
        </Button>
      ) : null}
    </Group>
  );
}

/** An organisation without a licence yet: what its owner or admins do next. */
function NoLicence({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui();
  const name = organisation.name;
  return (
    <Notice tone="info" title={t`No seats yet`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {canManage(organisation)
            ? t`Buy the Business plan for ${name}: you choose the number of seats, each one a person who activates the app by signing in. Invitations can be sent once it has seats.`
            : t`${name} has not bought its seats yet. Its owner or an admin buys the Business plan.`}
        </Text>
        {canManage(organisation) ? (
          <Button
            component={Link}
            to={checkoutPath({ organisationId: organisation.id })}
            size="sm"
            leftSection={<CartIcon size={16} />}
          >
            <Trans>Buy the Business plan</Trans>
          </Button>
        ) : null}
      </Stack>
    </Notice>
  );
}

function PageSkeleton() {
  const { t } = useLingui();
  return (
    <LoadingBlock label={t`Loading the organization`}>
      <Stack gap="lg">
        <Skeleton height={34} width="45%" />
        <Skeleton height={16} width="30%" />
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Skeleton height={22} width="25%" />
            <Skeleton height={40} />
            <Skeleton height={40} />
          </Stack>
        </Card>
      </Stack>
    </LoadingBlock>
  );
}

function OrganisationScreen({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui();
  const manage = canManage(organisation);
  const organisationName = organisation.name;
  const members = useGetMembersQuery(organisation.id);
  // Only the owner and admins see the invitations (the server refuses members).
  const invitations = useGetInvitationsQuery(organisation.id, { skip: !manage });
  const domains = useGetOrganisationDomainsQuery(organisation.id, { skip: !manage });
  const provisioning = useGetProvisioningQuery(organisation.id, { skip: !manage });
  const sso = useGetOrganisationSsoQuery(organisation.id, { skip: !manage });
  const [updateOrganisation] = useUpdateOrganisationMutation();
  const [buying, setBuying] = useState(false);

  return (
    <Stack gap="xl">
      <Header organisation={organisation} onBuySeats={() => setBuying(true)} />
      {organisation.license_id === null ? <NoLicence organisation={organisation} /> : null}
      {members.currentData ? (
        <MembersSection organisation={organisation} members={members.currentData} />
      ) : members.isError ? (
        <RetryNotice
          title={t`The members could not be loaded`}
          message={failureMessage(members.error, organisationMessages.fetchMembersFailed)}
          onRetry={() => void members.refetch()}
        />
      ) : (
        <LoadingBlock label={t`Loading the members`}>
          <Skeleton height={120} />
        </LoadingBlock>
      )}
      {manage && organisation.seats?.floating && organisation.license_id ? (
        // The pool's seats in use now, freed by hand, and the most held at once per day.
        <FloatingSeatsSection licenseId={organisation.license_id} headingId="organisation-floating-title" />
      ) : null}
      {manage ? (
        invitations.currentData ? (
          <InvitationsSection organisation={organisation} invitations={invitations.currentData} />
        ) : invitations.isError ? (
          <RetryNotice
            title={t`The invitations could not be loaded`}
            message={failureMessage(invitations.error, organisationMessages.fetchInvitationsFailed)}
            onRetry={() => void invitations.refetch()}
          />
        ) : (
          <LoadingBlock label={t`Loading the invitations`}>
            <Skeleton height={120} />
          </LoadingBlock>
        )
      ) : null}
      {manage ? (
        domains.currentData ? (
          <DomainsSection organisation={organisation} domains={domains.currentData.domains} />
        ) : domains.isError ? (
          <RetryNotice
            title={t`The domains could not be loaded`}
            message={failureMessage(domains.error, organisationDomainMessages.fetchFailed)}
            onRetry={() => void domains.refetch()}
          />
        ) : (
          <LoadingBlock label={t`Loading the domains`}>
            <Skeleton height={120} />
          </LoadingBlock>
        )
      ) : null}
      {manage ? (
        sso.currentData ? (
          <SsoSection
            organisation={organisation}
            answer={sso.currentData}
            hasVerifiedDomain={
              domains.currentData?.domains.some((domain) => domain.status === 'verified') ?? false
            }
          />
        ) : sso.isError ? (
          <RetryNotice
            title={t`The single sign-on settings could not be loaded`}
            message={failureMessage(sso.error, organisationSsoMessages.fetchFailed)}
            onRetry={() => void sso.refetch()}
          />
        ) : (
          <LoadingBlock label={t`Loading the single sign-on settings`}>
            <Skeleton height={120} />
          </LoadingBlock>
        )
      ) : null}
      {manage ? (
        provisioning.currentData ? (
          <ProvisioningSection organisation={organisation} settings={provisioning.currentData} />
        ) : provisioning.isError ? (
          <RetryNotice
            title={t`The provisioning settings could not be loaded`}
            message={failureMessage(provisioning.error, provisioningMessages.fetchFailed)}
            onRetry={() => void provisioning.refetch()}
          />
        ) : (
          <LoadingBlock label={t`Loading the provisioning settings`}>
            <Skeleton height={120} />
          </LoadingBlock>
        )
      ) : null}
      {manage ? (
        <BillingDetailsCard
          key={organisation.billing_details?.updated_at ?? 'none'}
          details={organisation.billing_details}
          headingId="organisation-billing-title"
          description={t`The name, address and tax id printed on ${organisationName}’s invoices. Invoices already issued keep the details they were issued with.`}
          save={async (billing_details) => {
            const saved = await updateOrganisation({
              organisationId: organisation.id,
              billing_details,
            }).unwrap();
            if (!saved.billing_details) throw new Error(organisationMessages.updateFailed);
            return saved.billing_details;
          }}
        />
      ) : null}
      {organisation.role !== null ? <LeaveSection organisation={organisation} /> : null}
      {manage && organisation.seats ? (
        <BuySeatsDialog organisation={organisation} opened={buying} onClose={() => setBuying(false)} />
      ) : null}
    </Stack>
  );
}

/**
 * /organisations/:organisationId: one organisation's seats, members, invitations, sign-in domains,
 * single sign-on, provisioning and billing details.
 */
export default function OrganisationPage() {
  const { t } = useLingui();
  const { organisationId = '' } = useParams();
  const organisation = useGetOrganisationQuery(organisationId, { refetchOnMountOrArgChange: true });

  return (
    <Stack gap="xl" maw={1080}>
      {organisation.currentData ? (
        <OrganisationScreen organisation={organisation.currentData} />
      ) : organisation.isError ? (
        <Stack gap="md">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            <Trans>Organization</Trans>
          </Title>
          <RetryNotice
            title={t`The organization could not be loaded`}
            message={failureMessage(organisation.error, organisationMessages.fetchFailed)}
            onRetry={() => void organisation.refetch()}
          />
          <Anchor component={Link} to={portalPaths.organisations} size="sm">
            <Trans>Back to your organizations</Trans>
          </Anchor>
        </Stack>
      ) : (
        <PageSkeleton />
      )}
    </Stack>
  );
}
