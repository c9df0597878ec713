import { useLingui } from '@lingui/react/macro';
import { NativeSelect } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import type { Plan } from '../../../../../shared/api/plans';
import { adminMessages } from '../../../../../shared/screen-messages';
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
import { schemaResolver } from '../../../components/forms/schema-resolver';

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
  const { t, i18n } = useLingui();
  const [createLicense] = useCreateLicenseMutation();
  const { form, restart, dialog } = useDialogForm<CreateLicenseValues>({
    initialValues: initial(userId),
    validate: schemaResolver(createLicenseFormSchema),
    fields: CREATE_LICENSE_FIELDS,
    failedMessage: adminMessages.createLicenseFailed,
    save: async (values) => {
      const license = await createLicense(toCreateLicenseRequest(values)).unwrap();
      const plan = license.plan.name;
      const key = license.license_key;
      const email = license.user_email;
      notifications.show({
        color: 'teal',
        title: t`License issued`,
        message: email ? t`${plan} license for ${email}: ${key}` : t`${plan} license for the user: ${key}`,
      });
      onCreated(license);
    },
  });
  useEffect(() => {
    if (opened) restart(initial(userId));
  }, [opened, userId, restart]);

  const offered = issuablePlans(plans ?? []);
  const plan = offered.find((item) => item.id === form.values.plan_id);
  const planLimit = plan?.max_activations;

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t`New license`}
      size="lg"
      {...dialog}
      failureTitle={t`Could not issue the license`}
      submitLabel={t`Create license`}
    >
      <UserPicker
        label={t`User`}
        required
        size="md"
        data-autofocus
        inline
        value={form.values.user_id}
        onChange={(id) => form.setFieldValue('user_id', id)}
        error={form.errors.user_id}
      />
      <NativeSelect
        label={t`Plan`}
        required
        size="md"
        data={[
          { value: '', label: plans ? t`Choose a plan` : t`Loading plans…` },
          ...offered.map((item) => ({ value: item.id, label: planLabel(item, i18n) })),
        ]}
        {...form.getInputProps('plan_id')}
        error={form.errors.plan_id ?? plansError ?? undefined}
      />
      <SeatsInput
        description={
          plan
            ? t`Machines it may be active on at once; empty uses the plan’s ${planLimit}.`
            : t`Machines it may be active on at once; empty uses the plan’s limit.`
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
