import { Badge, Radio, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type {
  AssignableOrganisationRole,
  Organisation,
  OrganisationMember,
} from '../../../../../shared/api/organisations';
import {
  ArrowRightIcon,
  BanIcon,
  ChartIcon,
  KeyIcon,
  PencilIcon,
  TrashIcon,
} from '../../../components/brand/icons';
import type { Column } from '../../../components/data-table/columns';
import { ResponsiveTable } from '../../../components/data-table/responsive-table';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { Notice } from '../../../components/data/notice';
import { StatusBadge } from '../../../components/data/status-badge';
import { showToast } from '../../../components/data/toast';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { FormDialog } from '../../../components/forms/form-dialog';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectCurrentUser } from '../../auth';
import {
  canManage,
  canTransfer,
  formatDateTime,
  formatRelative,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
} from '../organisation-format';
import {
  organisationMessages,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useSetMemberSeatMutation,
  useTransferOwnershipMutation,
} from '../organisations-endpoints';
import { MemberUsageCell, UsageCapsDialog, useMembersUsage } from './member-usage-caps';

/** How a member is named: their name, else their e-mail. */
export const memberName = (member: Pick<OrganisationMember, 'full_name' | 'email'>) =>
  member.full_name || member.email;

type Pending =
  | { action: 'role'; member: OrganisationMember }
  | { action: 'takeSeat'; member: OrganisationMember }
  | { action: 'remove'; member: OrganisationMember }
  | { action: 'transfer'; member: OrganisationMember }
  | { action: 'caps'; member: OrganisationMember };

function MachinesCell({ member }: { member: OrganisationMember }) {
  if (member.machines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  return (
    <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {member.machines.map((machine) => (
        <li key={machine.activation_id}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {machine.label || machine.device_name || 'Unnamed machine'}
            {machine.platform ? (
              <Text span size="xs" c="dimmed">
                {' '}
                · {machine.platform}
              </Text>
            ) : null}
          </Text>
          <Tooltip label={formatDateTime(machine.last_seen_at)} withArrow>
            <Text size="xs" c="dimmed" component="span" tabIndex={0}>
              Last seen {formatRelative(machine.last_seen_at)}
            </Text>
          </Tooltip>
        </li>
      ))}
    </Stack>
  );
}

function ChangeRoleDialog({
  organisation,
  member,
  onClose,
}: {
  organisation: Organisation;
  member: OrganisationMember | null;
  onClose(): void;
}) {
  const [changeRole, { isLoading }] = useChangeMemberRoleMutation();
  const [role, setRole] = useState<AssignableOrganisationRole>('member');
  const [failure, setFailure] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  // Opened for another member: start from their role, with no refusal shown.
  if (member && shownFor !== member.user_id) {
    setShownFor(member.user_id);
    setRole(member.role === 'admin' ? 'admin' : 'member');
    setFailure(null);
  }

  const submit = async (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    if (!member) return;
    setFailure(null);
    try {
      await changeRole({ organisationId: organisation.id, userId: member.user_id, role }).unwrap();
      showToast({
        title: 'Role changed',
        message: `${memberName(member)} is now ${ROLE_LABELS[role].toLowerCase()}.`,
      });
      setShownFor(null);
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, organisationMessages.changeRoleFailed));
    }
  };

  return (
    <FormDialog
      opened={member !== null}
      onClose={() => {
        setShownFor(null);
        onClose();
      }}
      title={member ? `Change the role of ${memberName(member)}` : 'Change role'}
      onSubmit={(event) => void submit(event)}
      failure={failure}
      failureTitle="The role was not changed"
      submitLabel="Change role"
      submitting={isLoading}
      submitDisabled={member?.role === role}
      holdWhileSubmitting
    >
      <Radio.Group
        label="Role"
        value={role}
        onChange={(value) => setRole(value as AssignableOrganisationRole)}
        name="member-role"
      >
        <Stack gap="xs" mt="xs">
          {(['admin', 'member'] as const).map((option) => (
            <Radio
              key={option}
              value={option}
              label={ROLE_LABELS[option]}
              description={ROLE_DESCRIPTIONS[option]}
            />
          ))}
        </Stack>
      </Radio.Group>
    </FormDialog>
  );
}

