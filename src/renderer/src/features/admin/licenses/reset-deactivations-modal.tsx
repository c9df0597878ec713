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
          title: 'Deactivation count reset',
          message: 'Its owner may deactivate machines again.',
        });
        onClose();
      } catch (error) {
        setFailure(toSubmitFailure(error, resetDeactivationsFailed).message);
      }
    },
    () => form.getInputNode('reason')?.focus(),
  );

  const changes = license?.machine_changes;
  return (
    <FormDialog
      opened={license !== null}
      ready={license !== null}
      onClose={onClose}
      title="Reset the deactivation count?"
      onSubmit={submit}
      intro={
        changes && (
          <Text size="sm">
            This license deactivated {changes.used} of the {changes.limit} machines its plan allows in{' '}
            {changes.window_days} days. Resetting forgives them, so its owner may free machines again at once.
          </Text>
        )
      }
      failure={failure}
      failureTitle="Could not reset the count"
      submitLabel="Reset count"
      submitting={form.submitting}
    >
      <Textarea
        label="Reason"
        description="Kept in the security log with your name."
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
