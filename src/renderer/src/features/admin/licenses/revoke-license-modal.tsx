import { Trans, useLingui } from '@lingui/react/macro';
import { Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/screen-messages';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useRevokeLicenseMutation } from '../admin-endpoints';
import { REVOKE_REASON_MAX_LENGTH, revokeFormSchema } from './license-forms';
import { useLicenseReasonForm } from './reason-form';
import { LicenseKeyText } from '../../../components/data/license-key-text';

export interface RevokeLicenseModalProps {
  license: AdminLicense | null;
  onClose: () => void;
  onRevoked: (license: AdminLicense) => void;
}

/**
 * Revokes a license for good, with the reason its owner will see on the license and in every
 * refused check. The reason is required and sent as query text.
 */
export function RevokeLicenseModal({ license, onClose, onRevoked }: RevokeLicenseModalProps) {
  const { t } = useLingui();
  const [revokeLicense] = useRevokeLicenseMutation();
  const { form, failure, setFailure } = useLicenseReasonForm(license, revokeFormSchema);

  const submit = form.onSubmit(
    async ({ reason }) => {
      if (!license) return;
      setFailure(undefined);
      try {
        const revoked = await revokeLicense({
          id: license.license_id,
          reason: revokeFormSchema.parse({ reason }).reason,
        }).unwrap();
        const key = revoked.license_key;
        notifications.show({
          color: 'teal',
          title: t`License revoked`,
          message: t`${key} no longer works. Its owner sees your reason.`,
        });
        onRevoked(revoked);
      } catch (error) {
        setFailure(toSubmitFailure(error, adminMessages.revokeLicenseFailed).message);
      }
    },
    () => form.getInputNode('reason')?.focus(),
  );

  const plan = license?.plan.name;
  const who = license?.user_email ?? t`deleted account`;
  const length = form.values.reason.length;
  const max = REVOKE_REASON_MAX_LENGTH;

  return (
    <FormDialog
      opened={license !== null}
      ready={license !== null}
      onClose={onClose}
      title={t`Revoke license?`}
      onSubmit={submit}
      intro={
        license && (
          <Text size="sm">
            <Trans>
              <strong>
                <LicenseKeyText value={license.license_key} />
              </strong>{' '}
              ({plan}, {who}) stops working on every machine at once. Revoking is final: to restore access,
              issue a new license.
            </Trans>
          </Text>
        )
      }
      failure={failure}
      failureTitle={t`Could not revoke the license`}
      submitLabel={t`Revoke license`}
      submitColor="red.9"
      submitting={form.submitting}
    >
      <Textarea
        label={t`Reason`}
        description={t`Shown to the owner on their license.`}
        required
        rows={4}
        maxLength={REVOKE_REASON_MAX_LENGTH}
        data-autofocus
        {...form.getInputProps('reason')}
        inputWrapperOrder={['label', 'description', 'input', 'error']}
      />
      <Text size="xs" c="dimmed" ta="right" mt={-10}>
        {length} / {max}
      </Text>
    </FormDialog>
  );
}