/**
 * The organisation's members: who they are, their role, whether they hold a seat, and their
 * machines with when each was last seen. Owners and admins change roles, assign and take back
 * seats and remove members; only the owner transfers the ownership. Members see the list only.
 */
export function MembersSection({
  organisation,
  members,
}: {
  organisation: Organisation;
  members: OrganisationMember[];
}) {
  const me = useAppSelector(selectCurrentUser);
  const manage = canManage(organisation);
  const transfer = canTransfer(organisation);
  const [setSeat] = useSetMemberSeatMutation();
  const [removeMember] = useRemoveMemberMutation();
  const [transferOwnership] = useTransferOwnershipMutation();
  const [pending, setPending] = useState<Pending | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [assigning, setAssigning] = useState<string | null>(null);
  const organisationId = organisation.id;
  const close = () => setPending(null);
  const usage = useMembersUsage(organisation, manage);

  const assignSeat = async (member: OrganisationMember) => {
    setProblem(null);
    setAssigning(member.user_id);
    try {
      await setSeat({ organisationId, userId: member.user_id, assigned: true }).unwrap();
      showToast({ title: 'Seat assigned', message: `${memberName(member)} now holds a seat.` });
    } catch (error) {
      setProblem(failureMessage(error, organisationMessages.seatFailed));
    } finally {
      setAssigning(null);
    }
  };

  const actionsOf = (member: OrganisationMember) => {
    const name = memberName(member);
    const isOwner = member.role === 'owner';
    const isMe = member.user_id === me?.id;
    return (
      <RowActions>
        <RowAction
          label={`Change role of ${name}`}
          tooltip="Change role"
          icon={PencilIcon}
          unavailable={isOwner ? 'The owner’s role changes only by a transfer of ownership' : undefined}
          onClick={() => setPending({ action: 'role', member })}
        />
        {organisation.seats?.floating ? null : member.has_seat ? (
          <RowAction
            label={`Take back seat of ${name}`}
            tooltip="Take back seat"
            icon={BanIcon}
            onClick={() => setPending({ action: 'takeSeat', member })}
          />
        ) : (
          <RowAction
            label={`Assign seat to ${name}`}
            tooltip="Assign seat"
            icon={KeyIcon}
            disabled={assigning === member.user_id}
            unavailable={organisation.seats === null ? 'The organization has no seats yet' : undefined}
            onClick={() => void assignSeat(member)}
          />
        )}
        <RowAction
          label={`Set usage caps of ${name}`}
          tooltip="Usage caps"
          icon={ChartIcon}
          unavailable={
            usage.get(member.user_id)?.features.length ? undefined : 'The plan has no metered features to cap'
          }
          onClick={() => setPending({ action: 'caps', member })}
        />
        {transfer ? (
          <RowAction
            label={`Transfer ownership to ${name}`}
            tooltip="Transfer ownership"
            icon={ArrowRightIcon}
            unavailable={isOwner ? 'Already the owner' : undefined}
            onClick={() => setPending({ action: 'transfer', member })}
          />
        ) : null}
        <RowAction
          label={`Remove ${name}`}
          tooltip="Remove"
          icon={TrashIcon}
          danger
          unavailable={
            isOwner
              ? 'The owner cannot be removed: transfer the ownership first'
              : isMe
                ? 'To go yourself, leave the organization'
                : undefined
          }
          onClick={() => setPending({ action: 'remove', member })}
        />
      </RowActions>
    );
  };

  const columns: Column<OrganisationMember>[] = [
    {
      key: 'member',
      header: 'Member',
      render: (member) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {memberName(member)}
            {member.user_id === me?.id ? (
              <Text span size="xs" c="dimmed" fw={400}>
                {' '}
                (you)
              </Text>
            ) : null}
          </Text>
          {member.full_name ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {member.email}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      render: (member) => (
        <Badge variant="light" color={member.role === 'member' ? 'gray' : 'iris'} tt="none">
          {ROLE_LABELS[member.role]}
        </Badge>
      ),
    },
    {
      key: 'seat',
      header: 'Seat',
      render: (member) =>
        organisation.seats?.floating ? (
          <StatusBadge tone="info" size="md">
            Floating
          </StatusBadge>
        ) : member.has_seat ? (
          <StatusBadge tone="positive" size="md">
            Yes
          </StatusBadge>
        ) : (
          <StatusBadge tone="neutral" size="md">
            No
          </StatusBadge>
        ),
    },
    { key: 'machines', header: 'Machines', render: (member) => <MachinesCell member={member} /> },
    ...(manage
      ? [
          {
            key: 'usage',
            header: 'Usage this period',
            render: (member: OrganisationMember) => <MemberUsageCell usage={usage.get(member.user_id)} />,
          },
        ]
      : []),
    ...(manage ? [{ key: 'actions', header: 'Actions', align: 'right' as const, render: actionsOf }] : []),
  ];

  const target = pending?.member ?? null;
  const targetName = target ? memberName(target) : '';
  return (
    <SectionCard
      headingId="members-title"
      title="Members"
      description={
        manage && organisation.seats?.floating
          ? 'Everyone in the organization. Members need no seat of their own: signed in, their machines take a floating seat while one is free.'
          : manage
            ? 'Everyone in the organization. A member with a seat activates the app by signing in, on up to the plan’s number of machines.'
            : 'Everyone in the organization, with their role and seat. Its owner and admins manage it.'
      }
    >
      {problem ? (
        <Notice tone="danger" title="Not done" urgent withCloseButton onClose={() => setProblem(null)}>
          {problem}
        </Notice>
      ) : null}
      <ResponsiveTable
        what="Members"
        labelledBy="members-title"
        columns={columns}
        rows={members}
        rowKey={(member) => member.user_id}
        minWidth={manage ? 920 : 560}
      />
      <UsageCapsDialog
        organisation={organisation}
        member={pending?.action === 'caps' ? (usage.get(pending.member.user_id) ?? null) : null}
        name={targetName}
        onClose={close}
      />
      <ChangeRoleDialog
        organisation={organisation}
        member={pending?.action === 'role' ? pending.member : null}
        onClose={close}
      />
      <ConfirmDialog
        opened={pending?.action === 'takeSeat'}
        title={`Take back the seat of ${targetName}?`}
        confirmLabel="Take back seat"
        failureTitle="The seat was not taken back"
        fallback={organisationMessages.seatFailed}
        onClose={close}
        onConfirm={async () => {
          if (!target) return;
          await setSeat({ organisationId, userId: target.user_id, assigned: false }).unwrap();
          showToast({ title: 'Seat taken back', message: `The seat of ${targetName} is free.` });
          close();
        }}
      >
        <Text size="sm">
          {targetName} stays a member, but the app stops working on their machines at its next check
          {target && target.machines.length > 0
            ? ` (${target.machines.length} machine${target.machines.length === 1 ? '' : 's'} now)`
            : ''}
          . The seat is free for someone else.
        </Text>
      </ConfirmDialog>
      <ConfirmDialog
        opened={pending?.action === 'remove'}
        title={`Remove ${targetName}?`}
        confirmLabel="Remove member"
        failureTitle="The member was not removed"
        fallback={organisationMessages.removeFailed}
        onClose={close}
        onConfirm={async () => {
          if (!target) return;
          await removeMember({ organisationId, userId: target.user_id }).unwrap();
          showToast({
            title: 'Member removed',
            message: `${targetName} is no longer in ${organisation.name}.`,
          });
          close();
        }}
      >
        <Text size="sm">
          {targetName} leaves {organisation.name}
          {target?.has_seat
            ? ', their seat is freed and the app stops working on their machines at its next check'
            : ''}
          . Invite them again to bring them back.
        </Text>
      </ConfirmDialog>
      <ConfirmDialog
        opened={pending?.action === 'transfer'}
        title={`Make ${targetName} the owner?`}
        confirmLabel="Transfer ownership"
        failureTitle="The ownership was not transferred"
        fallback={organisationMessages.transferFailed}
        onClose={close}
        onConfirm={async () => {
          if (!target) return;
          await transferOwnership({ organisationId, userId: target.user_id }).unwrap();
          showToast({
            title: 'Ownership transferred',
            message: `${targetName} now owns ${organisation.name}.`,
          });
          close();
        }}
      >
        <Text size="sm">
          {targetName} becomes the owner of {organisation.name} and of its subscription, and you stay in it.
          Only the new owner can hand it on again.
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
