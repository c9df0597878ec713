import { useLingui } from '@lingui/react/macro';
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
  if (!member.has_seat) return null;
  if (member.machines.length === 0)
    return (
      <Text size="xs" c="dimmed">
        No machine activated on this seat.
      </Text>
    );
  return (
    <Stack
      gap={4}
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={`Machines of ${memberName(member)}`}
    >
      {member.machines.map((machine) => (
        <Text component="li" key={machine.activation_id} size="xs">
          <Text span size="xs" fw={600}>
            {seatMachineName(machine)}
          </Text>
          {machine.platform ? ` · ${machine.platform}` : ''} · last seen{' '}
          <time dateTime={machine.last_seen_at} title={formatDateTime(machine.last_seen_at)}>
            {formatRelative(machine.last_seen_at)}
          </time>
        </Text>
      ))}
    </Stack>
  );
}

interface MembersProps {
  organisation: AdminOrganisationDetail;
  onAction: (action: OrganisationAction) => void;
}

/** Each member with their role, seat and machines, and what an administrator may change about them. */
function Members({ organisation, onAction }: MembersProps) {
  const [assignSeat, assigning] = useAdminAssignOrganisationSeatMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const seatsFree = organisation.seats ? organisation.seats.assigned < organisation.seats.bought : false;

  const assign = async (member: OrganisationMemberRow) => {
    setFailure(null);
    try {
      await assignSeat({ organisationId: organisation.id, userId: member.user_id }).unwrap();
      showToast({ title: 'Seat assigned', message: `${memberName(member)} holds a seat now.` });
    } catch (error) {
      setFailure(toSubmitFailure(error, adminOrganisationMessages.assignSeatFailed).message);
    }
  };

  return (
    <Stack gap="xs">
      {failure ? <FormAlert title="Could not assign the seat">{failure}</FormAlert> : null}
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {organisation.members.map((member) => {
          const name = memberName(member);
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
                      Joined {formatDate(member.joined_at)}
                    </Text>
                  </Stack>
                  <Group gap={6}>
                    <OrganisationRoleBadge role={member.role} />
                    <StatusBadge tone={member.has_seat ? 'positive' : 'neutral'} size="md">
                      {member.has_seat ? 'Seat' : 'No seat'}
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
                      aria-label={`Take back seat of ${name}`}
                    >
                      Take back seat
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => void assign(member)}
                      loading={assigning.isLoading && assigning.originalArgs?.userId === member.user_id}
                      disabled={!seatsFree}
                      title={seatsFree ? undefined : 'Every seat bought is taken'}
                      aria-label={`Assign seat to ${name}`}
                    >
                      Assign seat
                    </Button>
                  )}
                  {member.role !== 'owner' ? (
                    <Button
                      size="xs"
                      variant="default"
                      color="red"
                      onClick={() => onAction({ kind: 'remove', member })}
                      aria-label={`Remove ${name}`}
                    >
                      Remove
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
  { label: string; tone: 'info' | 'positive' | 'neutral' | 'caution' }
> = {
  pending: { label: 'Pending', tone: 'info' },
  accepted: { label: 'Accepted', tone: 'positive' },
  revoked: { label: 'Revoked', tone: 'neutral' },
  expired: { label: 'Expired', tone: 'caution' },
};

function Invitations({ organisation, onAction }: MembersProps) {
  if (organisation.invitations.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No invitations.
      </Text>
    );
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {organisation.invitations.map((invitation) => {
        const status = INVITATION_STATUS[invitation.status];
        return (
          <Paper component="li" key={invitation.id} withBorder p="sm" radius="md">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {invitation.email}
                </Text>
                <Text size="xs" c="dimmed">
                  {invitation.role === 'admin' ? 'As admin' : 'As member'}
                  {invitation.invited_by_email ? ` · by ${invitation.invited_by_email}` : ''} · sent{' '}
                  {formatDate(invitation.sent_at)}
                  {invitation.status === 'pending'
                    ? ` · expires ${formatDateTime(invitation.expires_at)}`
                    : ''}
                </Text>
              </Stack>
              <Group gap="xs">
                <StatusBadge tone={status.tone} size="md">
                  {status.label}
                </StatusBadge>
                {invitation.status === 'pending' ? (
                  <Button
                    size="xs"
                    variant="default"
                    color="red"
                    onClick={() => onAction({ kind: 'revoke', invitation })}
                    aria-label={`Revoke invitation of ${invitation.email}`}
                  >
                    Revoke
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
  const { i18n } = useLingui();
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
        No subscription: the organization has not bought seats yet.
      </Text>
    );
  return (
    <DataList labelWidth={130} size="sm" withDivider>
      <Field label="Plan">{subscription.plan_name}</Field>
      <Field label="Status">
        {status ? (
          <StatusBadge tone={status.tone} size="md">
            {i18n._(status.label)}
          </StatusBadge>
        ) : (
          subscription.status
        )}
      </Field>
      <Field label="Seats">{formatNumber(subscription.seats)}</Field>
      <Field label="Period ends">
        {subscription.current_period_end ? formatDate(subscription.current_period_end) : <NoValue />}
      </Field>
      <Field label="Details">
        <Anchor
          component={Link}
          to={`${portalPaths.adminSubscriptions}?${new URLSearchParams({ subscription: subscription.id })}`}
          size="sm"
        >
          Open in Subscriptions
        </Anchor>
      </Field>
    </DataList>
  );
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
      title="Organization details"
      closeLabel="Close organization details"
      error={error}
      errorHint="The organization could not be loaded. It may have been deleted, or the link is wrong."
      loading={!organisation && 'Loading the organization'}
    >
      {organisation && (
        <Stack gap="lg">
          <Stack gap={6}>
            <Text fz={24} fw={700} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
              {organisation.name}
            </Text>
            <Text size="sm" c="dimmed">
              {seats
                ? `${formatNumber(seats.assigned)} of ${formatNumber(seats.bought)} seats used · ${formatNumber(seats.pending_invitations)} invitation${seats.pending_invitations === 1 ? '' : 's'} pending · ${formatNumber(seats.machines_per_seat)} machines per seat`
                : 'No seats bought yet'}
            </Text>
          </Stack>
          <DataList labelWidth={130} size="sm" withDivider>
            <Field label="Owner">
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
            <Field label="Members">{formatNumber(organisation.members_count)}</Field>
            <Field label="Created">{formatDateTime(organisation.created_at)}</Field>
            <Field label="Billing name">{organisation.billing_details?.name ?? <NoValue />}</Field>
          </DataList>
          {detail ? (
            <>
              <Group>
                <Button variant="default" onClick={() => setTransferring(true)}>
                  Transfer ownership…
                </Button>
              </Group>
              <Section id="organisation-members-title" title="Members">
                <Members organisation={detail} onAction={setAction} />
              </Section>
              <Section id="organisation-invitations-title" title="Invitations">
                <Invitations organisation={detail} onAction={setAction} />
              </Section>
              <Section id="organisation-subscription-title" title="Subscription">
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
            <Text size="sm">Loading the members, invitations and subscription…</Text>
          )}
        </Stack>
      )}
    </DetailDrawer>
  );
}
