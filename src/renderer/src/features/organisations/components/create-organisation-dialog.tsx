import { TextInput } from '@mantine/core';
import { schemaResolver } from '@mantine/form';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { createOrganisationBodySchema } from '../../../../../shared/api/organisations';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { showToast } from '../../../components/data/toast';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { organisationMessages, useCreateOrganisationMutation } from '../organisations-endpoints';

const nameSchema = z.object({ name: createOrganisationBodySchema.shape.name });

/**
 * Creating an organisation: its name is enough. The caller becomes its owner and lands on its page,
 * where the billing details for its invoices, seats and invitations follow.
 */
export function CreateOrganisationDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [createOrganisation] = useCreateOrganisationMutation();
  const navigate = useNavigate();
  const { form, restart, dialog } = useDialogForm({
    initialValues: { name: '' },
    validate: schemaResolver(nameSchema, { sync: true }),
    fields: ['name'],
    failedMessage: organisationMessages.createFailed,
    save: async ({ name }) => {
      const created = await createOrganisation({ name: name.trim() }).unwrap();
      showToast({ title: 'Organisation created', message: `You are the owner of ${created.name}.` });
      onClose();
      void navigate(pathWith(portalPaths.organisationDetail, { organisationId: created.id }));
    },
  });

  useEffect(() => {
    if (opened) restart({ name: '' });
  }, [opened, restart]);

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Create organisation"
      {...dialog}
      failureTitle="The organisation was not created"
      submitLabel="Create organisation"
      holdWhileSubmitting
    >
      <TextInput
        label="Name"
        description="As your team knows it; you can change it later. Billing details for its invoices are added on its page."
        required
        data-autofocus
        autoComplete="organization"
        {...form.getInputProps('name')}
      />
    </FormDialog>
  );
}
