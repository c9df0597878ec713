import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Group, NativeSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import {
  createFeatureRequestSchema,
  type CreateFeatureRequest,
  type Feature,
  type FeatureKind,
  USAGE_PERIODS,
  type UpdateFeatureRequest,
  type UsagePeriod,
} from '../../../../../shared/api/features';
import { AlertIcon } from '../../../components/brand/icons';
import { changedFields } from '../../../components/forms/changed-fields';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { adminMessages } from '../../../../../shared/screen-messages';
import { useCreateFeatureMutation, useUpdateFeatureMutation } from '../admin-endpoints';
import { KIND_LABELS, PERIOD_LABELS } from './feature-format';
import { formErrors } from './form-errors';

interface FeatureValues {
  key: string;
  name: string;
  description: string;
  kind: FeatureKind;
  period: UsagePeriod;
  unit: string;
}

const FIELDS = ['key', 'name', 'description', 'kind', 'period', 'unit'] as const;

const valuesOf = (feature: Feature | null): FeatureValues => ({
  key: feature?.key ?? '',
  name: feature?.name ?? '',
  description: feature?.description ?? '',
  kind: feature?.kind ?? 'boolean',
  period: feature?.period ?? 'month',
  unit: feature?.unit ?? '',
});

/** The request the form stands for: an on/off feature has no period or unit. */
export function toFeatureRequest(values: FeatureValues): CreateFeatureRequest {
  const metered = values.kind === 'metered';
  return {
    key: values.key.trim(),
    name: values.name.trim(),
    description: values.description.trim(),
    kind: values.kind,
    period: metered ? values.period : null,
    unit: metered && values.unit.trim() ? values.unit.trim() : null,
  };
}

const validateFeature = (values: FeatureValues) =>
  formErrors(createFeatureRequestSchema.safeParse(toFeatureRequest(values)));

/** Only what changed, so an edit never rewrites fields another administrator changed meanwhile. */
function changesOf(before: CreateFeatureRequest, after: CreateFeatureRequest): UpdateFeatureRequest {
  const changes: UpdateFeatureRequest = changedFields(before, after);
  // The server checks an on/off feature has no period: send the kind with it.
  if ('period' in changes || 'unit' in changes) changes.kind = after.kind;
  return changes;
}

export interface FeatureFormModalProps {
  /** `null` creates; a feature edits it. */
  feature: Feature | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (feature: Feature) => void;
}

/** "New feature" / "Edit feature": validated with the shared request schema before anything is sent. */
export function FeatureFormModal({ feature, opened, onClose, onSaved }: FeatureFormModalProps) {
  const { t, i18n } = useLingui();
  const [createFeature] = useCreateFeatureMutation();
  const [updateFeature] = useUpdateFeatureMutation();
  const { form, restart, dialog } = useDialogForm<FeatureValues>({
    initialValues: valuesOf(feature),
    validate: validateFeature,
    fields: FIELDS,
    failedMessage: feature ? adminMessages.updateFeatureFailed : adminMessages.createFeatureFailed,
    save: async (values) => {
      const request = toFeatureRequest(values);
      const saved = feature
        ? await updateFeature({
            id: feature.feature_id,
            changes: changesOf(toFeatureRequest(valuesOf(feature)), request),
          }).unwrap()
        : await createFeature(request).unwrap();
      const { name, key } = saved;
      notifications.show({
        color: 'teal',
        title: feature ? t`Feature saved` : t`Feature created`,
        message: feature
          ? t`${name} (${key}) was updated.`
          : t`${name} (${key}) can now be added to packages.`,
      });
      onSaved(saved);
    },
  });

  // Fresh values each time the modal opens (on a feature, or empty); never while it is being edited.
  useEffect(() => {
    if (opened) restart(valuesOf(feature));
  }, [opened, feature, restart]);

  const metered = form.values.kind === 'metered';
  const name = feature?.name;
  const key = feature?.key;
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      holdWhileSubmitting
      title={feature ? t`Edit feature ${name}` : t`New feature`}
      size="lg"
      {...dialog}
      failureTitle={feature ? t`Could not save the feature` : t`Could not create the feature`}
      submitLabel={feature ? t`Save changes` : t`Create feature`}
      submitDisabled={feature !== null && !form.isDirty()}
    >
      <TextInput
        label={t`Name`}
        description={t`What customers read on the purchase page.`}
        required
        maxLength={100}
        data-autofocus
        {...form.getInputProps('name')}
      />
      <TextInput
        label={t`Key`}
        description={t`What the desktop app checks: lower-case letters, digits and _, starting with a letter.`}
        required
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...form.getInputProps('key')}
      />
      {feature && form.values.key.trim() !== feature.key ? (
        <Alert color="yellow" variant="light" icon={<AlertIcon size={18} />} title={t`Changing the key`}>
          <Trans>Apps that check “{key}” stop finding this feature until they are updated.</Trans>
        </Alert>
      ) : null}
      <Textarea
        size="md"
        label={t`Description`}
        description={t`Optional; one line on what the feature does.`}
        rows={3}
        maxLength={500}
        {...form.getInputProps('description')}
      />
      <Radio.Group label={t`Kind`} size="md" required {...form.getInputProps('kind')}>
        <Stack gap="xs" mt="xs">
          <Radio
            value="boolean"
            label={i18n._(KIND_LABELS.boolean)}
            description={t`Included in a package or not.`}
          />
          <Radio
            value="metered"
            label={i18n._(KIND_LABELS.metered)}
            description={t`Counted per period against each package's limit (e.g. messages per month).`}
          />
        </Stack>
      </Radio.Group>
      {metered ? (
        <Group grow align="flex-start" wrap="wrap">
          <NativeSelect
            label={t`Usage period`}
            description={t`Limits start again each period.`}
            size="md"
            data={USAGE_PERIODS.map((period) => ({ value: period, label: i18n._(PERIOD_LABELS[period]) }))}
            {...form.getInputProps('period')}
          />
          <TextInput
            label={t`Unit`}
            description={t`Optional, plural: messages, documents…`}
            maxLength={40}
            {...form.getInputProps('unit')}
          />
        </Group>
      ) : null}
    </FormDialog>
  );
}
