import { Trans, useLingui } from '@lingui/react/macro';
import { ph, plural } from '@lingui/core/macro';
import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import {
  type AssignableOrganisationRole,
  type Invitation,
  inviteMemberBodySchema,
  type Organisation,
} from '../../../../../shared/api/organisations';
import { BanIcon, MailIcon } from '../../../components/brand/icons';
import type { Column } from '../../../components/data-table/columns';
import { ResponsiveTable } from '../../../components/data-table/responsive-table';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { Notice } from '../../../components/data/notice';
import { StatusBadge } from '../../../components/data/status-badge';
import { showToast } from '../../../components/data/toast';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { EmailField } from '../../../components/forms/email-field';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate, freeSeats, INVITATION_STATUS, ROLE_LABELS } from '../organisation-format';
import {
  organisationMessages,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  useSendInvitationMutation,
} from '../organisations-endpoints';

const inviteFormSchema = z.object({
  email: inviteMemberBodySchema.shape.email,
  role: z.enum(['admin', 'member']),
});
const FIELDS = ['email', 'role'] as const;

function InviteForm({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui();
  const [sendInvitation] = useSendInvitationMutation();
  const [failure, setFailure] = useState<string>();
  const form = useForm<{ email: string; role: AssignableOrganisationRole }>({
    initialValues: { email: '', role: 'member' },
    validate: schemaResolver(inviteFormSchema),
  });
  const submit = form.onSubmit(
    async ({ email, role }) => {
      setFailure(undefined);
      try {
        const sent = await sendInvitation({
          organisationId: organisation.id,
          email: email.trim(),
          role,
        }).unwrap();
        const sentTo = sent.email;
        const until = formatDate(sent.expires_at);
        showToast({
          title: t`Invitation sent`,
          message:
            sent.role === 'admin'
              ? t`${sentTo} can join as admin until ${until}.`
              : t`${sentTo} can join as member until ${until}.`,
        });
        form.reset();
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(
          error,
          organisationMessages.inviteFailed,
          {},
          FIELDS,
        );
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );
  const free = freeSeats(organisation.seats);

  return (
    <form onSubmit={submit} noValidate aria-label={t`Invite someone`}>
      <Stack gap="sm">
        {failure ? <FormAlert title={t`The invitation was not sent`}>{failure}</FormAlert> : null}
        <Group align="flex-start" gap="sm" wrap="wrap">
          <EmailField
            autoComplete="off"
            placeholder={t`name@example.com`}
            style={{ flex: '1 1 16rem' }}
            {...form.getInputProps('email')}
          />
          <NativeSelect
            label={t`Role`}
            data={[
              { value: 'member', label: t`Member` },
              { value: 'admin', label: t`Admin` },
            ]}
            style={{ flex: '0 1 10rem' }}
            {...form.getInputProps('role')}
          />
          <Button
            type="submit"
            loading={form.submitting}
            mt={{ base: 0, xs: 25 }}
            leftSection={<MailIcon size={16} />}
          >
            <Trans>Send invitation</Trans>
          </Button>
        </Group>
        <Text size="xs" c="dimmed" data-testid="free-seats">
          {organisation.seats === null
            ? t`Invitations can be sent once the organization has seats.`
            : organisation.seats.floating
              ? t`Members need no seat of their own: any ${ph({ concurrent: organisation.seats.floating.concurrent })} of their machines run at once.`
              : t`Each invitation keeps a seat until it is answered: ${plural(free, { one: '# seat free to invite to.', other: '# seats free to invite to.' })}`}
        </Text>
      </Stack>
    </form>
  );
}

/**
 * Invitations, for the organisation's owner and admins: sending one by e-mail with a role, and
 * every invitation with its status; a pending or expired one is sent again (a fresh link), a
 * pending one revoked.
 */
export function InvitationsSection({
  organisation,
  invitations,
}: {
  organisation: Organisation;
  invitations: Invitation[];
}) {
  const { t, i18n } = useLingui();
  const [resendInvitation] = useResendInvitationMutation();
  const [revokeInvitation] = useRevokeInvitationMutation();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [resending, setResending] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const organisationId = organisation.id;

  const resend = async (invitation: Invitation) => {
    setProblem(null);
    setResending(invitation.id);
    try {
      const sentTo = (await resendInvitation({ organisationId, invitationId: invitation.id }).unwrap()).email;
      showToast({
        title: t`Invitation sent again`,
        message: t`A new link went to ${sentTo}; the one sent before no longer works.`,
      });
    } catch (error) {
      setProblem(failureMessage(error, organisationMessages.resendFailed));
    } finally {
      setResending(null);
    }
  };

  const columns: Column<Invitation>[] = [
    {
      key: 'email',
      header: t`E-mail`,
      render: (invitation) => (
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {invitation.email}
        </Text>
      ),
    },
    {
      key: 'role',
      header: t`Role`,
      render: (invitation) => <Text size="sm">{i18n._(ROLE_LABELS[invitation.role])}</Text>,
    },
    {
      key: 'status',
      header: t`Status`,
      render: (invitation) => (
        <StatusBadge tone={INVITATION_STATUS[invitation.status].tone} size="md">
          {i18n._(INVITATION_STATUS[invitation.status].label)}
        </StatusBadge>
      ),
    },
    {
      key: 'sent',
      header: t`Sent`,
      render: (invitation) => (
        <Stack gap={0}>
          <Text size="sm">{formatDate(invitation.sent_at)}</Text>
          {invitation.invited_by_email ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t`by ${ph({ inviter: invitation.invited_by_email })}`}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'expires',
      header: t`Expires`,
      render: (invitation) => (
        <Text size="sm">
          {invitation.status === 'accepted' && invitation.accepted_at
            ? t`Accepted ${ph({ accepted: formatDate(invitation.accepted_at) })}`
            : formatDate(invitation.expires_at)}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      align: 'right',
      render: (invitation) => {
        const open = invitation.status === 'pending' || invitation.status === 'expired';
        return (
          <RowActions>
            <RowAction
              label={t`Send again the invitation to ${ph({ email: invitation.email })}`}
              tooltip={t`Send again`}
              icon={MailIcon}
              disabled={!open || resending === invitation.id}
              onClick={() => void resend(invitation)}
            />
            <RowAction
              label={t`Revoke the invitation to ${ph({ email: invitation.email })}`}
              tooltip={t`Revoke`}
              icon={BanIcon}
              danger
              disabled={invitation.status !== 'pending'}
              onClick={() => setRevoking(invitation)}
            />
          </RowActions>
        );
      },
    },
  ];

  return (
    <SectionCard
      headingId="invitations-title"
      title={t`Invitations`}
      description={
        organisation.seats?.floating
          ? t`Invite people by e-mail: the link works once, until it expires. Whoever accepts joins with the role you chose.`
          : t`Invite people by e-mail: the link works once, until it expires. Whoever accepts joins with the role you chose and a seat.`
      }
    >
      <InviteForm organisation={organisation} />
      {problem ? (
        <Notice tone="danger" title={t`Not done`} urgent withCloseButton onClose={() => setProblem(null)}>
          {problem}
        </Notice>
      ) : null}
      {invitations.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No invitations yet.</Trans>
        </Text>
      ) : (
        <ResponsiveTable
          what={t`Invitations`}
          labelledBy="invitations-title"
          columns={columns}
          rows={invitations}
          rowKey={(invitation) => invitation.id}
          minWidth={720}
        />
      )}
      <ConfirmDialog
        opened={revoking !== null}
        title={t`Revoke the invitation to ${ph({ email: revoking?.email ?? '' })}?`}
        confirmLabel={t`Revoke invitation`}
        failureTitle={t`The invitation was not revoked`}
        fallback={organisationMessages.revokeFailed}
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await revokeInvitation({ organisationId, invitationId: revoking.id }).unwrap();
          showToast({
            title: t`Invitation revoked`,
            message: t`The link sent to ${ph({ email: revoking.email })} no longer works.`,
          });
          setRevoking(null);
        }}
      >
        <Text size="sm">
          <Trans>Its link stops working and the seat it kept is free again.</Trans>
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
