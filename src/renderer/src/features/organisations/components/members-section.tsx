import { Trans, useLingui } from '@lingui/react/macro';
import { ph, plural } from '@lingui/core/macro';
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
  const { t } = useLingui();
  if (member.machines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        <Trans>None</Trans>
      </Text>
    );
  return (
    <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {member.machines.map((machine) => (
        <li key={machine.activation_id}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {machine.label || machine.device_name || t`Unnamed machine`}
            {machine.platform ? (
              <Text span size="xs" c="dimmed">
                {' '}
                · {machine.platform}
              </Text>
            ) : null}
          </Text>
          <Tooltip label={formatDateTime(machine.last_seen_at)} withArrow>
            <Text size="xs" c="dimmed" component="span" tabIndex={0}>
              {t`Last seen ${ph({ seen: formatRelative(machine.last_seen_at) })}`}
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
  const { t, i18n } = useLingui();
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
      const name = memberName(member);
      showToast({
        title: t`Role changed`,
        message: role === 'admin' ? t`${name} is now admin.` : t`${name} is now member.`,
      });
      setShownFor(null);
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, organisationMessages.changeRoleFailed));
    }
  };

  const name = member ? memberName(member) : null;
  return (
    <FormDialog
      opened={member !== null}
      onClose={() => {
        setShownFor(null);
        onClose();
      }}
      title={name === null ? t`Change role` : t`Change the role of ${name}`}
      onSubmit={(event) => void submit(event)}
      failure={failure}
      failureTitle={t`The role was not changed`}
      submitLabel={t`Change role`}
      submitting={isLoading}
      submitDisabled={member?.role === role}
      holdWhileSubmitting
    >
      <Radio.Group
        label={t`Role`}
        value={role}
        onChange={(value) => setRole(value as AssignableOrganisationRole)}
        name="member-role"
      >
        <Stack gap="xs" mt="xs">
          {(['admin', 'member'] as const).map((option) => (
            <Radio
              key={option}
              value={option}
              label={i18n._(ROLE_LABELS[option])}
              description={i18n._(ROLE_DESCRIPTIONS[option])}
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
  const { t, i18n } = useLingui();
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
      const name = memberName(member);
      showToast({ title: t`Seat assigned`, message: t`${name} now holds a seat.` });
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
          label={t`Change role of ${name}`}
          tooltip={t`Change role`}
          icon={PencilIcon}
          unavailable={isOwner ? t`The owner’s role changes only by a transfer of ownership` : undefined}
          onClick={() => setPending({ action: 'role', member })}
        />
        {organisation.seats?.floating ? null : member.has_seat ? (
          <RowAction
            label={t`Take back seat of ${name}`}
            tooltip={t`Take back seat`}
            icon={BanIcon}
            onClick={() => setPending({ action: 'takeSeat', member })}
          />
        ) : (
          <RowAction
            label={t`Assign seat to ${name}`}
            tooltip={t`Assign seat`}
            icon={KeyIcon}
            disabled={assigning === member.user_id}
            unavailable={organisation.seats === null ? t`The organization has no seats yet` : undefined}
            onClick={() => void assignSeat(member)}
          />
        )}
        <RowAction
          label={t`Set usage caps of ${name}`}
          tooltip={t`Usage caps`}
          icon={ChartIcon}
          unavailable={
            usage.get(member.user_id)?.features.length
              ? undefined
              : t`The plan has no metered features to cap`
          }
          onClick={() => setPending({ action: 'caps', member })}
        />
        {transfer ? (
          <RowAction
            label={t`Transfer ownership to ${name}`}
            tooltip={t`Transfer ownership`}
            icon={ArrowRightIcon}
            unavailable={isOwner ? t`Already the owner` : undefined}
            onClick={() => setPending({ action: 'transfer', member })}
          />
        ) : null}
        <RowAction
          label={t`Remove ${name}`}
          tooltip={t`Remove`}
          icon={TrashIcon}
          danger
          unavailable={
            isOwner
              ? t`The owner cannot be removed: transfer the ownership first`
              : isMe
                ? t`To go yourself, leave the organization`
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
      header: t`Member`,
      render: (member) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {memberName(member)}
            {member.user_id === me?.id ? (
              <Text span size="xs" c="dimmed" fw={400}>
                {' '}
                <Trans>(you)</Trans>
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
      header: t`Role`,
      render: (member) => (
        <Badge variant="light" color={member.role === 'member' ? 'gray' : 'iris'} tt="none">
          {i18n._(ROLE_LABELS[member.role])}
        </Badge>
      ),
    },
    {
      key: 'seat',
      header: t`Seat`,
      render: (member) =>
        organisation.seats?.floating ? (
          <StatusBadge tone="info" size="md">
            <Trans>Floating</Trans>
          </StatusBadge>
        ) : member.has_seat ? (
          <StatusBadge tone="positive" size="md">
            <Trans>Yes</Trans>
          </StatusBadge>
        ) : (
          <StatusBadge tone="neutral" size="md">
            <Trans>No</Trans>
          </StatusBadge>
        ),
    },
    { key: 'machines', header: t`Machines`, render: (member) => <MachinesCell member={member} /> },
    ...(manage
      ? [
          {
            key: 'usage',
            header: t`Usage this period`,
            render: (member: OrganisationMember) => <MemberUsageCell usage={usage.get(member.user_id)} />,
          },
        ]
      : []),
    ...(manage ? [{ key: 'actions', header: t`Actions`, align: 'right' as const, render: actionsOf }] : []),
  ];

  const target = pending?.member ?? null;
  const targetName = target ? memberName(target) : '';
  const organisationName = organisation.name;
  const machines = target?.machines.length ?? 0;
  return (
    <SectionCard
      headingId="members-title"
      title={t`Members`}
      description={
        manage && organisation.seats?.floating
          ? t`Everyone in the organization. Members need no seat of their own: signed in, their machines take a floating seat while one is free.`
          : manage
            ? t`Everyone in the organization. A member with a seat activates the app by signing in, on up to the plan’s number of machines.`
            : t`Everyone in the organization, with their role and seat. Its owner and admins manage it.`
      }
    >
      {problem ? (
        <Notice tone="danger" title={t`Not done`} urgent withCloseButton onClose={() => setProblem(null)}>
          {problem}
        </Notice>
      ) : null}
      <ResponsiveTable
        what={t`Members`}
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
        title={t`Take back the seat of ${targetName}?`}
        confirmLabel={t`Take back seat`}
        failureTitle={t`The seat was not taken back`}
        fallback={organisationMessages.seatFailed}
        onClose={close}
        onConfirm={async () => {
          if (!target) return;
          await setSeat({ organisationId, userId: target.user_id, assigned: false }).unwrap();
          showToast({ title: t`Seat taken back`, message: t`The seat of ${targetName} is free.` });
          close();
        }}
      >
        <Text size="sm">
          {machines > 0
            ? t`${targetName} stays a member, but the app stops working on their machines at its next check (${plural(machines, { one: '# machine now', other: '# machines now' })}). The seat is free for someone else.`
            : t`${targetName} stays a member, but the app stops working on their machines at its next check. The seat is free for someone else.`}
        </Text>
      </ConfirmDialog>
      <ConfirmDialog
        opened={pending?.action === 'remove'}
        title={t`Remove ${targetName}?`}
        confirmLabel={t`Remove member`}
        failureTitle={t`The member was not removed`}
        fallback={organisationMessages.removeFailed}
        onClose={close}
        onConfirm={async () => {
          if (!target) return;
          await removeMember({ organisationId, userId: target.user_id }).unwrap();
          showToast({
            title: t`Member removed`,
            message: t`${targetName} is no longer in ${organisationName}.`,
          });
          close();
        }}
      >
        <Text size="sm">
          {target?.has_seat
            ? t`${targetName} leaves ${organisationName}, their seat is freed and the app stops working on their machines at its next check. Invite them again to bring them back.`
            : t`${targetName} leaves ${organisationName}. Invite them again to bring them back.`}
        </Text>
      </ConfirmDialog>
      <ConfirmDialog
        opened={pending?.action === 'transfer'}
        title={t`Make ${targetName} the owner?`}
        confirmLabel={t`Transfer ownership`}
        failureTitle={t`The ownership was not transferred`}
        fallback={organisationMessages.transferFailed}
        onClose={close}
        onConfirm={async () => {
          if (!target) return;
          await transferOwnership({ organisationId, userId: target.user_id }).unwrap();
          showToast({
            title: t`Ownership transferred`,
            message: t`${targetName} now owns ${organisationName}.`,
          });
          close();
        }}
      >
        <Text size="sm">
          <Trans>
            {targetName} becomes the owner of {organisationName} and of its subscription, and you stay in it.
            Only the new owner can hand it on again.
          </Trans>
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
