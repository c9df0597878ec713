import { Trans, useLingui } from '@lingui/react/macro';
import { Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useResetDeactivationsMutation } from '../admin-endpoints';
import { REVOKE_REASON_MAX_LENGTH, resetDeactivationsFormSchema } from './license-forms';
import { useLicenseReasonForm } from './reason-form';

export const resetDeactivationsFailed = 'Failed to reset the deactivation count';

export interface ResetDeactivationsModalProps {
  license: AdminLicense | null;
  onClose: () => void;
}

/**
 * Forgives the deactivations a license counted against its plan's cap, so its owner may free
 * machines again at once (a stolen laptop, a support case). The reason goes to the security log.
 */
export function ResetDeactivationsModal({ license, onClose }: ResetDeactivationsModalProps) {
  const { t } = useLingui();
  const [resetDeactivations] = useResetDeactivationsMutation();
  const { form, failure, setFailure } = useLicenseReasonForm(license, resetDeactivationsFormSchema);

  const submit = form.onSubmit(
    async ({ reason }) => {
      if (!license) return;
      setFailure(undefined);
      try {
        await resetDeactivations({
          id: license.license_id,
          reason: resetDeactivationsFormSchema.parse({ reason }).reason,
        }).unwrap();
        notifications.show({
          color: 'teal',
          title: t`Deactivation count reset`,
          message: t`Its owner may deactivate machines again.`,
        });
        onClose();
      } catch (error) {
        setFailure(toSubmitFailure(error, resetDeactivationsFailed).message);
      }
    },
    () => form.getInputNode('reason')?.focus(),
  );

  const changes = license?.machine_changes;
  const used = changes?.used ?? 0;
  const limit = changes?.limit ?? 0;
  const days = changes?.window_days ?? 0;
  return (
    <FormDialog
      opened={license !== null}
      ready={license !== null}
      onClose={onClose}
      title={t`Reset the deactivation count?`}
      onSubmit={submit}
      intro={
        changes && (
          <Text size="sm">
            <Trans>
              This license deactivated {used} of the {limit} machines its plan allows in {days} days.
              Resetting forgives them, so its owner may free machines again at once.
            </Trans>
          </Text>
        )
      }
      failure={failure}
      failureTitle={t`Could not reset the count`}
      submitLabel={t`Reset count`}
      submitting={form.submitting}
    >
      <Textarea
        label={t`Reason`}
        description={t`Kept in the security log with your name.`}
        required
        rows={3}
        maxLength={REVOKE_REASON_MAX_LENGTH}
        data-autofocus
        {...form.getInputProps('reason')}
        inputWrapperOrder={['label', 'description', 'input', 'error']}
      />
    </FormDialog>
  );
}
