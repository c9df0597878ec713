import { useLingui } from '@lingui/react/macro';
import { NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { minorDigits } from './package-format';

/**
 * A package's prices in the other currencies payments are taken in (issue 34, item 7): one field
 * per currency, empty when the package is not sold in it. Customers pay in their billing country's
 * currency when the package has a price in it, else in the package's own; nothing is converted.
 */
export function PackagePricesEditor({
  inputProps,
  currencies,
  own,
}: {
  /** The package form's `getInputProps`: each price is its `other_prices.<currency>` field. */
  inputProps: (path: `other_prices.${string}`) => GetInputPropsReturnType;
  /** The currencies payments are taken in besides the package's own. */
  currencies: readonly string[];
  own: string;
}) {
  const { t } = useLingui();
  if (currencies.length === 0) return null;
  return (
    <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Text component="legend" fw={500} size="sm" p={0}>
        {t`Prices in other currencies`}
      </Text>
      <Text size="xs" c="dimmed">
        {t`Customers pay in their billing country's currency when the package has a price in it, else in ${own}. Leave a currency empty not to sell it in that currency; nothing is converted.`}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {currencies.map((currency) => (
          <NumberInput
            key={currency}
            label={t`Price in ${currency}`}
            size="md"
            min={0}
            decimalScale={minorDigits(currency)}
            allowNegative={false}
            thousandSeparator=","
            {...inputProps(`other_prices.${currency}`)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
