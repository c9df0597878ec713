import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { createOrganisationBodySchema, type Organisation } from '../../../../../shared/api/organisations';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { showToast } from '../../../components/data/toast';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { BillingDetailsCard } from '../../invoices';
import {
  organisationMessages,
  useCreateOrganisationMutation,
  useUpdateOrganisationMutation,
} from '../organisations-endpoints';

const nameSchema = z.object({ name: createOrganisationBodySchema.shape.name });

/**
 * The second, optional step: the billing details its invoices will carry, with the billing form
 * the customer's own details use. Skipped, they can be added on the organisation's page later.
 */
function BillingStep({ organisation, onDone }: { organisation: Organisation; onDone(): void }) {
  const { t } = useLingui();
  const [updateOrganisation] = useUpdateOrganisationMutation();
  const name = organisation.name;
  const [saved, setSaved] = useState(false);
  const left = useRef(false);
  // Leave once the form has taken in what was saved (it resets itself after a save), and only once.
  useEffect(() => {
    if (!saved || left.current) return;
    left.current = true;
    onDone();
  }, [saved, onDone]);
  return (
    <Stack gap="md">
      <Text size="sm">
        <Trans>
          {name} is created and you are its owner. Add the billing details its invoices carry now, or later on
          its page.
        </Trans>
      </Text>
      <BillingDetailsCard
        details={organisation.billing_details}
        headingId="new-organisation-billing-title"
        description={t`Optional. Printed on the organization’s invoices.`}
        save={async (billing_details) => {
          const answer = await updateOrganisation({
            organisationId: organisation.id,
            billing_details,
          }).unwrap();
          if (!answer.billing_details) throw new Error(organisationMessages.updateFailed);
          setSaved(true);
          return answer.billing_details;
        }}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          <Trans>Skip for now</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Creating an organisation: its name, then (optionally) its billing details. The caller becomes its
 * owner and lands on its page, where seats and invitations follow.
 */
export function CreateOrganisationDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useLingui();
  const [createOrganisation] = useCreateOrganisationMutation();
  const [created, setCreated] = useState<Organisation | null>(null);
  const navigate = useNavigate();
  const { form, restart, dialog } = useDialogForm({
    initialValues: { name: '' },
    validate: schemaResolver(nameSchema),
    fields: ['name'],
    failedMessage: organisationMessages.createFailed,
    save: async ({ name }) => {
      const organisation = await createOrganisation({ name: name.trim() }).unwrap();
      const created = organisation.name;
      showToast({ title: t`Organization created`, message: t`You are the owner of ${created}.` });

      setCreated(organisation);
    },
  });

  useEffect(() => {
    if (!opened) return;
    restart({ name: '' });
    setCreated(null);
  }, [opened, restart]);

  if (created) {
    const open = () => {
      onClose();
      void navigate(pathWith(portalPaths.organisationDetail, { organisationId: created.id }));
    };
    const name = created.name;
    return (
      <Modal
        opened={opened}
        onClose={open}
        title={t`Billing details for ${name}`}
        size="lg"
        closeButtonProps={{ 'aria-label': t`Close` }}
      >
        <BillingStep organisation={created} onDone={open} />
      </Modal>
    );
  }

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t`Create organization`}
      {...dialog}
      failureTitle={t`The organization was not created`}
      submitLabel={t`Create organization`}
      holdWhileSubmitting
    >
      <TextInput
        label={t`Name`}
        description={t`As your team knows it; you can change it later.`}
        required
        data-autofocus
        autoComplete="organization"
        {...form.getInputProps('name')}
      />
    </FormDialog>
  );
}
