import { useLingui } from '@lingui/react/macro';
import { NumberInput, type NumberInputProps } from '@mantine/core';
import { MAX_SEATS } from '../../../../../shared/api/plans';

/**
 * "Machines": how many machines a license may be active on at once, a whole number up to
 * {@link MAX_SEATS}. The API calls it `seats`; the screen does not, as a seat is a person's place in
 * an organization.
 */
export function SeatsInput({ min = 1, ...props }: Omit<NumberInputProps, 'label' | 'max'>) {
  const { t } = useLingui();
  return (
    <NumberInput
      label={t`Machines`}
      size="md"
      min={min}
      max={MAX_SEATS}
      allowDecimal={false}
      allowNegative={false}
      // Out-of-range numbers stay as typed and the form says why, rather than changing silently.
      clampBehavior="none"
      {...props}
    />
  );
}
