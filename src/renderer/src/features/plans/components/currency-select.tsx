import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import classes from '../../../components/layout/language-select.module.css';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';

/** A currency's name in the language shown ("Euro", "Indische Rupie"), or its code when Intl has none. */
function currencyName(currency: string): string {
  try {
    // The formatting locale, as dates and amounts use: the browser's own for English.
    return new Intl.DisplayNames(formattingLocale(), { type: 'currency' }).of(currency) ?? currency;
  } catch {
    return currency;
  }
}

/**
 * Which currency prices are shown and paid in, among those the plans are sold in: a native select
 * (the phone's own picker, the keyboard's arrows), in the language switch's look. Nothing is
 * converted: each option is a price an administrator set.
 */
export function CurrencySelect({
  currencies,
  value,
  onChange,
}: {
  currencies: readonly string[];
  value: string;
  onChange: (currency: string) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  return (
    <label htmlFor={id} className={classes.field}>
      {t`Prices in`}
      <span className={classes.arrow}>
        <select
          id={id}
          className={classes.select}
          value={currencies.includes(value) ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value)}
        >
          {currencies.includes(value) ? null : <option value="" disabled />}
          {currencies.map((currency) => (
            <option key={currency} value={currency}>
              {`${currency} · ${currencyName(currency)}`}
            </option>
          ))}
        </select>
      </span>
    </label>
  );
}
