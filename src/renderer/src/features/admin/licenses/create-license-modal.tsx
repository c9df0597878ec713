import { useLingui } from '@lingui/react/macro';
import { NativeSelect } from '@mantine/core';
import { schemaResolver } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import type { Plan } from '../../../../../shared/api/plans';
import { adminMessages } from '../../../../../shared/messages';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { useCreateLicenseMutation } from '../admin-endpoints';
import { ExpiryFields } from './expiry-fields';
import { SeatsInput } from './seats-input';
import {
  CREATE_LICENSE_FIELDS,
  createLicenseFormSchema,
  type CreateLicenseValues,
  toCreateLicenseRequest,
} from './license-forms';
import { issuablePlans, planLabel } from './plan-options';
import { UserPicker } from './user-picker';

export interface CreateLicenseModalProps {
  opened: boolean;
  /** The user to issue for at first (the list's user filter, if any). */
  userId: string | null;
  plans: Plan[] | null;
  plansError: string | null;
  onClose: () => void;
  onCreated: (license: AdminLicense) => void;
}

const initial = (userId: string | null): CreateLicenseValues => ({
  user_id: userId,
  plan_id: '',
  expiry: 'plan',
  expires_on: '',
  seats: '',
});

/** "New license": issues a license of a plan to a user; expiry and seats default to the plan's. */
export function CreateLicenseModal({
  opened,
  userId,
  plans,
  plansError,
  onClose,
  onCreated,
}: CreateLicenseModalProps) {
  const { i18n } = useLingui();
  const [createLicense] = useCreateLicenseMutation();
  const { form, restart, dialog } = useDialogForm<CreateLicenseValues>({
    initialValues: initial(userId),
    validate: schemaResolver(createLicenseFormSchema, { sync: true }),
    fields: CREATE_LICENSE_FIELDS,
    failedMessage: adminMessages.createLicenseFailed,
    save: async (values) => {
      const license = await createLicense(toCreateLicenseRequest(values)).unwrap();
      notifications.show({
        color: 'teal',
        title: 'License issued',
        message: `${license.plan.name} license for ${license.user_email ?? 'the user'}: ${license.license_key}`,
      });
      onCreated(license);
    },
  });
  useEffect(() => {
    if (opened) restart(initial(userId));
  }, [opened, userId, restart]);

  const offered = issuablePlans(plans ?? []);
  const plan = offered.find((item) => item.id === form.values.plan_id);

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="New license"
      size="lg"
      {...dialog}
      failureTitle="Could not issue the license"
      submitLabel="Create license"
    >
      <UserPicker
        label="User"
        required
        size="md"
        data-autofocus
        inline
        value={form.values.user_id}
        onChange={(id) => form.setFieldValue('user_id', id)}
        error={form.errors.user_id}
      />
      <NativeSelect
        label="Plan"
        required
        size="md"
        data={[
          { value: '', label: plans ? 'Choose a plan' : 'Loading plans…' },
          ...offered.map((item) => ({ value: item.id, label: planLabel(item, i18n) })),
        ]}
        {...form.getInputProps('plan_id')}
        error={form.errors.plan_id ?? plansError ?? undefined}
      />
      <SeatsInput
        description={
          plan
            ? `Machines it may be active on at once; empty uses the plan’s ${plan.max_activations}.`
            : 'Machines it may be active on at once; empty uses the plan’s limit.'
        }
        {...form.getInputProps('seats')}
      />
      <ExpiryFields
        choices={['plan', 'never', 'date']}
        choice={form.values.expiry}
        choiceProps={form.getInputProps('expiry')}
        dateProps={form.getInputProps('expires_on')}
      />
    </FormDialog>
  );
}
