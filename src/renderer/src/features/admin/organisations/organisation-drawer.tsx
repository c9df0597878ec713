import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, DataList, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { StatusBadge } from '../../../components/data/status-badge';
import { DetailDrawer, DrawerField as Field, NoValue } from '../../../components/drawer/detail-drawer';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { showToast } from '../../../components/data/toast';
import { formatDate, formatDateTime, formatNumber, formatRelative } from '../../licenses';
import { failureOf } from '../query-answer';
import { SUBSCRIPTION_STATUS_LABELS } from '../subscriptions/subscription-labels';
import {
  type AdminOrganisationDetail,
  type AdminOrganisationSummary,
  adminOrganisationMessages,
  useAdminAssignOrganisationSeatMutation,
  useGetAdminOrganisationQuery,
} from './admin-organisations-endpoints';
import { type OrganisationAction, OrganisationActionDialog } from './organisation-action-dialog';
import {
  memberName,
  type OrganisationInvitationRow,
  type OrganisationMemberRow,
  OrganisationRoleBadge,
  seatMachineName,
} from './organisation-format';
import { TransferOwnershipDialog } from './transfer-ownership-dialog';

const usersLink = (email: string) => `${portalPaths.adminUsers}?${new URLSearchParams({ search: email })}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Machines({ member }: { member: OrganisationMemberRow }) {
  const { t } = useLingui();
  if (!member.has_seat) return null;
  if (member.machines.length === 0)
    return (
      <Text size="xs" c="dimmed">
        <Trans>No machine activated on this seat.</Trans>
      </Text>
    );
  const name = memberName(member);
  return (
    <Stack
      gap={4}
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={t`Machines of ${name}`}
    >
      {member.machines.map((machine) => {
        const seen = formatRelative(machine.last_seen_at);
        return (
          <Text component="li" key={machine.activation_id} size="xs">
            <Text span size="xs" fw={600}>
              {seatMachineName(machine)}
            </Text>
            {machine.platform ? ` · ${machine.platform}` : ''} ·{' '}
            <Trans>
              last seen{' '}
              <time dateTime={machine.last_seen_at} title={formatDateTime(machine.last_seen_at)}>
                {seen}
              </time>
            </Trans>
          </Text>
        );
      })}
    </Stack>
  );
}

interface MembersProps {
  organisation: AdminOrganisationDetail;
  onAction: (action: OrganisationAction) => void;
}

/** Each member with their role, seat and machines, and what an administrator may change about them. */
function Members({ organisation, onAction }: MembersProps) {
  const { t } = useLingui();
  const [assignSeat, assigning] = useAdminAssignOrganisationSeatMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const seatsFree = organisation.seats ? organisation.seats.assigned < organisation.seats.bought : false;

  const assign = async (member: OrganisationMemberRow) => {
    setFailure(null);
    try {
      await assignSeat({ organisationId: organisation.id, userId: member.user_id }).unwrap();
      const name = memberName(member);
      showToast({ title: t`Seat assigned`, message: t`${name} holds a seat now.` });
    } catch (error) {
      setFailure(toSubmitFailure(error, adminOrganisationMessages.assignSeatFailed).message);
    }
  };

  return (
    <Stack gap="xs">
      {failure ? <FormAlert title={t`Could not assign the seat`}>{failure}</FormAlert> : null}
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {organisation.members.map((member) => {
          const name = memberName(member);
          const joined = formatDate(member.joined_at);
          return (
            <Paper component="li" key={member.user_id} withBorder p="sm" radius="md">
              <Stack gap={6}>
                <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
                  <Stack gap={0} miw={0}>
                    <Anchor
                      component={Link}
                      to={usersLink(member.email)}
                      size="sm"
                      fw={600}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {name}
                    </Anchor>
                    {member.full_name ? (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {member.email}
                      </Text>
                    ) : null}
                    <Text size="xs" c="dimmed">
                      <Trans>Joined {joined}</Trans>
                    </Text>
                  </Stack>
                  <Group gap={6}>
                    <OrganisationRoleBadge role={member.role} />
                    <StatusBadge tone={member.has_seat ? 'positive' : 'neutral'} size="md">
                      {member.has_seat ? t`Seat` : t`No seat`}
                    </StatusBadge>
                  </Group>
                </Group>
                <Machines member={member} />
                <Group gap="xs">
                  {member.has_seat ? (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => onAction({ kind: 'unassign', member })}
                      aria-label={t`Take back seat of ${name}`}
                    >
                      <Trans>Take back seat</Trans>
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => void assign(member)}
                      loading={assigning.isLoading && assigning.originalArgs?.userId === member.user_id}
                      disabled={!seatsFree}
                      title={seatsFree ? undefined : t`Every seat bought is taken`}
                      aria-label={t`Assign seat to ${name}`}
                    >
                      <Trans>Assign seat</Trans>
                    </Button>
                  )}
                  {member.role !== 'owner' ? (
                    <Button
                      size="xs"
                      variant="default"
                      color="red"
                      onClick={() => onAction({ kind: 'remove', member })}
                      aria-label={t`Remove ${name}`}
                    >
                      <Trans>Remove</Trans>
                    </Button>
                  ) : null}
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}

const INVITATION_STATUS: Record<
  OrganisationInvitationRow['status'],
  { label: MessageDescriptor; tone: 'info' | 'positive' | 'neutral' | 'caution' }
> = {
  pending: { label: msg`Pending`, tone: 'info' },
  accepted: { label: msg`Accepted`, tone: 'positive' },
  revoked: { label: msg`Revoked`, tone: 'neutral' },
  expired: { label: msg`Expired`, tone: 'caution' },
};

function Invitations({ organisation, onAction }: MembersProps) {
  const { t, i18n } = useLingui();
  if (organisation.invitations.length === 0)
    return (
      <Text size="sm" c="dimmed">
        <Trans>No invitations.</Trans>
      </Text>
    );
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {organisation.invitations.map((invitation) => {
        const status = INVITATION_STATUS[invitation.status];
        // "As admin · by ada@example.com · sent Nov 3, 2026 · expires …"
        const inviter = invitation.invited_by_email;
        const sent = formatDate(invitation.sent_at);
        const expires = formatDateTime(invitation.expires_at);
        const email = invitation.email;
        const parts = [
          invitation.role === 'admin' ? t`As admin` : t`As member`,
          inviter ? t`by ${inviter}` : null,
          t`sent ${sent}`,
          invitation.status === 'pending' ? t`expires ${expires}` : null,
        ];
        return (
          <Paper component="li" key={invitation.id} withBorder p="sm" radius="md">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {invitation.email}
                </Text>
                <Text size="xs" c="dimmed">
                  {parts.filter(Boolean).join(' · ')}
                </Text>
              </Stack>
              <Group gap="xs">
                <StatusBadge tone={status.tone} size="md">
                  {i18n._(status.label)}
                </StatusBadge>
                {invitation.status === 'pending' ? (
                  <Button
                    size="xs"
                    variant="default"
                    color="red"
                    onClick={() => onAction({ kind: 'revoke', invitation })}
                    aria-label={t`Revoke invitation of ${email}`}
                  >
                    <Trans>Revoke</Trans>
                  </Button>
                ) : null}
              </Group>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}

function Subscription({ organisation }: { organisation: AdminOrganisationDetail }) {
  const { t, i18n } = useLingui();
  const { subscription } = organisation;
  // The detail's status is a plain string: a status the portal does not know yet shows as sent.
  const status = subscription
    ? (
        SUBSCRIPTION_STATUS_LABELS as Record<
          string,
          (typeof SUBSCRIPTION_STATUS_LABELS)['active'] | undefined
        >
      )[subscription.status]
    : undefined;
  if (!subscription)
    return (
      <Text size="sm" c="dimmed">
        <Trans>No subscription: the organization has not bought seats yet.</Trans>
      </Text>
    );
  return (
    <DataList labelWidth={130} size="sm" withDivider>
      <Field label={t`Plan`}>{subscription.plan_name}</Field>
      <Field label={t`Status`}>
        {status ? (
          <StatusBadge tone={status.tone} size="md">
            {i18n._(status.label)}
          </StatusBadge>
        ) : (
          subscription.status
        )}
      </Field>
      <Field label={t`Seats`}>{formatNumber(subscription.seats)}</Field>
      <Field label={t`Period ends`}>
        {subscription.current_period_end ? formatDate(subscription.current_period_end) : <NoValue />}
      </Field>
      <Field label={t`Details`}>
        <Anchor
          component={Link}
          to={`${portalPaths.adminSubscriptions}?${new URLSearchParams({ subscription: subscription.id })}`}
          size="sm"
        >
          <Trans>Open in Subscriptions</Trans>
        </Anchor>
      </Field>
    </DataList>
  );
}

/** "2 of 5 seats used · 1 invitation pending · 3 machines per seat". */
function seatsSummary(seats: NonNullable<AdminOrganisationSummary['seats']>): string {
  const assigned = formatNumber(seats.assigned);
  const bought = formatNumber(seats.bought);
  const pending = seats.pending_invitations;
  const machines = formatNumber(seats.machines_per_seat);
  return t`${assigned} of ${bought} seats used · ${plural(pending, { one: '# invitation pending', other: '# invitations pending' })} · ${machines} machines per seat`;
}

export interface OrganisationDrawerProps {
  /** The organisation id in the URL, or null when closed. */
  id: string | null;
  /** The list's row of it, shown at once while the full record loads. */
  known: AdminOrganisationSummary | undefined;
  onClose: () => void;
}

/**
 * One organisation as support sees it: owner, seats, members with their machines, invitations and
 * the subscription, with the owner's own actions (the customer routes accept a platform administrator).
 */
export function OrganisationDrawer({ id, known, onClose }: OrganisationDrawerProps) {
  const { t } = useLingui();
  const answer = useGetAdminOrganisationQuery(id ?? skipToken);
  const detail = answer.currentData?.id === id ? answer.currentData : undefined;
  const organisation: AdminOrganisationSummary | undefined = detail ?? known;
  const error = !organisation ? failureOf(answer) : null;
  const [action, setAction] = useState<OrganisationAction | null>(null);
  const [transferring, setTransferring] = useState(false);
  const seats = organisation?.seats;

  return (
    <DetailDrawer
      opened={id !== null}
      onClose={onClose}
      size="lg"
      fullScreen="(max-width: 40em)"
      title={t`Organization details`}
      closeLabel={t`Close organization details`}
      error={error}
      errorHint={t`The organization could not be loaded. It may have been deleted, or the link is wrong.`}
      loading={!organisation && t`Loading the organization`}
    >
      {organisation && (
        <Stack gap="lg">
          <Stack gap={6}>
            <Text fz={24} fw={700} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
              {organisation.name}
            </Text>
            <Text size="sm" c="dimmed">
              {seats ? seatsSummary(seats) : t`No seats bought yet`}
            </Text>
          </Stack>
          <DataList labelWidth={130} size="sm" withDivider>
            <Field label={t`Owner`}>
              {organisation.owner_email ? (
                <Anchor
                  component={Link}
                  to={usersLink(organisation.owner_email)}
                  size="sm"
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {organisation.owner_email}
                </Anchor>
              ) : (
                <NoValue />
              )}
            </Field>
            <Field label={t`Members`}>{formatNumber(organisation.members_count)}</Field>
            <Field label={t`Created`}>{formatDateTime(organisation.created_at)}</Field>
            <Field label={t`Billing name`}>{organisation.billing_details?.name ?? <NoValue />}</Field>
          </DataList>
          {detail ? (
            <>
              <Group>
                <Button variant="default" onClick={() => setTransferring(true)}>
                  <Trans>Transfer ownership…</Trans>
                </Button>
              </Group>
              <Section id="organisation-members-title" title={t`Members`}>
                <Members organisation={detail} onAction={setAction} />
              </Section>
              <Section id="organisation-invitations-title" title={t`Invitations`}>
                <Invitations organisation={detail} onAction={setAction} />
              </Section>
              <Section id="organisation-subscription-title" title={t`Subscription`}>
                <Subscription organisation={detail} />
              </Section>
              <OrganisationActionDialog
                organisationId={detail.id}
                organisationName={detail.name}
                action={action}
                onClose={() => setAction(null)}
              />
              <TransferOwnershipDialog
                opened={transferring}
                organisationId={detail.id}
                organisationName={detail.name}
                members={detail.members}
                onClose={() => setTransferring(false)}
              />
            </>
          ) : (
            <Text size="sm">
              <Trans>Loading the members, invitations and subscription…</Trans>
            </Text>
          )}
        </Stack>
      )}
    </DetailDrawer>
  );
}
