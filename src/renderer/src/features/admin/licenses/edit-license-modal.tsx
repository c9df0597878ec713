import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { NativeSelect, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import type { Plan } from '../../../../../shared/api/plans';
import { adminMessages } from '../../../../../shared/screen-messages';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { useUpdateLicenseMutation } from '../admin-endpoints';
import { ExpiryFields } from './expiry-fields';
import { SeatsInput } from './seats-input';
import {
  EDIT_LICENSE_FIELDS,
  editLicenseFormSchema,
  type EditLicenseValues,
  editValuesOf,
  toUpdateLicenseRequest,
} from './license-forms';
import { planLabel } from './plan-options';
import { schemaResolver } from '../../../components/forms/schema-resolver';

export interface EditLicenseModalProps {
  /** The license being edited (never a revoked one); null keeps the modal closed. */
  license: AdminLicense | null;
  plans: Plan[] | null;
  onClose: () => void;
  onSaved: (license: AdminLicense) => void;
}

const STATUS_OPTIONS: { value: EditLicenseValues['status']; label: MessageDescriptor }[] = [
  { value: 'active', label: msg`Active` },
  { value: 'suspended', label: msg`Suspended (checks fail until it is active again)` },
];

/** "Edit license": status (active or suspended), plan, seats and expiry; only changes are sent. */
export function EditLicenseModal({ license, plans, onClose, onSaved }: EditLicenseModalProps) {
  const { t, i18n } = useLingui();
  const [updateLicense] = useUpdateLicenseMutation();
  const schema = useMemo(
    () => editLicenseFormSchema(license ?? { activations_used: 0, expires_at: null }),
    [license],
  );
  const { form, restart, dialog } = useDialogForm<EditLicenseValues>({
    initialValues: { status: 'active', plan_id: '', seats: 1, expiry: 'never', expires_on: '' },
    validate: schemaResolver(schema),
    fields: EDIT_LICENSE_FIELDS,
    failedMessage: adminMessages.updateLicenseFailed,
    save: async (values) => {
      if (!license) return;
      const changes = toUpdateLicenseRequest(license, values);
      if (!changes) return onClose();
      const saved = await updateLicense({ id: license.license_id, changes }).unwrap();
      const key = saved.license_key;
      notifications.show({
        color: 'teal',
        title: t`License updated`,
        message: t`${key} is saved.`,
      });
      onSaved(saved);
    },
  });
  useEffect(() => {
    if (license) restart(editValuesOf(license));
  }, [license, restart]);

  // The current plan is always offered, archived or not; other archived plans are not.
  const planOptions = (plans ?? [])
    .filter((plan) => !plan.archived_at || plan.id === license?.plan_id)
    .map((plan) => ({ value: plan.id, label: planLabel(plan, i18n) }));
  if (license && !planOptions.some((option) => option.value === license.plan_id))
    planOptions.unshift({ value: license.plan_id, label: license.plan.name });
  const planChanged = !!license && form.values.plan_id !== license.plan_id;
  const seatsChanged = !!license && form.values.seats !== license.max_activations;
  const key = license?.license_key;
  const email = license?.user_email;
  const used = license?.activations_used ?? 0;

  return (
    <FormDialog
      opened={license !== null}
      ready={license !== null}
      onClose={onClose}
      title={t`Edit license`}
      size="lg"
      {...dialog}
      intro={
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {email ? (
            <>
              {key} · {email}
            </>
          ) : (
            <Trans>{key} · deleted account</Trans>
          )}
        </Text>
      }
      failureTitle={t`Could not save the license`}
      submitLabel={t`Save changes`}
      submitDisabled={!form.isDirty()}
    >
      {license && (
        <>
          <NativeSelect
            label={t`Status`}
            size="md"
            data={STATUS_OPTIONS.map(({ value, label }) => ({ value, label: i18n._(label) }))}
            {...form.getInputProps('status')}
          />
          <NativeSelect label={t`Plan`} size="md" data={planOptions} {...form.getInputProps('plan_id')} />
          <SeatsInput
            description={
              planChanged && !seatsChanged
                ? t`Left as it is, the new plan’s seat limit applies.`
                : plural(used, { one: '# machine uses it now.', other: '# machines use it now.' })
            }
            min={Math.max(1, license.activations_used)}
            {...form.getInputProps('seats')}
          />
          <ExpiryFields
            choices={['never', 'date']}
            choice={form.values.expiry}
            choiceProps={form.getInputProps('expiry')}
            dateProps={form.getInputProps('expires_on')}
          />
        </>
      )}
    </FormDialog>
  );
}
