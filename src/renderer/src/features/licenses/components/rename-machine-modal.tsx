import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import {
  type Activation,
  type License,
  MACHINE_LABEL_MAX,
  machineLabelSchema,
} from '../../../../../shared/api/licenses';
import { showToast } from '../../../components/data/toast';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { machineMessages } from '../licenses-endpoints';
import { knownText } from '../../../lib/i18n/portal-i18n';

interface RenameValues {
  label: string;
}

const FIELDS = ['label'] as const;

/** A typed name: empty drops the name, anything else must pass the server's rule. */
export function machineLabelProblem(value: string): string | null {
  if (value.trim() === '') return null;
  const checked = machineLabelSchema.safeParse(value);
  if (checked.success) return null;
  // The shared schema's English (the server's too), in the language shown.
  const problem = checked.error.issues[0]?.message;
  return problem ? knownText(problem) : t`Not a machine name`;
}

export interface RenameMachineModalProps {
  license: License;
  /** The machine being named; null keeps the dialog closed. */
  activation: Activation | null;
  /** Its name as the table shows it, for the dialog's title and the toast. */
  currentName: string;
  onClose: () => void;
  /** Sends the name (null drops it); a rejection shows in the dialog. */
  save: (label: string | null) => Promise<unknown>;
}

/**
 * "Rename machine": one field, saved with Enter or the button. The name is kept when the machine
 * is activated again; left empty, the machine goes by the name its device reports.
 */
export function RenameMachineModal({
  license,
  activation,
  currentName,
  onClose,
  save,
}: RenameMachineModalProps) {
  const { t } = useLingui();
  const { form, restart, dialog } = useDialogForm<RenameValues>({
    initialValues: { label: '' },
    validate: { label: machineLabelProblem },
    fields: FIELDS,
    failedMessage: machineMessages.renameFailed,
    save: async ({ label }) => {
      if (!activation) return;
      const trimmed = label.trim();
      const next = trimmed === '' ? null : trimmed;
      if (next === activation.label) return onClose();
      await save(next);
      const reportedName = activation.device_name || t`its hardware id`;
      showToast({
        title: next ? t`Machine renamed` : t`Name removed`,
        message: next
          ? t`${currentName} is now called ${next}.`
          : t`The machine goes by ${reportedName} again.`,
      });
      onClose();
    },
  });

  useEffect(() => {
    if (activation) restart({ label: activation.label ?? '' });
  }, [activation, restart]);

  const reported = activation?.device_name || null;
  const plan = license.plan.name;

  return (
    <FormDialog
      opened={activation !== null}
      onClose={onClose}
      title={activation ? t`Rename ${currentName}` : t`Rename machine`}
      {...dialog}
      holdWhileSubmitting
      failureTitle={t`Could not rename the machine`}
      submitLabel={t`Save name`}
      intro={
        <Text size="sm">
          <Trans>
            Give this machine of the {plan} license a name that tells it apart. It keeps the name when it is
            activated again.
          </Trans>
        </Text>
      }
    >
      <TextInput
        label={t`Machine name`}
        placeholder={t`Office laptop`}
        description={
          reported
            ? t`Leave empty to show what the device reports: ${reported}.`
            : t`Leave empty to show the machine by its hardware id.`
        }
        maxLength={MACHINE_LABEL_MAX}
        autoComplete="off"
        data-autofocus
        {...form.getInputProps('label')}
      />
    </FormDialog>
  );
}
