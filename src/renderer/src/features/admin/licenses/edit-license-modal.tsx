import { Button, Group, Modal, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { MAX_SEATS, type Plan } from '../../../../../shared/api/plans';
import { adminMessages } from '../../../../../shared/messages';
import { useAppDispatch } from '../../../app/hooks';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { updateLicense } from '../admin-slice';
import { ExpiryFields } from './expiry-fields';
import {
  EDIT_LICENSE_FIELDS,
  editLicenseFormSchema,
  type EditLicenseValues,
  editValuesOf,
  toUpdateLicenseRequest,
} from './license-forms';
import { planLabel } from './plan-options';

export interface EditLicenseModalProps {
  /** The license being edited (never a revoked one); null keeps the modal closed. */
  licence: AdminLicense | null;
  plans: Plan[] | null;
  onClose: () => void;
  onSaved: (licence: AdminLicense) => void;
}

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended (checks fail until it is active again)' },
];

/** "Edit license": status (active or suspended), plan, seats and expiry; only changes are sent. */
export function EditLicenseModal({ licence, plans, onClose, onSaved }: EditLicenseModalProps) {
  const dispatch = useAppDispatch();
  const [failure, setFailure] = useState<string>();
  const schema = useMemo(
    () => editLicenseFormSchema(licence ?? { activations_used: 0, expires_at: null }),
    [licence],
  );
  const form = useForm<EditLicenseValues>({
    initialValues: { status: 'active', plan_id: '', seats: 1, expiry: 'never', expires_on: '' },
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnBlur: true,
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!licence) return;
    setValues(editValuesOf(licence));
    resetDirty(editValuesOf(licence));
    setFailure(undefined);
  }, [licence, setValues, resetDirty]);

  // The current plan is always offered, archived or not; other archived plans are not.
  const planOptions = (plans ?? [])
    .filter((plan) => !plan.archived_at || plan.id === licence?.plan_id)
    .map((plan) => ({ value: plan.id, label: planLabel(plan) }));
  if (licence && !planOptions.some((option) => option.value === licence.plan_id))
    planOptions.unshift({ value: licence.plan_id, label: licence.plan.name });
  const planChanged = !!licence && form.values.plan_id !== licence.plan_id;
  const seatsChanged = !!licence && form.values.seats !== licence.max_activations;

  const submit = form.onSubmit(
    async (values) => {
      if (!licence) return;
      setFailure(undefined);
      const changes = toUpdateLicenseRequest(licence, values);
      if (!changes) return onClose();
      try {
        const saved = await dispatch(updateLicense({ id: licence.license_id, changes })).unwrap();
        notifications.show({
          color: 'teal',
          title: 'License updated',
          message: `${saved.license_key} is saved.`,
        });
        onSaved(saved);
      } catch (error) {
        setFailure(toSubmitFailure(error, adminMessages.updateLicenseFailed).message);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, EDIT_LICENSE_FIELDS),
  );

  return (
    <Modal opened={licence !== null} onClose={onClose} title="Edit license" size="lg">
      {licence && (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {licence.license_key} · {licence.user_email ?? 'deleted account'}
            </Text>
            {failure && <FormAlert title="Could not save the license">{failure}</FormAlert>}
            <NativeSelect label="Status" size="md" data={STATUS_OPTIONS} {...form.getInputProps('status')} />
            <NativeSelect label="Plan" size="md" data={planOptions} {...form.getInputProps('plan_id')} />
            <NumberInput
              label="Seats"
              description={
                planChanged && !seatsChanged
                  ? 'Left as it is, the new plan’s seat limit applies.'
                  : `${licence.activations_used} machine${licence.activations_used === 1 ? '' : 's'} use it now.`
              }
              size="md"
              min={Math.max(1, licence.activations_used)}
              max={MAX_SEATS}
              allowDecimal={false}
              allowNegative={false}
              // Out-of-range numbers stay as typed and the form says why, rather than changing silently.
              clampBehavior="none"
              {...form.getInputProps('seats')}
            />
            <ExpiryFields
              choices={['never', 'date']}
              choice={form.values.expiry}
              choiceProps={form.getInputProps('expiry')}
              dateProps={form.getInputProps('expires_on')}
            />
            <Group justify="flex-end" gap="sm" mt="xs">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
                Save changes
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
