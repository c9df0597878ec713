import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Organisation } from '../../../../../shared/api/organisations';
import { portalPaths } from '../../../../../shared/routes';
import { LogoutIcon } from '../../../components/brand/icons';
import { showToast } from '../../../components/data/toast';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { SectionCard } from '../../../components/layout/section-card';
import { organisationMessages, useLeaveOrganisationMutation } from '../organisations-endpoints';

/**
 * Leaving, for admins and members; the owner is told why they cannot (there is always an owner:
 * they hand the organisation on first).
 */
export function LeaveSection({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui();
  const [leave] = useLeaveOrganisationMutation();
  const name = organisation.name;
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const owner = organisation.role === 'owner';

  return (
    <SectionCard
      headingId="leave-title"
      title={t`Leave organization`}
      description={
        owner
          ? t`As its owner you cannot leave: make another member the owner first (Transfer ownership, in the members’ list), then leave.`
          : t`You stop being a member; your seat is freed and the app stops working on your machines at its next check.`
      }
      actions={
        owner ? undefined : (
          <Button
            variant="light"
            color="red"
            leftSection={<LogoutIcon size={16} />}
            onClick={() => setConfirming(true)}
          >
            <Trans>Leave organization</Trans>
          </Button>
        )
      }
    >
      {null}
      <ConfirmDialog
        opened={confirming}
        title={t`Leave ${name}?`}
        confirmLabel={t`Leave organization`}
        failureTitle={t`You are still in the organization`}
        fallback={organisationMessages.leaveFailed}
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          await leave({ organisationId: organisation.id }).unwrap();
          showToast({
            title: t`You left the organization`,
            message: t`You are no longer in ${name}.`,
          });
          setConfirming(false);
          void navigate(portalPaths.organisations, { replace: true });
        }}
      >
        <Text size="sm">
          <Trans>
            Your seat is freed and the app stops working on your machines at its next check. To come back, ask
            its owner or an admin for a new invitation.
          </Trans>
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
