import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Group, NativeSelect } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { DayInput } from '../../../components/forms/day-input';
import type { ExpiryChoice } from './license-forms';

const LABELS: Record<ExpiryChoice, MessageDescriptor> = {
  plan: msg`End of the plan’s billing period`,
  never: msg`Never expires`,
  date: msg`On a date`,
};

export interface ExpiryFieldsProps {
  choices: readonly ExpiryChoice[];
  choice: ExpiryChoice;
  choiceProps: GetInputPropsReturnType;
  dateProps: GetInputPropsReturnType;
}

/** "Expires": a choice, plus the day when the choice is a date. */
export function ExpiryFields({ choices, choice, choiceProps, dateProps }: ExpiryFieldsProps) {
  const { t, i18n } = useLingui();
  return (
    <Group grow align="flex-start" gap="md" wrap="wrap">
      <NativeSelect
        label={t`Expires`}
        size="md"
        miw={200}
        data={choices.map((value) => ({ value, label: i18n._(LABELS[value]) }))}
        {...choiceProps}
      />
      {choice === 'date' && (
        <DayInput
          label={t`Expiry date`}
          description={t`The license ends at the end of this day.`}
          required
          miw={200}
          {...dateProps}
          value={String(dateProps.value ?? '')}
        />
      )}
    </Group>
  );
}
