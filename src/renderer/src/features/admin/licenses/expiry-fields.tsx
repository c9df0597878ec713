import { Group, NativeSelect } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { DayInput } from '../../../components/forms/day-input';
import type { ExpiryChoice } from './license-forms';

const LABELS: Record<ExpiryChoice, string> = {
  plan: 'End of the plan’s billing period',
  never: 'Never expires',
  date: 'On a date',
};

export interface ExpiryFieldsProps {
  choices: readonly ExpiryChoice[];
  choice: ExpiryChoice;
  choiceProps: GetInputPropsReturnType;
  dateProps: GetInputPropsReturnType;
}

/** "Expires": a choice, plus the day when the choice is a date. */
export function ExpiryFields({ choices, choice, choiceProps, dateProps }: ExpiryFieldsProps) {
  return (
    <Group grow align="flex-start" gap="md" wrap="wrap">
      <NativeSelect
        label="Expires"
        size="md"
        miw={200}
        data={choices.map((value) => ({ value, label: LABELS[value] }))}
        {...choiceProps}
      />
      {choice === 'date' && (
        <DayInput
          label="Expiry date"
          description="The license ends at the end of this day."
          required
          miw={200}
          {...dateProps}
          value={String(dateProps.value ?? '')}
        />
      )}
    </Group>
  );
}
