import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/messages';
import { useAppDispatch } from '../../../app/hooks';
import { FormAlert } from '../../../components/forms/form-alert';
import { revokeLicense } from '../admin-slice';
import { REVOKE_REASON_MAX_LENGTH, revokeFormSchema } from './license-forms';

export interface RevokeLicenseModalProps {
  licence: AdminLicense | null;
  onClose: () => void;
  onRevoked: (licence: AdminLicense) => void;
}

/**
 * Revokes a license for good, with the reason its owner will see on the license and in every
 * refused check. The reason is required and sent as query text.
 */
export function RevokeLicenseModal({ licence, onClose, onRevoked }: RevokeLicenseModalProps) {
  const dispatch = useAppDispatch();
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: { reason: '' },
    validate: schemaResolver(revokeFormSchema, { sync: true }),
  });
  const { reset } = form;
  useEffect(() => {
    reset();
    setFailure(undefined);
  }, [licence, reset]);

  const submit = form.onSubmit(
    async ({ reason }) => {
      if (!licence) return;
      setFailure(undefined);
      try {
        const revoked = await dispatch(
          revokeLicense({ id: licence.license_id, reason: revokeFormSchema.parse({ reason }).reason }),
        ).unwrap();
        notifications.show({
          color: 'teal',
          title: 'License revoked',
          message: `${revoked.license_key} no longer works. Its owner sees your reason.`,
        });
        onRevoked(revoked);
      } catch (error) {
        setFailure(typeof error === 'string' ? error : adminMessages.revokeLicenseFailed);
      }
    },
    () => form.getInputNode('reason')?.focus(),
  );

  return (
    <Modal opened={licence !== null} onClose={onClose} title="Revoke license?">
      {licence && (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm">
              <strong style={{ overflowWrap: 'anywhere' }}>{licence.license_key}</strong> ({licence.plan.name}
              , {licence.user_email ?? 'deleted account'}) stops working on every machine at once. Revoking is
              final: to restore access, issue a new license.
            </Text>
            {failure && <FormAlert title="Could not revoke the license">{failure}</FormAlert>}
            <Textarea
              label="Reason"
              description="Shown to the owner on their license."
              required
              rows={4}
              maxLength={REVOKE_REASON_MAX_LENGTH}
              data-autofocus
              {...form.getInputProps('reason')}
              inputWrapperOrder={['label', 'description', 'input', 'error']}
            />
            <Text size="xs" c="dimmed" ta="right" mt={-10}>
              {form.values.reason.length} / {REVOKE_REASON_MAX_LENGTH}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" color="red.9" loading={form.submitting}>
                Revoke license
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
